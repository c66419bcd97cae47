import { useLayoutEffect, type ReactNode } from 'react';
import { useLocation } from 'react-router';

import { LoadingScreen } from '../../ui/loading-screen';

const normalise = (path: string) => path.replace(/\/+$/, '').toLowerCase() || '/';

/** The path this document was loaded at (client-side navigation does not change it). */
function documentPath(): string | undefined {
  if (typeof performance === 'undefined' || typeof performance.getEntriesByType !== 'function') {
    return undefined;
  }
  const [entry] = performance.getEntriesByType('navigation');
  return entry ? new URL(entry.name).pathname : undefined;
}

/**
 * Wraps /subscribe. The server's Content-Security-Policy allows Stripe.js only in the document
 * it serves for /subscribe, so arriving from another page of the app loads /subscribe as a new
 * document (cached bundles; one request for the page itself) before the page's code loads.
 */
export function StripeDocument({ children }: { children: ReactNode }) {
  const { pathname, search } = useLocation();
  const loadedAt = documentPath();
  const isOwnDocument = loadedAt === undefined || normalise(loadedAt) === normalise(pathname);
  useLayoutEffect(() => {
    if (!isOwnDocument) {
      // replace: the router has already pushed /subscribe, and that entry becomes the new
      // document (Back then leaves /subscribe in one step)
      window.location.replace(`${pathname}${search}`);
    }
  }, [isOwnDocument, pathname, search]);
  return isOwnDocument ? children : <LoadingScreen />;
}
