import {
  canonicalPagePath,
  findSitePage,
  pageItemOf,
  pageViewPath,
  postSlugOf,
} from '@portfolio/types';

import { moduleLogger } from '../../../lib/logger.js';

const log = moduleLogger('analytics');

/** The bucket of every path that is none of the site's pages and none of its content. */
export const OTHER_PATH = 'other';

/** A post's slug as the devlog makes them (slugify): anything else is no post's. */
const POST_SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const POST_SLUG_MAX_LENGTH = 100;

/**
 * The owner's content an address may name (injected: analytics imports no other module). Only
 * what the public can open: a draft, a scheduled post or an unpublished game is unknown.
 */
export interface KnownContent {
  /** Whether a public post has this slug. */
  isPublishedPost(slug: string): Promise<boolean>;
  /** Whether a published game of the catalogue has this id. */
  isPublishedGame(gameId: string): boolean;
  /** Whether a published gallery project has this id. */
  isGalleryProject(projectId: string): boolean;
}

function splitPath(path: string): { pathname: string; search: string } {
  const at = path.indexOf('?');
  return at === -1
    ? { pathname: path, search: '' }
    : { pathname: path.slice(0, at), search: path.slice(at) };
}

/**
 * The path as the dashboard groups it without asking about content: the site's pages by their
 * spelling (the query left out), the admin's user pages as one pattern, anything else 'other'
 * (so no visitor can fill the tables with made-up paths).
 */
export function bucketPath(path: string): string {
  const canonical = canonicalPagePath(splitPath(path).pathname);
  const page = findSitePage(canonical);
  if (page) {
    return page.path;
  }
  if (/^\/admin\/users\/[^/]+$/.test(canonical)) {
    return '/admin/users/:id';
  }
  return OTHER_PATH;
}

/** The address a path counts for when it names known content, else undefined. */
async function countedContentPath(known: KnownContent, path: string): Promise<string | undefined> {
  const { pathname, search } = splitPath(path);
  const item = pageItemOf(pathname, search);
  if (item) {
    const isKnown =
      item.page === '/games' ? known.isPublishedGame(item.id) : known.isGalleryProject(item.id);
    return isKnown ? pageViewPath(pathname, search) : undefined;
  }
  const slug = postSlugOf(canonicalPagePath(pathname));
  if (slug && slug.length <= POST_SLUG_MAX_LENGTH && POST_SLUG.test(slug)) {
    return (await known.isPublishedPost(slug)) ? `/devlog/${slug}` : undefined;
  }
  return undefined;
}

/**
 * How page views are counted: a published post under its own path (/devlog/<slug>), a
 * published game open in the viewer (/games?play=<id>) and a gallery project
 * (/Gallery?project=<id>) each as a page; an unknown game or project as its page (/games,
 * /Gallery); everything else as bucketPath says. Never fails: if the content cannot be asked
 * (the database is away), the path is counted without it.
 */
export function createPathBucketer(known?: KnownContent): (path: string) => Promise<string> {
  return async (path) => {
    if (known) {
      try {
        const counted = await countedContentPath(known, path);
        if (counted) {
          return counted;
        }
      } catch (error) {
        log.warn({ err: error }, 'could not tell whether a path names content');
      }
    }
    return bucketPath(path);
  };
}
