/**
 * The site's public pages and its runtime settings, shared by the server (robots.txt,
 * sitemap.xml, each page's title and description in the HTML it serves, the settings injected
 * into index.html) and the web app (document titles on client-side navigation, the footer).
 * No zod: the web app's entry imports this ('@portfolio/types/site').
 */

export const SITE_NAME = 'GameDev Portfolio';

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

/** The site's Atom feed (every page's head links to it). */
export const FEED_PATH = '/feed.xml';

/** The social card image of pages that have none of their own (1200×630, apps/web/public). */
export const DEFAULT_CARD_IMAGE = '/assets/card-default.png';

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

/** Footer links and other settings the server gives the app at run time (index.html). */
export interface SiteConfig {
  githubUrl: string;
  linkedinUrl: string;
  /** The site's name as the owner set it; SITE_NAME when absent. */
  siteName?: string;
  /** The home page's intro and cards as the owner wrote them. */
  home?: HomeTexts;
  /**
   * The newest published devlog posts (at most three), written into the page by the server so
   * the home page lists them without a request or code of its own.
   */
  latestPosts?: LatestPostLink[];
}

/** A post as the home page links to it. */
export interface LatestPostLink {
  slug: string;
  title: string;
  /** ISO 8601. */
  publishedAt: string;
}

/** One of the home page's three link cards: to Games, Gallery and Tutorials, in that order. */
export interface HomeCard {
  title: string;
  text: string;
}

/** The home page's texts (spec section 1): the welcome intro and the three link cards. */
export interface HomeTexts {
  title: string;
  lead: string;
  cards: [HomeCard, HomeCard, HomeCard];
}

const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';

/** Whether `value` is an object whose `keys` all hold strings (the page's settings are JSON). */
function hasStrings(value: unknown, keys: readonly string[]): value is Record<string, string> {
  return (
    typeof value === 'object' &&
    value !== null &&
    keys.every((key) => typeof (value as Record<string, unknown>)[key] === 'string')
  );
}

/** Whether a value is the home page's texts with its three cards. */
export function isHomeTexts(value: unknown): value is HomeTexts {
  const cards = (value as { cards?: unknown } | null)?.cards;
  return (
    hasStrings(value, ['title', 'lead']) &&
    isText(value.title) &&
    Array.isArray(cards) &&
    cards.length === 3 &&
    cards.every((card) => hasStrings(card, ['title', 'text']) && isText(card.title))
  );
}

/**
 * Whether a value read from the page is a SiteConfig with https links (and, when present, a
 * site name and home texts of the right shape).
 */
export function isSiteConfig(value: unknown): value is SiteConfig {
  const isHttpsUrl = (url: unknown) => typeof url === 'string' && /^https:\/\/[^\s]+$/.test(url);
  return (
    typeof value === 'object' &&
    value !== null &&
    'githubUrl' in value &&
    'linkedinUrl' in value &&
    isHttpsUrl(value.githubUrl) &&
    isHttpsUrl(value.linkedinUrl) &&
    (!('siteName' in value) || isText(value.siteName)) &&
    (!('home' in value) || isHomeTexts(value.home)) &&
    (!('latestPosts' in value) || isLatestPostLinks(value.latestPosts))
  );
}

function isLatestPostLinks(value: unknown): value is LatestPostLink[] {
  return (
    Array.isArray(value) &&
    value.every((post) => hasStrings(post, ['slug', 'title', 'publishedAt']))
  );
}

/** A page's title with the owner's site name in place of SITE_NAME ('Games | My Site'). */
export function titleWithSiteName(title: string, siteName: string): string {
  return siteName === SITE_NAME ? title : title.replace(SITE_NAME, siteName);
}

/** Used when the page carries no settings (the Vite dev server). */
export const DEFAULT_SITE_CONFIG: SiteConfig = {
  githubUrl: 'https://github.com/',
  linkedinUrl: 'https://www.linkedin.com/',
};

/** The id of the `<script type="application/json">` element holding the SiteConfig. */
export const SITE_CONFIG_ELEMENT_ID = 'site-config';

/**
 * The id of the `<script type="application/json">` element holding a page's initial data (the
 * published gallery on /Gallery, the tutorials on /Tutorials, a post on its page), so the page
 * shows it without waiting for a second request.
 */
export const PAGE_DATA_ELEMENT_ID = 'page-data';
