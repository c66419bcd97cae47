import type { Request } from 'express';

import type { PostResponse } from '@portfolio/types/devlog';
import type { GalleryProject } from '@portfolio/types';

import { type DevlogService, postPath } from '../devlog/index.js';
import type { GameCatalogue } from '../game-host/index.js';
import type { PageCard, WebSiteOptions } from './static-site.js';

/**
 * What the web module asks about the site's content: the latest posts for every page's settings,
 * the social card of a post, a game and a gallery project, and their addresses for sitemap.xml.
 * Only published content: a draft, a scheduled post or an unpublished game has no card.
 */
export function createPageCards(deps: {
  devlog: DevlogService;
  catalogue: GameCatalogue;
  /** The games origin (a game's uploaded thumbnail is served there). */
  gamesOrigin: (req: Request) => string;
  /** The published gallery projects, in order. */
  gallery: () => readonly GalleryProject[];
}): Pick<
  WebSiteOptions,
  'latestPosts' | 'findPost' | 'findGame' | 'findGalleryProject' | 'sitemapEntries'
> {
  const { devlog, catalogue } = deps;
  return {
    latestPosts: () => devlog.latestLinks(),
    async findPost(slug) {
      const post = await devlog.getPublishedCached(slug);
      return post
        ? {
            title: post.title,
            description: post.summary,
            image: post.image,
            type: 'article',
            publishedAt: post.publishedAt,
            // the post page shows it at once (the same answer as GET /api/posts/:slug)
            data: { post } satisfies PostResponse,
          }
        : undefined;
    },
    findGame(gameId, req): PageCard | undefined {
      const game = catalogue.get(gameId)?.game;
      if (!game?.published) {
        return undefined;
      }
      const thumbnail = game.thumbnail
        ? game.thumbnail.startsWith('/')
          ? game.thumbnail
          : `${deps.gamesOrigin(req)}/${encodeURIComponent(game.id)}/${game.thumbnail}`
        : null;
      return { title: game.title, description: game.description, image: thumbnail };
    },
    findGalleryProject(projectId) {
      const project = deps.gallery().find((candidate) => candidate.id === projectId);
      return project
        ? { title: project.title, description: project.description, image: project.thumbnail }
        : undefined;
    },
    async sitemapEntries() {
      const posts = await devlog.sitemapEntries();
      return [
        ...posts.map((post) => ({ path: postPath(post.slug), lastModified: post.updatedAt })),
        ...catalogue
          .list()
          .filter(({ game }) => game.published)
          .map(({ game }) => ({
            path: `/games?play=${encodeURIComponent(game.id)}`,
            lastModified: game.updatedAt.toISOString(),
          })),
        ...deps.gallery().map((project) => ({
          path: `/Gallery?project=${encodeURIComponent(project.id)}`,
        })),
      ];
    },
  };
}
