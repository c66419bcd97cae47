import { Suspense } from 'react';
import { Outlet, useLocation } from 'react-router';

import { useHeartbeat } from '../features/presence/use-heartbeat';
import { ErrorBoundary } from '../ui/error-boundary';
import { pageErrorFallback } from '../ui/error-page';
import { Footer } from './footer';
import { LoadingScreen } from '../ui/loading-screen';
import { usePageMeta } from './page-meta';
import { TopBar } from './top-bar';

/** The shared frame around every page; a page's errors and loading show inside it. */
export function Layout() {
  useHeartbeat();
  usePageMeta();
  // every navigation (a new query string too, and Back) clears a page's error
  const { key } = useLocation();
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <TopBar />
      <main id="main" className="main">
        <ErrorBoundary resetKey={key} fallback={pageErrorFallback}>
          <Suspense fallback={<LoadingScreen />}>
            <Outlet />
          </Suspense>
        </ErrorBoundary>
      </main>
      <Footer />
    </div>
  );
}
