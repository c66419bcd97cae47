import { asc, eq } from 'drizzle-orm';
import { z } from 'zod';

import {
  type GalleryProject,
  type HomeTexts,
  isHomeTexts,
  MediaItem,
  SITE_NAME,
  type Tutorial,
} from '@portfolio/types';
import type { AdminGalleryProject, AdminTutorial } from '@portfolio/types/content';

import type { Db } from '../../db/client.js';
import { galleryProjects, siteContent, tutorials } from '../../db/schema.js';
import type { InvalidationBus } from '../../lib/invalidation-bus.js';
import { moduleLogger } from '../../lib/logger.js';
import { galleryProjectOn, type MediaUrlOf } from '../../lib/public-urls.js';
import { SEED_HOME } from './seed-content.js';

const log = moduleLogger('content');

/*
 * The published content in memory, like the game catalogue: read at start, after
 * every change (in the other processes through the invalidation bus, a message no user id
 * equals) and every minute anyway. GET /api/gallery, GET /api/tutorials and the pages' HTML
 * never wait for the database.
 */

export type GalleryRow = typeof galleryProjects.$inferSelect;
export type TutorialRow = typeof tutorials.$inferSelect;

/** The bus message that means "the content changed": not a user id (those are uuids). */
export const CONTENT_CHANGED = 'content:changed';

/** The content is read again this often anyway (a missed bus message heals by itself). */
export const CONTENT_REFRESH_INTERVAL_MS = 60_000;

const MediaList = z.array(z.unknown());

/** A stored media list as the contract's items; an item that no longer parses is left out. */
export function mediaOf(row: Pick<GalleryRow, 'media'>): MediaItem[] {
  const list = MediaList.safeParse(row.media);
  if (!list.success) {
    return [];
  }
  return list.data.flatMap((item) => {
    const parsed = MediaItem.safeParse(item);
    return parsed.success ? [parsed.data] : [];
  });
}

/** A row as the public shape (spec section 3). */
export function toGalleryProject(row: GalleryRow): GalleryProject {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    thumbnail: row.thumbnail,
    ...(row.repositoryLink ? { repositoryLink: row.repositoryLink } : {}),
    media: mediaOf(row),
  };
}

export function toAdminGalleryProject(row: GalleryRow): AdminGalleryProject {
  return {
    ...toGalleryProject(row),
    published: row.published,
    position: row.position,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** A row as the public shape; undefined for a row the contract cannot hold. */
export function toTutorial(row: TutorialRow): Tutorial | undefined {
  const base = { id: row.id, title: row.title, section: row.section };
  if (row.type === 'iframe') {
    return row.iframeSrc
      ? { ...base, type: 'iframe', content: row.content, iframeSrc: row.iframeSrc }
      : undefined;
  }
  return row.content ? { ...base, type: row.type, content: row.content } : undefined;
}

export function toAdminTutorial(row: TutorialRow): AdminTutorial {
  return {
    id: row.id,
    title: row.title,
    section: row.section,
    type: row.type,
    content: row.content,
    iframeSrc: row.iframeSrc,
    published: row.published,
    position: row.position,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

export const galleryOrder = [asc(galleryProjects.position), asc(galleryProjects.createdAt)];
export const tutorialOrder = [asc(tutorials.position), asc(tutorials.createdAt)];

/** The site's name and home texts: the owner's, else the spec's. */
export interface SiteTexts {
  siteName: string;
  home: HomeTexts;
}

export const DEFAULT_SITE_TEXTS: SiteTexts = { siteName: SITE_NAME, home: SEED_HOME };

/** The site texts stored under 'site' and 'home' ({ name } and HomeTexts), else the defaults. */
export function siteTextsOf(rows: readonly { key: string; value: unknown }[]): SiteTexts {
  const site = rows.find((row) => row.key === 'site')?.value;
  const home = rows.find((row) => row.key === 'home')?.value;
  const name =
    typeof site === 'object' && site !== null && 'name' in site && typeof site.name === 'string'
      ? site.name
      : '';
  return {
    siteName: name || DEFAULT_SITE_TEXTS.siteName,
    home: isHomeTexts(home) ? home : DEFAULT_SITE_TEXTS.home,
  };
}

export interface ContentStore {
  /** The site's name and the home page's texts. */
  siteTexts(): SiteTexts;
  /** The published projects, in order. */
  gallery(): readonly GalleryProject[];
  /** The published tutorials, in order. */
  tutorials(): readonly Tutorial[];
  /** Reads the content again (this process only). */
  refresh(): Promise<void>;
  /** After a change: reads it again here and tells the other processes. */
  changed(): Promise<void>;
  /** Called after every read that may have changed something (the pages' HTML is rendered again). */
  onChange(listener: () => void): void;
}

export function createContentStore(deps: {
  db: Db;
  bus: InvalidationBus;
  /** The public's address of an uploaded file (a CDN's, MEDIA_PUBLIC_URL); default as stored. */
  mediaUrl?: MediaUrlOf;
}): ContentStore {
  const { db, bus, mediaUrl } = deps;
  let gallery: GalleryProject[] = [];
  let tutorialList: Tutorial[] = [];
  let texts: SiteTexts = DEFAULT_SITE_TEXTS;
  let lastSnapshot = '';
  const listeners: Array<() => void> = [];
  let loading: Promise<void> = Promise.resolve();

  const load = async () => {
    const [galleryRows, tutorialRows, textRows] = await Promise.all([
      db
        .select()
        .from(galleryProjects)
        .where(eq(galleryProjects.published, true))
        .orderBy(...galleryOrder),
      db
        .select()
        .from(tutorials)
        .where(eq(tutorials.published, true))
        .orderBy(...tutorialOrder),
      db.select({ key: siteContent.key, value: siteContent.value }).from(siteContent),
    ]);
    const nextTexts = siteTextsOf(textRows);
    const nextGallery = galleryRows
      .map(toGalleryProject)
      .filter((project) => project.media.length > 0)
      .map((project) => (mediaUrl ? galleryProjectOn(project, mediaUrl) : project));
    const nextTutorials = tutorialRows.flatMap((row) => {
      const tutorial = toTutorial(row);
      return tutorial ? [tutorial] : [];
    });
    // the minute's refresh usually finds nothing new: the pages are rendered again only on a change
    const snapshot = JSON.stringify([nextTexts, nextGallery, nextTutorials]);
    if (snapshot === lastSnapshot) {
      return;
    }
    lastSnapshot = snapshot;
    texts = nextTexts;
    gallery = nextGallery;
    tutorialList = nextTutorials;
    for (const listener of listeners) {
      listener();
    }
  };

  // loads run one after another, so the last one started is the last one applied
  const refresh = () => {
    loading = loading.catch(() => undefined).then(load);
    return loading;
  };
  const refreshLogged = () => {
    refresh().catch((error: unknown) => log.error({ err: error }, 'refresh failed'));
  };
  bus.subscribe((message) => {
    if (message === CONTENT_CHANGED) {
      refreshLogged();
    }
  });
  bus.onResync?.(refreshLogged);

  return {
    siteTexts: () => texts,
    gallery: () => gallery,
    tutorials: () => tutorialList,
    refresh,
    async changed() {
      await refresh();
      bus.publish(CONTENT_CHANGED);
    },
    onChange: (listener) => void listeners.push(listener),
  };
}
