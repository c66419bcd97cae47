import { useEffect } from 'react';
import { useLocation } from 'react-router';

import { DEFAULT_DESCRIPTION, findSitePage, titleWithSiteName } from '@portfolio/types/site';

import { siteConfig } from '../lib/config';

/**
 * Keeps the document's title and description on the open page as the visitor moves around
 * (the server sends the first page's in its HTML already).
 */
export function usePageMeta(): void {
  const { pathname } = useLocation();
  useEffect(() => {
    const page = findSitePage(pathname);
    document.title = page
      ? titleWithSiteName(page.title, siteConfig.siteName)
      : siteConfig.siteName;
    document
      .querySelector('meta[name="description"]')
      ?.setAttribute('content', page?.description ?? DEFAULT_DESCRIPTION);
  }, [pathname]);
}
