import { act, render } from '@testing-library/react';
import { MemoryRouter, useLocation, useNavigate, type Location } from 'react-router';
import { vi } from 'vitest';

import { App } from '../app/routes';
import { galleryProjects, tutorials } from './content-fixtures';

export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

export function apiError(status: number, message: string, code = 'ERROR'): Response {
  return jsonResponse({ error: { code, message } }, status);
}

type Handler = (body: unknown) => Response | Promise<Response>;

export interface RecordedCall {
  method: string;
  url: string;
  body: unknown;
}

/**
 * Replaces fetch with a fake API: `handlers` answers 'METHOD /path?query' or, for any query,
 * 'METHOD /path'; heartbeats succeed; the gallery and tutorials are the seeded ones;
 * current-user answers { user: null } (a guest) unless given; anything else is a 404. Calls are recorded.
 */
export function stubApi(handlers: Record<string, Handler> = {}) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn((input: RequestInfo | URL, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = init?.method ?? 'GET';
    const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
    calls.push({ method, url, body });
    // an exact URL first, then the path without its query string
    const handler =
      handlers[`${method} ${url}`] ?? handlers[`${method} ${url.split('?')[0] ?? url}`];
    if (handler) {
      return Promise.resolve(handler(body));
    }
    if (url.endsWith('heartbeat')) {
      return Promise.resolve(jsonResponse({ ok: true }));
    }
    if (url === '/api/auth/current-user') {
      return Promise.resolve(jsonResponse({ user: null }));
    }
    if (method === 'GET' && url === '/api/gallery') {
      return Promise.resolve(jsonResponse({ projects: galleryProjects }));
    }
    if (method === 'GET' && url === '/api/tutorials') {
      return Promise.resolve(jsonResponse({ tutorials }));
    }
    return Promise.resolve(apiError(404, 'Not found', 'NOT_FOUND'));
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, calls };
}

/** Stubs current-user to answer this user. */
export function signedInAs(username: string, role: 'user' | 'subscriber' | 'admin') {
  return {
    'GET /api/auth/current-user': () =>
      jsonResponse({ user: { id: `id-${username}`, username, role } }),
  };
}

/** Where the app in memory is, and a way to move it, as a test would click a link. */
export interface TestRouter {
  readonly location: Location;
  navigate: (to: string | number) => Promise<void>;
}

/** Renders the real app (its route table in memory) at `path`. */
export function renderApp(path: string) {
  let location: Location | undefined;
  let navigate: ReturnType<typeof useNavigate> | undefined;
  function Probe() {
    location = useLocation();
    navigate = useNavigate();
    return null;
  }
  const view = render(
    <MemoryRouter initialEntries={[path]} useTransitions={false}>
      <App />
      <Probe />
    </MemoryRouter>,
  );
  const router: TestRouter = {
    get location() {
      if (!location) {
        throw new Error('the app has not rendered');
      }
      return location;
    },
    navigate: async (to) => {
      await act(async () => {
        // a number steps through the history as Back and Forward do (useNavigate's two overloads)
        await Promise.resolve(typeof to === 'number' ? navigate?.(to) : navigate?.(to));
      });
    },
  };
  return { router, ...view };
}
