import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { apiError, jsonResponse, renderApp, signedInAs, stubApi } from '../test/render-app';

// The dashboard opens a socket; here it must stay offline (no network from unit tests).
vi.mock('../lib/socket', () => ({
  createSocket: () => ({ connected: false, on: vi.fn(), off: vi.fn(), disconnect: vi.fn() }),
}));

describe('routes', () => {
  it('reaches the Gallery page through the lower-case /gallery link', async () => {
    stubApi();
    renderApp('/gallery');
    expect(await screen.findByRole('heading', { name: 'My Gallery' })).toBeInTheDocument();
  });

  it('reaches the Gallery page at /Gallery', async () => {
    stubApi();
    renderApp('/Gallery');
    expect(await screen.findByRole('heading', { name: 'My Gallery' })).toBeInTheDocument();
  });

  it('reaches the Tutorials page through /tutorials', async () => {
    stubApi();
    renderApp('/tutorials');
    expect(await screen.findByRole('heading', { name: 'Tutorials' })).toBeInTheDocument();
  });

  it('shows the home page with its three link cards', async () => {
    stubApi();
    renderApp('/');
    expect(await screen.findByText(/passionate game developer and designer/)).toBeInTheDocument();
    const main = screen.getByRole('main');
    for (const [name, href] of [
      ['Games', '/games'],
      ['Gallery', '/gallery'],
      ['Tutorials', '/tutorials'],
    ] as const) {
      const cards = screen
        .getAllByRole('link', { name: new RegExp(name) })
        .filter((link) => main.contains(link));
      expect(cards[0]).toHaveAttribute('href', href);
    }
  });

  it('shows the error page with 404 for an unknown URL', async () => {
    stubApi();
    renderApp('/no-such-page');
    expect(await screen.findByText('Unexpected Application Error!')).toBeInTheDocument();
    expect(screen.getByText('404 Not Found')).toBeInTheDocument();
    // The shared frame stays around the error.
    expect(screen.getByText('Guest')).toBeInTheDocument();
  });

  it('gives the error page an h1', async () => {
    stubApi();
    renderApp('/no-such-page');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Unexpected Application Error!' }),
    ).toBeInTheDocument();
  });

  it.each([
    ['/login', '/'],
    ['/register', '/'],
    ['/login?redirect=/games', '/games'],
    ['/login?redirect=//elsewhere.example', '/'],
  ])('sends a signed-in user who opens %s on to %s', async (path, destination) => {
    stubApi(signedInAs('ann', 'user'));
    const { router } = renderApp(path);
    await waitFor(() => expect(router.location.pathname).toBe(destination));
    expect(screen.queryByRole('heading', { name: 'Login' })).not.toBeInTheDocument();
  });

  it('lets a signed-in non-admin sent to sign in as an admin see the login page', async () => {
    stubApi(signedInAs('ann', 'user'));
    renderApp('/login?admin=true');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
  });

  it('decides again when a signed-in user moves from /login?admin=true to /register', async () => {
    stubApi(signedInAs('ann', 'user'));
    const { router } = renderApp('/login?admin=true');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    await router.navigate('/register');
    await waitFor(() => expect(router.location.pathname).toBe('/'));
    expect(screen.queryByRole('heading', { name: 'Register' })).not.toBeInTheDocument();
  });

  it("keeps the title and description on the page as the visitor moves (the first page's come in the server's HTML)", async () => {
    stubApi();
    document.title = 'As the server wrote it';
    const { router } = renderApp('/gallery');
    await screen.findByRole('heading', { name: 'My Gallery' });
    const description = document.createElement('meta');
    description.name = 'description';
    document.head.append(description);
    expect(document.title).toBe('As the server wrote it');
    await router.navigate('/tutorials');
    await waitFor(() => expect(document.title).toBe('Tutorials | GameDev Portfolio'));
    expect(description.content).toBe(
      'Learn C++ and Unreal Engine with runnable code samples and guides.',
    );
    // a path the site does not list: the site's name, not the last page's title
    await router.navigate('/no-such-page');
    await waitFor(() => expect(document.title).toBe('GameDev Portfolio'));
    description.remove();
  });

  it('shows a loading state until the current-user call finishes', async () => {
    let answer: (response: Response) => void = () => undefined;
    stubApi({
      'GET /api/auth/current-user': () =>
        new Promise<Response>((resolve) => {
          answer = resolve;
        }),
    });
    renderApp('/gallery');
    expect(await screen.findByText('Loading...')).toBeInTheDocument();
    expect(screen.queryByText('Guest')).not.toBeInTheDocument();
    answer(jsonResponse({ user: null }));
    expect(await screen.findByRole('heading', { name: 'My Gallery' })).toBeInTheDocument();
  });

  it('sends guests from /profile to /login', async () => {
    stubApi();
    const { router } = renderApp('/profile');
    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(router.location.pathname).toBe('/login');
    expect(router.location.search).toBe('');
  });

  it('shows the profile to a signed-in user', async () => {
    stubApi({
      ...signedInAs('ann', 'user'),
      'GET /api/user/profile': () =>
        jsonResponse({
          username: 'ann',
          email: null,
          role: 'user',
          subscription_status: null,
          subscription_start_date: null,
          subscription_end_date: null,
          total_time_spent: 0,
          games: [],
          achievements: [],
        }),
    });
    renderApp('/profile');
    expect(await screen.findByRole('heading', { name: 'Profile' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Account Information' })).toBeVisible();
    expect(screen.getByText('ann', { selector: 'dd' })).toBeInTheDocument();
  });

  it('sends guests from admin routes to /login?admin=true', async () => {
    stubApi();
    const { router } = renderApp('/admin/users/42');
    expect(await screen.findByText('Admin sign-in is required to view that page.')).toBeVisible();
    expect(`${router.location.pathname}${router.location.search}`).toBe('/login?admin=true');
  });

  it('sends signed-in non-admins from /admin home', async () => {
    stubApi(signedInAs('sub', 'subscriber'));
    const { router } = renderApp('/admin');
    expect(await screen.findByText(/passionate game developer/)).toBeInTheDocument();
    expect(router.location.pathname).toBe('/');
  });

  it('lets admins open the dashboard and a user page', async () => {
    stubApi({
      ...signedInAs('root', 'admin'),
      'GET /api/active-users': () =>
        jsonResponse({
          authenticated: [],
          anonymous: { count: 0, currentPages: {} },
          totalActive: 0,
        }),
      'GET /api/visitor-stats': () =>
        jsonResponse({
          summary: {
            averageTotal: 0,
            averageAuthenticated: 0,
            averageAnonymous: 0,
            newUsers: 0,
            totalUsers: 1,
            peakConcurrent: 0,
          },
          dailyStats: [],
          gameStats: {},
        }),
    });
    const { router } = renderApp('/admin');
    expect(await screen.findByRole('heading', { name: 'Admin Dashboard' })).toBeInTheDocument();
    await router.navigate('/admin/users/7');
    expect(await screen.findByRole('heading', { name: 'User Details' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back' })).toHaveAttribute('href', '/admin');
  });

  it('sends a heartbeat for the current page, as the route spells it, for guests with a visitor id', async () => {
    const { calls } = stubApi();
    const { router } = renderApp('/gallery');
    await screen.findByRole('heading', { name: 'My Gallery' });
    await waitFor(() => {
      const visitorId: unknown = expect.stringMatching(/^[\w-]{24}$/);
      expect(calls).toContainEqual({
        method: 'POST',
        url: '/api/anonymous-heartbeat',
        body: expect.objectContaining({ currentPage: '/Gallery', visitorId }) as unknown,
      });
    });
    await router.navigate('/games');
    // the first heartbeat of a page carries its page view and the time on the page just left
    await waitFor(() => {
      expect(calls).toContainEqual({
        method: 'POST',
        url: '/api/anonymous-heartbeat',
        body: expect.objectContaining({
          currentPage: '/games',
          view: expect.objectContaining({ entry: false }) as unknown,
          left: { path: '/Gallery', seconds: expect.any(Number) as number },
        }) as unknown,
      });
    });
  });

  it('sends heartbeats of signed-in users to the auth endpoint every 30 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      const { calls } = stubApi(signedInAs('ann', 'user'));
      renderApp('/games');
      await screen.findByRole('heading', { name: 'Games' });
      const heartbeats = () => calls.filter((call) => call.url === '/api/auth/heartbeat');
      await waitFor(() => expect(heartbeats()).toHaveLength(1));
      expect(heartbeats()[0]?.body).toMatchObject({
        currentPage: '/games',
        visitorId: expect.any(String) as string,
      });
      await vi.advanceTimersByTimeAsync(30_000);
      expect(heartbeats()).toHaveLength(2);
      // the ones every 30 s carry no page view, only the page load they come from
      const tab = (heartbeats()[0]?.body as { tab?: string } | undefined)?.tab;
      expect(tab).toMatch(/^[0-9a-z]{1,16}$/);
      expect(heartbeats()[1]?.body).toEqual({
        currentPage: '/games',
        visitorId: expect.any(String) as string,
        tab,
      });
    } finally {
      vi.useRealTimers();
    }
  });

  it('turns a visitor whose session ended on the server into a guest', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { calls } = stubApi({
      ...signedInAs('ann', 'user'),
      'POST /api/auth/heartbeat': () => apiError(401, 'Authentication required', 'UNAUTHORIZED'),
    });
    renderApp('/games');
    await screen.findByRole('heading', { name: 'Games' });
    // the signed-in heartbeat is refused: the top bar shows Guest and heartbeats go anonymous
    expect(await within(screen.getByRole('banner')).findByText('Guest')).toBeVisible();
    await waitFor(() =>
      expect(calls.some((call) => call.url === '/api/anonymous-heartbeat')).toBe(true),
    );
    expect(calls.filter((call) => call.url === '/api/auth/heartbeat')).toHaveLength(1);
  });
});
