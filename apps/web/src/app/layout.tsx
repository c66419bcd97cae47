import { Outlet, useNavigation } from 'react-router';

import { useHeartbeat } from '../features/presence/use-heartbeat';
import { Footer } from './footer';
import { usePageMeta } from './page-meta';
import { TopBar } from './top-bar';

/** The shared frame around every page. */
export function Layout() {
  useHeartbeat();
  usePageMeta();
  const navigation = useNavigation();
  return (
    <div className="app">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <TopBar />
      <main id="main" className="main" aria-busy={navigation.state === 'loading'}>
        <Outlet />
      </main>
      <Footer />
    </div>
  );
}
