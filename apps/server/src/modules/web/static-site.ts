import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

import { type Request, type RequestHandler, type Response, Router } from 'express';
import expressStaticGzip from 'express-static-gzip';

import {
  DEFAULT_CARD_IMAGE,
  DEFAULT_DESCRIPTION,
  findSitePage,
  isAppRoute,
  type LatestPostLink,
  POST_PAGE_MODULE,
  postSlugOf,
  SITE_NAME,
  type SiteConfig,
  titleWithSiteName,
} from '@portfolio/types';

import { notFound } from '../../lib/errors.js';
import { DEFAULT_WEB_DIST } from '../../lib/paths.js';
import { canonicalLoopbackUrl } from '../../lib/sites.js';
import { createIndexHtmlCache, type PageHead } from './index-html.js';
import { robotsTxt, type SitemapEntry, sitemapXml } from './seo-files.js';

/** What a post, game or gallery project shows on its page's social card. */
export interface PageCard {
  title: string;
  description: string;
  /** A site path or an https address; null (or an SVG, which card readers refuse) = the default. */
  image: string | null;
  type?: 'website' | 'article';
  publishedAt?: string;
  /** What the page's script shows first, written into the page (PageHead.data). */
  data?: unknown;
}

export interface WebSiteOptions {
  /** The built web app; unset = apps/web/dist. Without its index.html only robots.txt and the sitemap are served. */
  webDistDir: string | undefined;
  siteConfig: SiteConfig;
  /** The site's public origin for absolute URLs; unset = the origin the request came in on. */
  publicOrigin: string | undefined;
  /**
   * The origin links in mail use (PUBLIC_ORIGIN, else this process's address): a page asked
   * for at the other loopback name on its port is redirected there.
   */
  canonicalOrigin?: () => string;
  /** Told of every page document requested (site analytics counts documents whose script never runs). */
  onPage?: (req: Request) => void;
  /** Whether /games?play=<id> names a published game (else the page answers 404). */
  isPublishedGame?: (gameId: string) => boolean;
  /** The newest posts, written into every page's settings (the home page lists them). */
  latestPosts?: () => Promise<LatestPostLink[]>;
  /** A published post's card by its slug; undefined = /devlog/<slug> answers 404. */
  findPost?: (slug: string) => Promise<PageCard | undefined>;
  /** A published game's card (/games?play=<id>). */
  findGame?: (gameId: string, req: Request) => PageCard | undefined;
  /** A gallery project's card (/Gallery?project=<id>). */
  findGalleryProject?: (projectId: string) => PageCard | undefined | Promise<PageCard | undefined>;
  /** Addresses sitemap.xml lists beside the pages (posts, games, projects). */
  sitemapEntries?: () => Promise<SitemapEntry[]>;
  /** The owner's content: the site texts every page's settings carry, a page's initial data. */
  content?: {
    /** The site's name and home texts, added to the SiteConfig every page carries. */
    siteTexts(): Pick<SiteConfig, 'siteName' | 'home'>;
    /** What a known page (by its canonical path) shows first: /Gallery's projects… */
    pageData(path: string): unknown;
  };
}

/** The query parameter of the gallery's deep link: /Gallery?project=<id>. */
export const PROJECT_PARAM = 'project';

const queryValue = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** A card image as an absolute address; the default card for none, an SVG or anything odd. */
function cardImage(image: string | null, origin: string): string {
  if (image && !/\.svg(\?|#|$)/i.test(image)) {
    if (image.startsWith('/') && !image.startsWith('//')) {
      return `${origin}${image}`;
    }
    if (/^https?:\/\//.test(image)) {
      return image;
    }
  }
  return `${origin}${DEFAULT_CARD_IMAGE}`;
}

const IMMUTABLE = 'public, max-age=31536000, immutable';
const REVALIDATE_HOURLY = 'public, max-age=3600';

type Manifest = Record<
  string,
  { file?: string; css?: string[]; assets?: string[]; imports?: string[]; isEntry?: boolean }
>;

function readManifest(webDist: string): Manifest {
  const manifestFile = path.join(webDist, '.vite', 'manifest.json');
  return existsSync(manifestFile)
    ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest)
    : {};
}

/** A manifest entry's file and those of everything it imports statically. */
function staticClosure(manifest: Manifest, key: string, files = new Set<string>()): Set<string> {
  const chunk = manifest[key];
  if (!chunk?.file || files.has(chunk.file)) {
    return files;
  }
  files.add(chunk.file);
  for (const imported of chunk.imports ?? []) {
    staticClosure(manifest, imported, files);
  }
  return files;
}

/**
 * The chunks a route module needs that the entry does not bring (index.html preloads those
 * already): the page preloads them, so they download beside the entry rather than after it.
 */
function routeChunksOf(manifest: Manifest): (module: string) => string[] {
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  const entryFiles = entryKey ? staticClosure(manifest, entryKey) : new Set<string>();
  return (module) => [...staticClosure(manifest, module)].filter((file) => !entryFiles.has(file));
}

/**
 * The files Vite named by their content hash, from its build manifest (dist/.vite/manifest.json):
 * they never change, so browsers may keep them for a year. Public files (/assets/*.jpg copied as
 * they are) keep their names and are revalidated.
 */
function hashedFilesOf(manifest: Manifest): Set<string> {
  const hashed = new Set<string>();
  for (const chunk of Object.values(manifest)) {
    for (const file of [chunk.file, ...(chunk.css ?? []), ...(chunk.assets ?? [])]) {
      if (file && file !== 'index.html') {
        hashed.add(file);
      }
    }
  }
  return hashed;
}

/** A path that names a file (under /assets/, or with an extension) rather than a page. */
export function isFilePath(pathname: string): boolean {
  const lastSegment = pathname.slice(pathname.lastIndexOf('/') + 1);
  return pathname.startsWith('/assets/') || /\.[A-Za-z0-9]+$/.test(lastSegment);
}

/**
 * Whether a page request asks for the cross-origin isolated viewer: /games with
 * `isolated=1`, the one document a game whose build uses threads is played in. Only that
 * document gets COOP and COEP: everywhere else the site keeps embedding other sites' images and
 * video frames, which COEP would block.
 */
export function isIsolatedGamesPage(req: Request): boolean {
  return req.path.replace(/\/+$/, '').toLowerCase() === '/games' && req.query.isolated === '1';
}

function originOf(req: Request, publicOrigin: string | undefined): string {
  return publicOrigin ?? `${req.protocol}://${req.get('host') ?? 'localhost'}`;
}

/** The described page: its head, its route module, and whether the address names nothing (404). */
interface DescribedPage {
  head: PageHead;
  module: string | undefined;
  isMissing: boolean;
}

/**
 * The page's head (a post's, a game's or a project's card for their addresses), its route
 * module, and whether the address names nothing (404).
 */
async function describePage(
  options: WebSiteOptions,
  req: Request,
  siteName: string,
): Promise<DescribedPage> {
  const origin = originOf(req, options.publicOrigin);
  const sitePage = findSitePage(req.path);
  const fallback = {
    title: titleWithSiteName(sitePage?.title ?? SITE_NAME, siteName),
    description: sitePage?.description ?? DEFAULT_DESCRIPTION,
  };
  const withCard = (url: string, card: PageCard | undefined): PageHead => ({
    title: card ? `${card.title} | ${siteName}` : fallback.title,
    description: card?.description || fallback.description,
    url: `${origin}${url}`,
    image: cardImage(card?.image ?? null, origin),
    type: card?.type ?? 'website',
    ...(card?.publishedAt ? { publishedAt: card.publishedAt } : {}),
    ...(card?.data !== undefined ? { data: card.data } : {}),
  });
  const slug = postSlugOf(req.path);
  if (slug !== undefined) {
    let decoded: string | undefined;
    try {
      decoded = decodeURIComponent(slug);
    } catch {
      decoded = undefined;
    }
    const post = decoded !== undefined ? await options.findPost?.(decoded) : undefined;
    return {
      head: post ? withCard(`/devlog/${slug}`, post) : withCard('/', undefined),
      module: POST_PAGE_MODULE,
      isMissing: post === undefined,
    };
  }
  const canonicalPath = sitePage?.path ?? req.path;
  const lowerPath = canonicalPath.toLowerCase();
  const play = lowerPath === '/games' ? queryValue(req.query.play) : undefined;
  if (play !== undefined) {
    const game = options.findGame?.(play, req);
    const isMissing =
      options.isPublishedGame !== undefined ? !options.isPublishedGame(play) : false;
    return {
      head: isMissing
        ? withCard('/', undefined)
        : withCard(`/games?play=${encodeURIComponent(play)}`, game),
      module: sitePage?.module,
      isMissing,
    };
  }
  const data = sitePage ? options.content?.pageData(sitePage.path) : undefined;
  const project = lowerPath === '/gallery' ? queryValue(req.query[PROJECT_PARAM]) : undefined;
  if (project !== undefined) {
    const card = await options.findGalleryProject?.(project);
    return {
      head: withCard(
        card ? `/Gallery?${PROJECT_PARAM}=${encodeURIComponent(project)}` : canonicalPath,
        card && data !== undefined ? { ...card, data } : card,
      ),
      module: sitePage?.module,
      isMissing: false,
    };
  }
  const isMissing = !isAppRoute(req.path);
  return {
    // every made-up address shares one page (not one rendering each)
    head: {
      ...withCard(isMissing ? '/' : canonicalPath, undefined),
      ...(data === undefined ? {} : { data }),
      ...leadImageOf(data),
    },
    module: sitePage?.module,
    isMissing,
  };
}

/** The first gallery card's picture of a page's data (PageData), the page's largest paint. */
function leadImageOf(data: unknown): { leadImage?: string } {
  const gallery = (data as { gallery?: unknown } | undefined)?.gallery;
  const first: unknown = Array.isArray(gallery) ? gallery[0] : undefined;
  const thumbnail = (first as { thumbnail?: unknown } | undefined)?.thumbnail;
  return typeof thumbnail === 'string' && thumbnail !== '' ? { leadImage: thumbnail } : {};
}

type PageHtml = ReturnType<typeof createIndexHtmlCache>;

/** index.html filled in for the request's page, in the encoding the browser takes best. */
async function sendPage(
  options: WebSiteOptions,
  pageHtml: PageHtml,
  req: Request,
  res: Response,
): Promise<void> {
  const siteTexts = options.content?.siteTexts();
  const [{ head, module, isMissing }, latestPosts] = await Promise.all([
    describePage(options, req, siteTexts?.siteName ?? SITE_NAME),
    options.latestPosts?.(),
  ]);
  const variant = pageHtml(
    head,
    { ...options.siteConfig, ...siteTexts, ...(latestPosts ? { latestPosts } : {}) },
    module,
  );
  const encoding = req.acceptsEncodings('br', 'gzip', 'identity') || 'identity';
  const body =
    encoding === 'br' ? variant.br : encoding === 'gzip' ? variant.gzip : variant.identity;
  res.set({
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-cache',
    Vary: 'Accept-Encoding',
    ETag: `"${variant.etag}-${encoding}"`,
  });
  if (encoding !== 'identity') {
    res.set('Content-Encoding', encoding);
  }
  if (isIsolatedGamesPage(req)) {
    res.set({
      'Cross-Origin-Opener-Policy': 'same-origin',
      'Cross-Origin-Embedder-Policy': 'require-corp',
    });
  }
  options.onPage?.(req);
  if (isMissing) {
    // a made-up address: the app shows its "not found" page, and the status says so too
    // (search engines, link checkers)
    res.status(404);
  }
  if (req.fresh) {
    res.status(304).end();
    return;
  }
  res.send(body);
}

/** The page template with its route chunks and inlined files, read once from the build. */
function pageHtmlOf(webDist: string, indexFile: string, manifest: Manifest): PageHtml {
  return createIndexHtmlCache(readFileSync(indexFile, 'utf8'), routeChunksOf(manifest), (href) => {
    const file = path.resolve(webDist, href);
    return file.startsWith(webDist + path.sep) && existsSync(file)
      ? readFileSync(file, 'utf8')
      : undefined;
  });
}

/**
 * The build's files, precompressed (brotli or gzip by Accept-Encoding): hashed ones cached for a
 * year, the rest revalidated hourly.
 */
function serveBuiltFiles(webDist: string, manifest: Manifest): RequestHandler {
  const hashedFiles = hashedFilesOf(manifest);
  const serveFiles = expressStaticGzip(webDist, {
    enableBrotli: true,
    orderPreference: ['br', 'gzip'],
    index: false,
    serveStatic: {
      index: false,
      setHeaders: (res, filePath) => {
        const file = path.relative(webDist, filePath).replace(/\.(br|gz)$/, '');
        res.setHeader(
          'Cache-Control',
          hashedFiles.has(file.split(path.sep).join('/')) ? IMMUTABLE : REVALIDATE_HOURLY,
        );
      },
    },
  });
  return (req, res, next) => {
    // a malformed address goes to the error handler (400 with the shared error body), not the
    // library's own plain-text answer
    try {
      decodeURIComponent(req.path);
    } catch (error) {
      next(error instanceof URIError ? Object.assign(error, { status: 400 }) : error);
      return;
    }
    serveFiles(req, res, next);
  };
}

/**
 * The built web app: files compressed at build time (brotli and gzip beside each one, chosen by
 * Accept-Encoding), robots.txt and sitemap.xml, and index.html for every page path (the app
 * routes on the client). A missing file is a 404, never the app's page.
 */
export function createWebSite(options: WebSiteOptions): Router {
  const { publicOrigin } = options;
  const webDist = options.webDistDir ? path.resolve(options.webDistDir) : DEFAULT_WEB_DIST;
  const router = Router();

  router.get('/robots.txt', (req, res) => {
    res
      .type('text/plain')
      .set('Cache-Control', REVALIDATE_HOURLY)
      .send(robotsTxt(originOf(req, publicOrigin)));
  });
  router.get('/sitemap.xml', async (req, res) => {
    const entries = (await options.sitemapEntries?.()) ?? [];
    res
      .type('application/xml')
      .set('Cache-Control', REVALIDATE_HOURLY)
      .send(sitemapXml(originOf(req, publicOrigin), entries));
  });

  const indexFile = path.join(webDist, 'index.html');
  if (!existsSync(indexFile)) {
    return router;
  }
  const manifest = readManifest(webDist);
  const pageHtml = pageHtmlOf(webDist, indexFile, manifest);
  const page = async (req: Request, res: Response) => {
    const canonical = options.canonicalOrigin
      ? canonicalLoopbackUrl(req.headers.host, options.canonicalOrigin(), req.originalUrl)
      : undefined;
    if (canonical !== undefined) {
      // temporary: the canonical origin is a setting, and may change
      res.set('Cache-Control', 'no-store').redirect(302, canonical);
      return;
    }
    await sendPage(options, pageHtml, req, res);
  };

  // the template itself is never sent: its settings are filled in per request
  router.get('/index.html', page);
  router.use(serveBuiltFiles(webDist, manifest));
  // every other GET is a client-side route: the app decides (and shows its own 404)
  router.get('{/*splat}', async (req, res) => {
    if (isFilePath(req.path)) {
      throw notFound(`No file at ${req.path}`);
    }
    await page(req, res);
  });
  return router;
}
