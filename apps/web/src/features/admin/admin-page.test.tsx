import type { ActiveUsersResponse, VisitorStatsResponse } from '@portfolio/types';
import type { AdminGame } from '@portfolio/types/game-host';
import { act, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import {
  apiError,
  jsonResponse,
  renderApp,
  signedInAs,
  stubApi,
  type RecordedCall,
} from '../../test/render-app';
import { useAdminGamesStore } from '../admin-games/admin-games-store';

const fakeIo = vi.hoisted(() => {
  type Listener = (...args: unknown[]) => void;

  /** Stands in for a Socket.IO client socket: tests fire server events with `trigger`. */
  class FakeSocket {
    readonly options: unknown;
    isDisconnected = false;
    private readonly listeners = new Map<string, Listener[]>();

    constructor(options: unknown) {
      this.options = options;
    }

    on(event: string, listener: Listener): this {
      this.listeners.set(event, [...(this.listeners.get(event) ?? []), listener]);
      return this;
    }

    disconnect(): this {
      this.isDisconnected = true;
      this.trigger('disconnect', 'io client disconnect');
      return this;
    }

    trigger(event: string, ...args: unknown[]): void {
      for (const listener of this.listeners.get(event) ?? []) {
        listener(...args);
      }
    }
  }

  const sockets: FakeSocket[] = [];
  return {
    sockets,
    io: (options: unknown) => {
      const socket = new FakeSocket(options);
      sockets.push(socket);
      return socket;
    },
  };
});

vi.mock('socket.io-client', () => ({ io: fakeIo.io }));

const activeUsers: ActiveUsersResponse = {
  authenticated: [
    {
      username: 'alice',
      role: 'admin',
      current_page: '/admin',
      last_seen: '2025-03-07T10:15:00.000Z',
    },
    { username: 'bob', role: 'user', current_page: '', last_seen: '2025-03-07T10:14:30.000Z' },
  ],
  anonymous: { count: 3, currentPages: { '/games': 2, '/Gallery': 1 } },
  totalActive: 5,
};

const visitorStats: VisitorStatsResponse = {
  summary: {
    averageTotal: 12.34,
    averageAuthenticated: 4.26,
    averageAnonymous: 8,
    newUsers: 7,
    totalUsers: 42,
    peakConcurrent: 9,
  },
  dailyStats: [
    {
      date: '2025-03-06',
      new_users: 2,
      total_users: 41,
      peak_concurrent: 6,
      registered_visitors: 4,
      anonymous_visitors: 11,
      daily_total: 15,
    },
    {
      date: '2025-03-07',
      new_users: 1,
      total_users: 42,
      peak_concurrent: 9,
      registered_visitors: 5,
      anonymous_visitors: 8,
      daily_total: 13,
    },
  ],
  gameStats: {
    Pong: { totalClicks: 10, authenticatedClicks: 6, anonymousClicks: 4 },
    MysteryGame: { totalClicks: 3, authenticatedClicks: 1, anonymousClicks: 2 },
  },
};

const skyIsland: AdminGame = {
  id: 'SkyIsland',
  title: 'Sky Island',
  description: '',
  thumbnail: '',
  instructions: '',
  section: 'godot',
  access: 'public',
  isMultiplayer: false,
  playUrl: null,
  needsIsolation: false,
  version: 1,
  frame: { mode: 'default' },
  touch: 'playable',
  orientation: 'any',
  published: true,
  order: 7,
  builds: [],
  isBuiltIn: false,
  createdAt: '2026-11-20T09:00:00.000Z',
  updatedAt: '2026-11-20T09:00:00.000Z',
};

function adminApi(overrides: Record<string, () => Response> = {}) {
  return stubApi({
    ...signedInAs('root', 'admin'),
    'GET /api/active-users': () => jsonResponse(activeUsers),
    'GET /api/visitor-stats': () => jsonResponse(visitorStats),
    'GET /api/users': () => jsonResponse([]),
    'GET /api/analytics/realtime': () =>
      jsonResponse({ visitors: 3, pages: [{ path: '/Gallery', visitors: 3 }] }),
    'GET /api/admin/rooms': () =>
      jsonResponse({
        rooms: [
          {
            code: 'QX7KPA',
            gameId: 'WolfScape',
            private: true,
            players: 2,
            spectators: 1,
            maxPlayers: 4,
            createdAt: new Date().toISOString(),
          },
        ],
      }),
    'GET /api/admin/chat-reports': () => jsonResponse({ reports: [] }),
    ...overrides,
  });
}

function countCalls(calls: RecordedCall[], url: string): number {
  return calls.filter((call) => call.url === url).length;
}

/** The value shown on the stat card with this label. */
function statValue(label: string): string | null | undefined {
  return screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;
}

/** The texts of the table row whose header cell reads `name`. */
function rowTexts(name: string): (string | null)[] {
  const row = screen.getByRole('rowheader', { name }).closest('tr');
  if (!row) {
    throw new Error(`No row for ${name}`);
  }
  return Array.from(row.children, (cell) => cell.textContent);
}

function onlySocket() {
  expect(fakeIo.sockets).toHaveLength(1);
  const [socket] = fakeIo.sockets;
  if (!socket) {
    throw new Error('No socket was opened');
  }
  return socket;
}

async function openDashboard() {
  const view = renderApp('/admin');
  await screen.findByRole('heading', { level: 1, name: 'Admin Dashboard' });
  await screen.findByText('Total Active Users');
  await screen.findByText('Average Daily Visitors');
  return view;
}

beforeEach(() => {
  fakeIo.sockets.length = 0;
});

afterEach(() => {
  vi.useRealTimers();
});

describe('AdminPage', () => {
  it('shows live activity from the active-users call', async () => {
    adminApi();
    await openDashboard();

    const live = screen.getByRole('region', { name: 'Live Activity' });
    expect(within(live).getByRole('heading', { level: 2 })).toHaveTextContent('Live Activity');
    expect(statValue('Total Active Users')).toBe('5');
    expect(statValue('Active Registered Users')).toBe('2');
    expect(statValue('Anonymous Users')).toBe('3');

    const alice = rowTexts('alice');
    expect(alice.slice(0, 3)).toEqual(['alice', 'admin', '/admin']);
    expect(alice[3]).toBe(new Date('2025-03-07T10:15:00.000Z').toLocaleTimeString());
    expect(rowTexts('bob').slice(0, 3)).toEqual(['bob', 'user', 'Browsing']);

    const guests = within(live).getByRole('list');
    expect(
      within(guests)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['/games2 guests', '/Gallery1 guest']);
  });

  it("lists every game's live rooms, each linking to its game's page (closed there)", async () => {
    adminApi();
    await openDashboard();

    // the section (its table's scrolling box is named after it too)
    const [rooms] = screen.getAllByRole('region', { name: 'Live Rooms' });
    if (!rooms) {
      throw new Error('the Live Rooms section is missing');
    }
    const code = await within(rooms).findByText('QX7KPA (private)');
    const row = code.closest('tr');
    expect(row).not.toBeNull();
    expect(row).toHaveTextContent('2/4');
    expect(within(row as HTMLElement).getByRole('link', { name: 'WolfScape' })).toHaveAttribute(
      'href',
      '/admin/games/WolfScape',
    );
    // closing is on the game's page, with its confirmation
    expect(within(rooms).queryByRole('button', { name: /Close room/ })).toBeNull();
  });

  it('shows realtime visitors beside Live Activity, refreshed every 10 s, and links to the analytics page', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { calls } = adminApi();
    await openDashboard();
    const realtime = await screen.findByRole('region', { name: 'Realtime' });
    await within(realtime).findByRole('rowheader', { name: '/Gallery' });
    expect(realtime).toHaveTextContent('3 visitors in the last 5 minutes');
    expect(countCalls(calls, '/api/analytics/realtime')).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(countCalls(calls, '/api/analytics/realtime')).toBe(2);
    expect(screen.getByRole('link', { name: 'Site Analytics' })).toHaveAttribute(
      'href',
      '/admin/analytics',
    );
  });

  it('shows the 30-day overview from the visitor-stats call', async () => {
    adminApi();
    await openDashboard();

    expect(screen.getByRole('heading', { level: 2, name: '30-Day Analytics Overview' }));
    expect(statValue('Average Daily Visitors')).toBe('12.3');
    expect(statValue('Average Registered')).toBe('4.3');
    expect(statValue('Average Anonymous')).toBe('8.0');
    expect(statValue('New Users This Month')).toBe('7');
    expect(statValue('Total Registered Users')).toBe('42');
    expect(statValue('Peak Concurrent Users')).toBe('9');

    expect(screen.getByRole('img', { name: /Daily visitors, last 2 days/ })).toBeInTheDocument();

    const breakdown = screen.getByRole('table', { name: 'Daily Breakdown' });
    const headers = within(breakdown).getAllByRole('columnheader');
    expect(headers.map((header) => header.textContent)).toEqual([
      'Date',
      'New Users',
      'Total Users',
      'Peak Concurrent',
      'Daily Total',
    ]);
    // Newest day first.
    const rows = within(breakdown).getAllByRole('row').slice(1);
    expect(rows.map((row) => Array.from(row.children, (cell) => cell.textContent))).toEqual([
      ['2025-03-07', '1', '42', '9', '13'],
      ['2025-03-06', '2', '41', '6', '15'],
    ]);
  });

  it('says what the averages are taken over, and the breakdown lists exactly those days', async () => {
    adminApi({
      'GET /api/visitor-stats': () =>
        jsonResponse({
          ...visitorStats,
          summary: { ...visitorStats.summary, averageTotal: 13, averageDays: 1 },
        }),
    });
    await openDashboard();

    const averageCard = screen.getByText('Average Daily Visitors', {
      selector: 'dt',
    }).parentElement;
    expect(averageCard).toHaveTextContent('per day, over the 1 day with data');
    const breakdown = screen.getByRole('table', { name: 'Daily Breakdown' });
    const rows = within(breakdown).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.querySelector('th')?.textContent)).toEqual(['2025-03-07']);
    expect(screen.getByRole('img', { name: /Daily visitors, last 1 day\b/ })).toBeInTheDocument();
  });

  it('shows game clicks with catalogue titles, or the raw id for unknown games', async () => {
    adminApi();
    await openDashboard();

    const clicks = screen.getByRole('table', { name: 'Game Click Analytics' });
    expect(
      within(clicks)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Game', 'Total Clicks', 'Registered Users', 'Anonymous Users']);
    expect(rowTexts('Pong')).toEqual(['Pong', '10', '6', '4']);
    expect(rowTexts('MysteryGame')).toEqual(['MysteryGame', '3', '1', '2']);
  });

  it("names an owner's own game by the database catalogue's title, not its id", async () => {
    useAdminGamesStore.setState({ games: null, error: null });
    const { calls } = adminApi({
      'GET /api/visitor-stats': () =>
        jsonResponse({
          ...visitorStats,
          gameStats: {
            ...visitorStats.gameStats,
            sky_island: { totalClicks: 5, authenticatedClicks: 2, anonymousClicks: 3 },
          },
        }),
      'GET /api/admin/games': () =>
        jsonResponse({
          games: [{ ...skyIsland, id: 'sky_island', title: 'Sky Island' }],
        }),
    });
    await openDashboard();
    expect(await screen.findByRole('rowheader', { name: 'Sky Island' })).toBeVisible();
    expect(rowTexts('Sky Island')).toEqual(['Sky Island', '5', '2', '3']);
    // the built-in catalogue still names its own games; an id nobody knows stays an id
    expect(rowTexts('Pong')).toEqual(['Pong', '10', '6', '4']);
    expect(rowTexts('MysteryGame')).toEqual(['MysteryGame', '3', '1', '2']);
    expect(countCalls(calls, '/api/admin/games')).toBe(1);
    useAdminGamesStore.setState({ games: null, error: null });
  });

  it('opens a credentialed socket and shows Live while it is connected', async () => {
    adminApi();
    await openDashboard();
    const socket = onlySocket();
    expect(socket.options).toEqual({
      path: '/socket.io',
      withCredentials: true,
      transports: ['websocket', 'polling'],
    });
    expect(screen.getByRole('status')).toHaveTextContent('Polling');

    act(() => socket.trigger('connect'));
    expect(screen.getByRole('status')).toHaveTextContent('Live');

    act(() => socket.trigger('disconnect', 'transport close'));
    expect(screen.getByRole('status')).toHaveTextContent('Polling');
  });

  it('replaces live activity on presence:update without refetching', async () => {
    const { calls } = adminApi();
    await openDashboard();
    const socket = onlySocket();

    act(() =>
      socket.trigger('presence:update', {
        authenticated: [
          {
            username: 'carol',
            role: 'subscriber',
            current_page: '/games',
            last_seen: '2025-03-07T10:20:00.000Z',
          },
        ],
        anonymous: { count: 6, currentPages: { '/': 6 } },
        totalActive: 7,
      } satisfies ActiveUsersResponse),
    );

    expect(statValue('Total Active Users')).toBe('7');
    expect(statValue('Active Registered Users')).toBe('1');
    expect(statValue('Anonymous Users')).toBe('6');
    expect(rowTexts('carol').slice(0, 3)).toEqual(['carol', 'subscriber', '/games']);
    expect(screen.queryByRole('rowheader', { name: 'alice' })).not.toBeInTheDocument();
    expect(countCalls(calls, '/api/active-users')).toBe(1);
  });

  it('ignores a malformed presence update', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    adminApi();
    await openDashboard();

    act(() => onlySocket().trigger('presence:update', { totalActive: 'lots' }));

    expect(statValue('Total Active Users')).toBe('5');
  });

  it('counts a game:click in the right columns', async () => {
    const { calls } = adminApi();
    await openDashboard();
    const socket = onlySocket();

    act(() => socket.trigger('game:click', { gameId: 'Pong', authenticated: true, at: 'now' }));
    expect(rowTexts('Pong')).toEqual(['Pong', '11', '7', '4']);

    act(() => socket.trigger('game:click', { gameId: 'Pong', authenticated: false, at: 'now' }));
    expect(rowTexts('Pong')).toEqual(['Pong', '12', '7', '5']);

    // A game with no clicks yet gets its first row, titled from the catalogue.
    act(() =>
      socket.trigger('game:click', { gameId: 'RocketGame', authenticated: false, at: 'now' }),
    );
    expect(rowTexts('Rocket Game')).toEqual(['Rocket Game', '1', '0', '1']);
    expect(countCalls(calls, '/api/visitor-stats')).toBe(1);
  });

  it('shows Failed to fetch active users when that call fails', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    adminApi({ 'GET /api/active-users': () => apiError(500, 'Boom') });
    renderApp('/admin');

    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch active users');
    // The other call still renders.
    expect(await screen.findByText('Average Daily Visitors')).toBeInTheDocument();
    expect(screen.queryByText('Total Active Users')).not.toBeInTheDocument();
  });

  it('shows a message when visitor stats fail', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    adminApi({ 'GET /api/visitor-stats': () => apiError(500, 'Boom') });
    renderApp('/admin');

    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch visitor stats');
    expect(await screen.findByText('Total Active Users')).toBeInTheDocument();
  });

  it('polls both calls every 30 s (spec: 30000 ms) and keeps the last good data when a poll fails', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    let activeUsersCalls = 0;
    const { calls } = adminApi({
      'GET /api/active-users': () => {
        activeUsersCalls += 1;
        return activeUsersCalls === 1 ? jsonResponse(activeUsers) : apiError(500, 'Boom');
      },
    });
    await openDashboard();
    expect(countCalls(calls, '/api/active-users')).toBe(1);
    expect(countCalls(calls, '/api/visitor-stats')).toBe(1);

    await act(() => vi.advanceTimersByTimeAsync(25_000));
    expect(countCalls(calls, '/api/active-users')).toBe(1);

    await act(() => vi.advanceTimersByTimeAsync(5_000));
    expect(countCalls(calls, '/api/active-users')).toBe(2);
    expect(countCalls(calls, '/api/visitor-stats')).toBe(2);

    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch active users');
    expect(statValue('Total Active Users')).toBe('5');
  });

  it('sends the user to /login when the current user is no longer an admin', async () => {
    let currentUserCalls = 0;
    stubApi({
      // The start-up call sees an admin; the dashboard's own check sees a demoted user.
      'GET /api/auth/current-user': () => {
        currentUserCalls += 1;
        const role = currentUserCalls === 1 ? 'admin' : 'user';
        return jsonResponse({ user: { id: 'id-root', username: 'root', role } });
      },
      // The data calls still answer, so only the page's own check can send the user away.
      'GET /api/active-users': () => jsonResponse(activeUsers),
      'GET /api/visitor-stats': () => jsonResponse(visitorStats),
    });
    const { router } = renderApp('/admin');

    expect(await screen.findByRole('heading', { name: 'Login' })).toBeInTheDocument();
    expect(router.location.pathname).toBe('/login');
  });

  it('sends the user to /login when the API refuses the session', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    adminApi({ 'GET /api/active-users': () => apiError(401, 'Not authenticated') });
    const { router } = renderApp('/admin');

    await waitFor(() => expect(router.location.pathname).toBe('/login'));
  });

  it('disconnects the socket when the dashboard closes', async () => {
    adminApi();
    const { router } = await openDashboard();
    const socket = onlySocket();

    await act(() => router.navigate('/games'));
    // the games page's code loads first: on a busy machine that takes more than a second
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Games' }, { timeout: 10_000 }),
    ).toBeInTheDocument();

    expect(socket.isDisconnected).toBe(true);
  });
});
