import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

import { titleWithSiteName } from '@portfolio/types/site';

import { siteConfig } from '../lib/config';

/**
 * Keeps the document's title and description on the open page as the visitor moves around. The
 * server's HTML has the first page's; the site's pages (titles, descriptions) are a chunk of
 * their own, loaded at the first move, so the home page's entry does not carry them. A page the
 * site does not list shows the site's name, or sets its own (a post, after this).
 */
export function usePageMeta(): void {
  const { pathname } = useLocation();
  const isLanding = useRef(true);
  useEffect(() => {
    if (isLanding.current) {
      isLanding.current = false;
      return;
    }
    document.title = siteConfig.siteName;
    let isCurrent = true;
    import('@portfolio/types/pages').then(
      ({ findSitePage }) => {
        const page = findSitePage(pathname);
        if (isCurrent && page) {
          document.title = titleWithSiteName(page.title, siteConfig.siteName);
          document
            .querySelector('meta[name="description"]')
            ?.setAttribute('content', page.description);
        }
      },
      // offline: the site's name stays the title until the next move
      () => undefined,
    );
    return () => {
      isCurrent = false;
    };
  }, [pathname]);
}
