import { createHash } from 'node:crypto';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';

import {
  DEFAULT_DESCRIPTION,
  findSitePage,
  PAGE_DATA_ELEMENT_ID,
  SITE_CONFIG_ELEMENT_ID,
  SITE_NAME,
  type SiteConfig,
  titleWithSiteName,
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
 * index.html as the server sends it for one page: that page's title and description (crawlers
 * and link previews read them before any script runs), and the runtime settings the app reads
 * (footer links) in a JSON script element, which the CSP lets through because it never runs.
 */
export function renderIndexHtml(
  template: string,
  page: { title: string; description: string },
  siteConfig: SiteConfig,
  preloads: readonly string[] = [],
  readStylesheet: (href: string) => string | undefined = () => undefined,
  pageData?: unknown,
): string {
  const dataElement =
    pageData === undefined
      ? ''
      : `<script id="${PAGE_DATA_ELEMENT_ID}" type="application/json">${scriptSafeJson(pageData)}</script>`;
  const configElement = `<script id="${SITE_CONFIG_ELEMENT_ID}" type="application/json">${scriptSafeJson(siteConfig)}</script>${dataElement}`;
  const preloadLinks = preloads
    .map((file) => `<link rel="modulepreload" crossorigin href="/${escapeHtml(file)}">`)
    .join('');
  const title = titleWithSiteName(page.title, siteConfig.siteName ?? SITE_NAME);
  return inlineStylesheets(template, readStylesheet)
    .replace(/<title>[^<]*<\/title>/, `<title>${escapeHtml(title)}</title>`)
    .replace(
      /<meta\s+name="description"\s+content="[^"]*"\s*\/?>/,
      `<meta name="description" content="${escapeHtml(page.description)}" />`,
    )
    .replace('</head>', `${preloadLinks}${configElement}</head>`);
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

export interface IndexHtmlCache {
  /** The page's variant, rendered and compressed at its first request. */
  (pathname: string): HtmlVariant;
  /** Drops every variant (the content they carry changed). */
  clear(): void;
}

/**
 * The page variants of index.html, rendered and compressed once per process and again after the
 * owner's content changes (`clear`): one per known page, one for every other path.
 */
export function createIndexHtmlCache(
  template: string,
  /** The runtime settings, read again whenever the variants are rendered again (`clear`). */
  siteConfig: SiteConfig | (() => SiteConfig),
  /** The chunks a page's route module needs beyond the entry's (from Vite's manifest). */
  routeChunks: (module: string) => readonly string[] = () => [],
  /** A built stylesheet's text by its path in the build, to inline; undefined keeps the link. */
  readStylesheet: (href: string) => string | undefined = () => undefined,
  /** The initial data of a page by its path (/Gallery, /Tutorials), else undefined. */
  pageData: (path: string) => unknown = () => undefined,
): IndexHtmlCache {
  const variants = new Map<string, HtmlVariant>();
  const fallback = { title: SITE_NAME, description: DEFAULT_DESCRIPTION };
  const cache = (pathname: string): HtmlVariant => {
    const sitePage = findSitePage(pathname);
    const page = sitePage ?? fallback;
    const key = page.title;
    let variant = variants.get(key);
    if (!variant) {
      const preloads = sitePage?.module ? routeChunks(sitePage.module) : [];
      const data = sitePage ? pageData(sitePage.path) : undefined;
      variant = compressVariant(
        renderIndexHtml(
          template,
          page,
          typeof siteConfig === 'function' ? siteConfig() : siteConfig,
          preloads,
          readStylesheet,
          data,
        ),
      );
      variants.set(key, variant);
    }
    return variant;
  };
  return Object.assign(cache, { clear: () => variants.clear() });
}
