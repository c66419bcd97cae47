/**
 * The site's runtime settings, shared by the server (which writes them into index.html) and the
 * web app's entry (the footer, the home page's texts, the site's name). The site's pages are in
 * pages.ts. No zod: the web app's entry imports this ('@portfolio/types/site').
 */

export const SITE_NAME = 'GameDev Portfolio';

/** The site's Atom feed (every page's head links to it). */
export const FEED_PATH = '/feed.xml';

/** The social card image of pages that have none of their own (1200×630, apps/web/public). */
export const DEFAULT_CARD_IMAGE = '/assets/card-default.png';

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
