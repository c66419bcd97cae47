import type { PageData } from '@portfolio/types/content';

import type { ContentStore } from './store.js';

/**
 * The data written into a page's HTML: /Gallery carries the published projects and
 * /Tutorials the published tutorials, so neither waits for a request after its script.
 */
export function pageDataOf(store: ContentStore, path: string): PageData | undefined {
  switch (path) {
    case '/Gallery':
      return { gallery: [...store.gallery()] };
    case '/Tutorials':
      return { tutorials: [...store.tutorials()] };
    default:
      return undefined;
  }
}
