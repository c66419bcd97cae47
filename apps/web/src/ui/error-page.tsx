import { Link } from 'react-router';

/** What an unknown address shows under the error page's heading. */
export const NOT_FOUND = '404 Not Found';

/**
 * The error page: unknown URLs (404), and (through `pageErrorFallback`) pages whose code failed
 * to load or that failed to render.
 */
export function ErrorPage({ detail }: { detail: string }) {
  const isNotFound = detail === NOT_FOUND;
  return (
    <section className="page error-page" aria-labelledby="error-title">
      {/* the spec's heading, with the status or message under it */}
      <h1 id="error-title">Unexpected Application Error!</h1>
      <h2 className="error-page__detail">{detail}</h2>
      {isNotFound ? (
        // a mistyped or old address: say so in words and offer the ways on
        <>
          <p>This page does not exist. Check the address, or go on from here:</p>
          <ul className="error-page__links">
            <li>
              <Link to="/">Back to the home page</Link>
            </li>
            <li>
              <Link to="/games">Browse the games</Link>
            </li>
          </ul>
        </>
      ) : (
        <p>
          <Link to="/">Back to the home page</Link>
        </p>
      )}
    </section>
  );
}

/** An ErrorBoundary fallback: the error page with the error's message. */
export const pageErrorFallback = (error: Error) => <ErrorPage detail={error.message} />;
