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

/** The public pages, each at its route's own spelling. */
export function sitemapXml(origin: string): string {
  const urls = SITE_PAGES.filter((page) => page.inSitemap).map(
    (page) => `  <url><loc>${escapeXml(`${origin}${page.path}`)}</loc></url>`,
  );
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...urls,
    '</urlset>',
    '',
  ].join('\n');
}
