import type { LoaderFunctionArgs } from 'react-router';

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
 * Route loader of /subscribe. The server's Content-Security-Policy allows Stripe.js only in the
 * document it serves for /subscribe, so arriving from another page of the app loads /subscribe
 * as a new document (cached bundles; one request for the page itself).
 */
export function loadStripeDocument({ request }: LoaderFunctionArgs): Promise<null> | null {
  const loadedAt = documentPath();
  const target = new URL(request.url);
  if (loadedAt === undefined || normalise(loadedAt) === normalise(target.pathname)) {
    return null;
  }
  window.location.assign(`${target.pathname}${target.search}`);
  // this document is being replaced: the route never finishes loading here
  return new Promise<null>(() => undefined);
}
