import { useEffect, useRef } from 'react';
import { useLocation } from 'react-router';

import { titleWithSiteName } from '@portfolio/types/site';

import { siteConfig } from '../lib/config';
import { setPageHead } from '../lib/page-head';

/**
 * Keeps the document's title, description, canonical link and social card on the open page as
 * the visitor moves around. The server's HTML has the first page's; the site's pages (titles,
 * descriptions) are a chunk of their own, loaded at the first move, so the home page's entry does
 * not carry them. A post sets its own (its page knows the post); another page the site does not
 * list shows the site's name, and an address that names nothing points at home, as the server's
 * HTML for it does.
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
      ({ DEFAULT_DESCRIPTION, canonicalPagePath, findSitePage, isAppRoute, postSlugOf }) => {
        if (!isCurrent || postSlugOf(pathname) !== undefined) {
          return;
        }
        const page = findSitePage(pathname);
        setPageHead(
          page
            ? {
                title: titleWithSiteName(page.title, siteConfig.siteName),
                description: page.description,
                path: page.path,
              }
            : {
                title: siteConfig.siteName,
                description: DEFAULT_DESCRIPTION,
                path: isAppRoute(pathname) ? canonicalPagePath(pathname) : '/',
              },
        );
      },
      // offline: the site's name stays the title until the next move
      () => undefined,
    );
    return () => {
      isCurrent = false;
    };
  }, [pathname]);
}
