import './lib/zod-jitless';
import './styles.css';

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';

import { App, preloadPage } from './app/routes';
import { ensureAuthLoaded } from './features/auth/auth-store';

const container = document.getElementById('root');
if (!container) {
  throw new Error('Missing #root element');
}

// the current user and the open page's code start downloading together, before React starts
void ensureAuthLoaded();
void preloadPage(window.location.pathname);

createRoot(container).render(
  <StrictMode>
    {/* no transitions: a new address shows its page, or the loading screen while the page's code
        downloads, never the previous page (whose form could take typing meant for the new) */}
    <BrowserRouter useTransitions={false}>
      <App />
    </BrowserRouter>
  </StrictMode>,
);
