import { DEFAULT_CARD_IMAGE } from '@portfolio/types/site';

/** What the document's head says about the open page, as the server writes it for a first visit. */
export interface PageHeadTags {
  /** The whole title (with the site's name). */
  title: string;
  description: string;
  /** The page's canonical path ('/Gallery', '/devlog/<slug>'). */
  path: string;
  /** The card's image: a site path or an https address; others (SVG, none) are the default. */
  image?: string | null;
  type?: 'website' | 'article';
  /** ISO 8601, for an article. */
  publishedAt?: string;
}

/**
 * The origin the server's canonical link names (PUBLIC_ORIGIN when set), so a page opened at
 * another address still points at the site's own; the page's origin if there is none.
 */
function canonicalOrigin(): string {
  const href = document.querySelector('link[rel="canonical"]')?.getAttribute('href');
  if (href) {
    try {
      return new URL(href).origin;
    } catch {
      // a broken link: the page's own origin below
    }
  }
  return window.location.origin;
}

/** The card's image as an absolute address, by the server's rule (static-site.ts's cardImage). */
function cardImageUrl(image: string | null | undefined, origin: string): string {
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

/** Sets a tag the server wrote (a document without it, such as a test's, is left as it is). */
function setMeta(attribute: 'property' | 'name', key: string, value: string): void {
  document.head.querySelector(`meta[${attribute}="${key}"]`)?.setAttribute('content', value);
}

/** An article's date: written for a post, removed on other pages (as the server's HTML has it). */
function setPublishedTime(value: string | undefined): void {
  const existing = document.head.querySelector('meta[property="article:published_time"]');
  if (value === undefined) {
    existing?.remove();
    return;
  }
  const element = existing ?? document.createElement('meta');
  element.setAttribute('property', 'article:published_time');
  element.setAttribute('content', value);
  if (!existing) {
    // beside the card's other tags, where the server writes it
    const anchor = document.head.querySelector('meta[name="twitter:card"]');
    document.head.insertBefore(element, anchor);
  }
}

/**
 * Puts the open page's title, description, canonical link and social card (Open Graph, Twitter)
 * in the document's head after a client-side move, the same tags the server writes for a first
 * visit: a link copied or shared from the page (and a crawler that runs scripts) gets this page's,
 * not the first page's.
 */
export function setPageHead(head: PageHeadTags): void {
  const origin = canonicalOrigin();
  const url = `${origin}${head.path}`;
  const image = cardImageUrl(head.image, origin);
  document.title = head.title;
  setMeta('name', 'description', head.description);
  document.head.querySelector('link[rel="canonical"]')?.setAttribute('href', url);
  setMeta('property', 'og:type', head.type ?? 'website');
  setMeta('property', 'og:title', head.title);
  setMeta('property', 'og:description', head.description);
  setMeta('property', 'og:url', url);
  setMeta('property', 'og:image', image);
  setPublishedTime(head.publishedAt);
  setMeta('name', 'twitter:title', head.title);
  setMeta('name', 'twitter:description', head.description);
  setMeta('name', 'twitter:image', image);
}
