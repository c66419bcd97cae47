import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';

import {
  FEED_PATH,
  PAGE_DATA_ELEMENT_ID,
  SITE_CONFIG_ELEMENT_ID,
  SITE_NAME,
  type SiteConfig,
} from '@portfolio/types';

/** One variant of index.html: the bytes in each encoding and an ETag per encoding. */
export interface HtmlVariant {
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
  etag: string;
}

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** JSON that cannot end the script element it sits in. */
const scriptSafeJson = (value: unknown) =>
  JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e');

/**
 * What a page's head says about it: its title and description, and the social card (Open
 * Graph, Twitter) that a link pasted in a chat or a social network shows. Addresses absolute.
 */
export interface PageHead {
  title: string;
  description: string;
  /** The page's canonical address. */
  url: string;
  /** The card's image. */
  image: string;
  type: 'website' | 'article';
  /** ISO 8601, for an article. */
  publishedAt?: string;
  /**
   * What the page's script would otherwise ask the API for first (a post), in a JSON element
   * (PAGE_DATA_ELEMENT_ID): the page shows it without waiting for a request.
   */
  data?: unknown;
  /**
   * The page's largest picture when the server knows it (the first card of /Gallery): fetched
   * with the HTML at high priority instead of after the page's script has drawn it.
   */
  leadImage?: string;
}

/** The card's tags, the feed's link and the canonical address. */
function headTags(head: PageHead, feedUrl: string, siteName: string): string {
  const meta = (attribute: 'property' | 'name', key: string, value: string) =>
    `<meta ${attribute}="${key}" content="${escapeHtml(value)}">`;
  return [
    `<link rel="canonical" href="${escapeHtml(head.url)}">`,
    `<link rel="alternate" type="application/atom+xml" title="${escapeHtml(`Devlog | ${siteName}`)}" href="${escapeHtml(feedUrl)}">`,
    meta('property', 'og:site_name', siteName),
    meta('property', 'og:type', head.type),
    meta('property', 'og:title', head.title),
    meta('property', 'og:description', head.description),
    meta('property', 'og:url', head.url),
    meta('property', 'og:image', head.image),
    ...(head.publishedAt ? [meta('property', 'article:published_time', head.publishedAt)] : []),
    meta('name', 'twitter:card', 'summary_large_image'),
    meta('name', 'twitter:title', head.title),
    meta('name', 'twitter:description', head.description),
    meta('name', 'twitter:image', head.image),
  ].join('');
}

/**
 * index.html as the server sends it for one page: that page's title, description and social card
 * (crawlers and link previews read them before any script runs, and most run none), and the
 * runtime settings the app reads (footer links, the latest posts) in a JSON script element,
 * which the CSP lets through because it never runs.
 */
export function renderIndexHtml(
  template: string,
  page: PageHead,
  siteConfig: SiteConfig,
  preloads: readonly string[] = [],
  readStylesheet: (href: string) => string | undefined = () => undefined,
): string {
  const configElement = `<script id="${SITE_CONFIG_ELEMENT_ID}" type="application/json">${scriptSafeJson(siteConfig)}</script>`;
  const dataElement =
    page.data === undefined
      ? ''
      : `<script id="${PAGE_DATA_ELEMENT_ID}" type="application/json">${scriptSafeJson(page.data)}</script>`;
  const preloadLinks =
    preloads
      .map((file) => `<link rel="modulepreload" crossorigin href="/${escapeHtml(file)}">`)
      .join('') +
    (page.leadImage
      ? `<link rel="preload" as="image" fetchpriority="high" href="${escapeHtml(page.leadImage)}">`
      : '');
  const feedUrl = `${new URL(page.url).origin}${FEED_PATH}`;
  return inlineStylesheets(template, readStylesheet)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(page.title)}</title>`)
    .replace(
      /<meta\s+name="description"\s+content="[^"]*"\s*\/?>/,
      `<meta name="description" content="${escapeHtml(page.description)}" />`,
    )
    .replace(
      '</head>',
      `${headTags(page, feedUrl, siteConfig.siteName ?? SITE_NAME)}${preloadLinks}${configElement}${dataElement}</head>`,
    );
}

/**
 * The entry's stylesheet written into the page (a few KB compressed): the first paint then waits
 * for no second request. The CSP allows inline styles; route chunks' own CSS still loads as files.
 * The link stays, disabled (never fetched or applied), to tell Vite's loader that the stylesheet
 * is in the page: a route chunk that needs it would otherwise add it after the route's own CSS,
 * and its rules would then win over the route's (a `.card` undoing a `.tutorial`'s grid).
 */
function inlineStylesheets(
  template: string,
  readStylesheet: (href: string) => string | undefined,
): string {
  return template.replace(
    /<link rel="stylesheet"(?: crossorigin)? href="\/([^"]+\.css)">/g,
    (link, href: string) => {
      const css = readStylesheet(href);
      if (css === undefined) {
        return link;
      }
      const marker = link.replace(/>$/, ' disabled>');
      return `<style>${css.replace(/<\/style/gi, '<\\/style')}</style>${marker}`;
    },
  );
}

function compressVariant(html: string): HtmlVariant {
  const identity = Buffer.from(html, 'utf8');
  return {
    identity,
    br: brotliCompressSync(identity, {
      params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 },
    }),
    gzip: gzipSync(identity, { level: 9 }),
    etag: createHash('sha256').update(identity).digest('base64url').slice(0, 27),
  };
}

/** How many rendered pages a process keeps (every post, game and project has its own). */
export const PAGE_CACHE_ENTRIES = 500;

/**
 * index.html rendered and compressed once per page head, settings and route module, kept for
 * the next request of the same (a known page, a post, a game…); the least recently used go
 * past PAGE_CACHE_ENTRIES. A change of settings (a new post among the latest) is a new key.
 */
export function createIndexHtmlCache(
  template: string,
  /** The chunks a page's route module needs beyond the entry's (from Vite's manifest). */
  routeChunks: (module: string) => readonly string[] = () => [],
  /** A built stylesheet's text by its path in the build, to inline; undefined keeps the link. */
  readStylesheet: (href: string) => string | undefined = () => undefined,
) {
  const variants = new Map<string, HtmlVariant>();
  return (page: PageHead, siteConfig: SiteConfig, module: string | undefined): HtmlVariant => {
    const key = JSON.stringify([page, siteConfig, module ?? '']);
    let variant = variants.get(key);
    if (variant) {
      // most recently used last
      variants.delete(key);
    } else {
      const preloads = module ? routeChunks(module) : [];
      variant = compressVariant(
        renderIndexHtml(template, page, siteConfig, preloads, readStylesheet),
      );
    }
    variants.set(key, variant);
    if (variants.size > PAGE_CACHE_ENTRIES) {
      const oldest = variants.keys().next().value;
      if (oldest !== undefined) {
        variants.delete(oldest);
      }
    }
    return variant;
  };
}
