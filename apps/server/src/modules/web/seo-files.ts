import { SITE_PAGES } from '@portfolio/types';

/** Paths crawlers have no business in: the API and the signed-in pages. */
const DISALLOWED = ['/api/', '/admin', '/profile'];

export function robotsTxt(origin: string): string {
  return [
    'User-agent: *',
    'Allow: /',
    ...DISALLOWED.map((path) => `Disallow: ${path}`),
    '',
    `Sitemap: ${origin}/sitemap.xml`,
    '',
  ].join('\n');
}

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** An address sitemap.xml lists beside the pages: a post, a game, a gallery project. */
export interface SitemapEntry {
  /** A site path with its query (`/devlog/first-post`, `/games?play=Pong`). */
  path: string;
  /** ISO 8601. */
  lastModified?: string;
}

/** The public pages, each at its route's own spelling, then the published content's addresses. */
export function sitemapXml(origin: string, entries: readonly SitemapEntry[] = []): string {
  const pages: SitemapEntry[] = SITE_PAGES.filter((page) => page.inSitemap).map((page) => ({
    path: page.path,
  }));
  const urls = [...pages, ...entries].map(
    ({ path, lastModified }) =>
      `  <url><loc>${escapeXml(`${origin}${path}`)}</loc>${
        lastModified ? `<lastmod>${escapeXml(lastModified)}</lastmod>` : ''
      }</url>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}
