import { SITE_NAME } from './site.js';

/**
 * The site's public pages, shared by the server (robots.txt, sitemap.xml, each page's title and
 * description in the HTML it serves, which route module it preloads, analytics' page buckets)
 * and the web app, which loads this as a chunk of its own when the visitor moves to another page
 * (titles and descriptions) and with the first heartbeat (the page as the site spells it), so the
 * home page's entry does not carry it ('@portfolio/types/pages'). No zod.
 */

export interface SitePage {
  /** The route's own spelling (/Gallery); paths match case-insensitively. */
  path: string;
  title: string;
  description: string;
  /** Listed in sitemap.xml. */
  inSitemap: boolean;
  /**
   * The page's route module as Vite's build manifest names it: the server preloads its chunk in
   * the page's HTML, so it downloads with the entry instead of after it.
   */
  module?: string;
}

export const DEFAULT_DESCRIPTION =
  'Portfolio of a passionate game developer and designer: browser games, projects and tutorials.';

export const SITE_PAGES: readonly SitePage[] = [
  {
    path: '/',
    title: SITE_NAME,
    description: DEFAULT_DESCRIPTION,
    inSitemap: true,
    module: 'src/features/home/home-page.tsx',
  },
  {
    path: '/games',
    title: `Games | ${SITE_NAME}`,
    description:
      'Play single-player and multiplayer browser games made with GameMaker, Godot and more.',
    inSitemap: true,
    module: 'src/features/games/games-page.tsx',
  },
  {
    path: '/Gallery',
    title: `My Gallery | ${SITE_NAME}`,
    description: 'Browse projects, prototypes and visual effects with videos and screenshots.',
    inSitemap: true,
    module: 'src/features/gallery/gallery-page.tsx',
  },
  {
    path: '/Tutorials',
    title: `Tutorials | ${SITE_NAME}`,
    description: 'Learn C++ and Unreal Engine with runnable code samples and guides.',
    inSitemap: true,
    module: 'src/features/tutorials/tutorials-page.tsx',
  },
  {
    path: '/devlog',
    title: `Devlog | ${SITE_NAME}`,
    description: 'News, progress notes and behind-the-scenes posts about the games and projects.',
    inSitemap: true,
    module: 'src/features/devlog/devlog-page.tsx',
  },
  {
    path: '/subscribe',
    title: `Subscribe | ${SITE_NAME}`,
    description: 'Subscribe for $10.00 per quarter to play the subscriber-only games.',
    inSitemap: true,
  },
  {
    path: '/login',
    title: `Login | ${SITE_NAME}`,
    description: 'Sign in to play multiplayer games and follow your progress.',
    inSitemap: false,
  },
  {
    path: '/register',
    title: `Register | ${SITE_NAME}`,
    description: 'Create a free account to play multiplayer games.',
    inSitemap: false,
  },
  {
    path: '/forgot-password',
    title: `Forgot password | ${SITE_NAME}`,
    description: 'Get a link to set a new password for your account.',
    inSitemap: false,
  },
  {
    path: '/reset-password',
    title: `Reset password | ${SITE_NAME}`,
    description: 'Choose a new password for your account.',
    inSitemap: false,
  },
  {
    path: '/confirm-email',
    title: `Confirm email | ${SITE_NAME}`,
    description: 'Confirm the email address of your account.',
    inSitemap: false,
  },
  {
    path: '/profile',
    title: `Profile | ${SITE_NAME}`,
    description: 'Your account, subscription and time on the site.',
    inSitemap: false,
  },
  {
    path: '/admin',
    title: `Admin Dashboard | ${SITE_NAME}`,
    description: 'Live activity, visitor analytics, game clicks and user management.',
    inSitemap: false,
  },
];

/** The page whose path this is, whatever its case and trailing slash; undefined if none. */
export function findSitePage(pathname: string): SitePage | undefined {
  const wanted = normalisePath(pathname).toLowerCase();
  return SITE_PAGES.find((page) => page.path.toLowerCase() === wanted);
}

/**
 * Whether the web app has a route at this path: a page above, or one of the admin pages routed
 * inside the admin chunk (/admin/users/…, /admin/games/…). Any other path is the app's "not
 * found" page, which the server answers with status 404.
 */
export function isAppRoute(pathname: string): boolean {
  return (
    findSitePage(pathname) !== undefined ||
    normalisePath(pathname).toLowerCase().startsWith('/admin/') ||
    postSlugOf(pathname) !== undefined
  );
}

/** The route of one devlog post (its chunk is preloaded on that page). */
export const POST_PAGE_MODULE = 'src/features/devlog/post-page.tsx';

/** The slug of a /devlog/<slug> path (any case of /devlog), else undefined. */
export function postSlugOf(pathname: string): string | undefined {
  const match = /^\/devlog\/([^/]+)$/i.exec(normalisePath(pathname));
  return match?.[1];
}

function normalisePath(pathname: string): string {
  const trimmed = pathname.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/**
 * The path as the site spells it, whatever the visitor typed: routes match case-insensitively,
 * so /gallery and /GALLERY/ are /Gallery (and /gallery/x is /Gallery/x). Other paths are kept.
 * Presence reports use it, so one page is listed once.
 */
export function canonicalPagePath(pathname: string): string {
  const path = normalisePath(pathname);
  const lower = path.toLowerCase();
  let best: SitePage | undefined;
  for (const page of SITE_PAGES) {
    const prefix = page.path.toLowerCase();
    const isPrefix = lower === prefix || (prefix !== '/' && lower.startsWith(`${prefix}/`));
    if (isPrefix && (!best || page.path.length > best.path.length)) {
      best = page;
    }
  }
  return best ? best.path + path.slice(best.path.length) : path;
}

/**
 * The pages whose address names one of their items in its query: a game open in the viewer
 * (/games?play=<id>) and a gallery project (/Gallery?project=<id>). Site analytics counts each
 * known item as a page of its own.
 */
export const PAGE_ITEM_PARAMS: Readonly<Record<string, string>> = {
  '/games': 'play',
  '/Gallery': 'project',
};

const decodeQueryPart = (text: string): string => {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
};

/** The first value of a query parameter (as URLSearchParams reads it), else undefined. */
function queryParam(search: string, name: string): string | undefined {
  for (const pair of search.replace(/^\?/, '').split('&')) {
    const at = pair.indexOf('=');
    if (decodeQueryPart(at === -1 ? pair : pair.slice(0, at)) === name) {
      return decodeQueryPart(at === -1 ? '' : pair.slice(at + 1));
    }
  }
  return undefined;
}

/** The item an address names on its page (a game, a gallery project), if it names one. */
export function pageItemOf(
  pathname: string,
  search: string,
): { page: string; param: string; id: string } | undefined {
  const page = canonicalPagePath(pathname);
  const param = PAGE_ITEM_PARAMS[page];
  const id = param ? queryParam(search, param) : undefined;
  return param && id ? { page, param, id } : undefined;
}

/**
 * A page view's address as site analytics counts it: the page as the site spells it, with the
 * query parameter that names its item when it has one (/games?play=Pong), nothing else of the
 * query (no campaign parameters, no media index).
 */
export function pageViewPath(pathname: string, search = ''): string {
  const item = pageItemOf(pathname, search);
  return item
    ? `${item.page}?${item.param}=${encodeURIComponent(item.id)}`
    : canonicalPagePath(pathname);
}
