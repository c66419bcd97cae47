import { io, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { type ApiError, PlayTicketResponse } from '@portfolio/types';
import {
  MULTIPLAYER_NAMESPACES,
  PlayRefusal,
  type RocketWelcome,
  type WolfWelcome,
} from '@portfolio/types/multiplayer';

import {
  startIsolatedTestApp,
  startTestApp,
  type TestApp,
  uniqueName,
} from '../../test/harness.js';
import { signedInClient } from '../../test/factories.js';
import { PLAY_TICKET_LIMIT } from './play-ticket-routes.js';
import { createPlayTickets } from './play-tickets.js';

/** The games origin the app is configured with (no server needed: only the Origin header counts). */
const GAMES_ORIGIN = 'http://games.test:4999';

type Game = keyof typeof MULTIPLAYER_NAMESPACES;

const open: Socket[] = [];

/** A Socket.IO client as a game's page would open it: WebSocket, that page's origin, a ticket. */
function connect(
  app: TestApp,
  namespace: string,
  options: { origin?: string; ticket?: unknown; cookie?: string } = {},
): Socket {
  const headers: Record<string, string> = {};
  if (options.origin) {
    headers.origin = options.origin;
  }
  if (options.cookie) {
    headers.cookie = options.cookie;
  }
  const socket = io(app.url + namespace, {
    transports: ['websocket'],
    extraHeaders: headers,
    ...(options.ticket === undefined ? {} : { auth: { ticket: options.ticket } }),
    forceNew: true,
    reconnection: false,
  });
  open.push(socket);
  return socket;
}

/** Resolves with the welcome, or rejects with the connect_error. */
function welcomeOf<Welcome>(socket: Socket): Promise<Welcome> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no welcome within 5 s')), 5000);
    socket.once('welcome', (welcome: Welcome) => {
      clearTimeout(timer);
      resolve(welcome);
    });
    socket.once('connect_error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** The refusal a handshake ended with (its code and message). */
async function refusalOf(socket: Socket): Promise<PlayRefusal> {
  const error = await new Promise<Error & { data?: unknown }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('neither refused nor connected in 5 s')), 5000);
    socket.once('connect', () => {
      clearTimeout(timer);
      reject(new Error('connected'));
    });
    socket.once('connect_error', (reason) => {
      clearTimeout(timer);
      resolve(reason);
    });
  });
  return PlayRefusal.parse(error.data ?? { code: 'TRANSPORT', message: error.message });
}

async function ticketFor(client: Awaited<ReturnType<typeof signedInClient>>['client'], game: Game) {
  const response = await client.post<PlayTicketResponse>('/api/play-tickets', { gameId: game });
  expect(response.status).toBe(200);
  return PlayTicketResponse.parse(response.body);
}

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({
    redisPrefix: uniqueName('play-tickets'),
    gamesHost: {
      origin: GAMES_ORIGIN,
      port: 0,
      dir: '/nonexistent-games',
      uploadMaxBytes: 1024,
      zipMaxFiles: 10,
      zipMaxUnpackedBytes: 1024,
      zipMaxRatio: 10,
    },
  });
});
afterEach(() => {
  open.splice(0).forEach((socket) => socket.disconnect());
});
afterAll(async () => {
  await app.stop();
});

describe('POST /api/play-tickets', () => {
  it('gives a guest no ticket', async () => {
    const response = await app.client().post('/api/play-tickets', { gameId: 'RocketGame' });
    expect(response.status).toBe(401);
  });

  it("gives a signed-in player a short-lived ticket and the site's origin", async () => {
    const { client } = await signedInClient(app);
    const before = Date.now();
    const answer = await ticketFor(client, 'WolfScape');
    expect(answer.siteOrigin).toBe(app.url);
    expect(answer.ticket.length).toBeGreaterThan(20);
    const expiresIn = Date.parse(answer.expiresAt) - before;
    expect(expiresIn).toBeGreaterThan(30_000);
    expect(expiresIn).toBeLessThanOrEqual(120_000);
  });

  it('refuses games without a live server and malformed ids with a clear 4xx', async () => {
    const { client } = await signedInClient(app);
    const notMultiplayer = await client.post<ApiError>('/api/play-tickets', { gameId: 'Pong' });
    expect(notMultiplayer.status).toBe(404);
    expect(notMultiplayer.body.error.message).toBe("No multiplayer game with the id 'Pong'");
    expect((await client.post('/api/play-tickets', { gameId: 'Nope' })).status).toBe(404);
    const malformed = await client.post<ApiError>('/api/play-tickets', { gameId: '../x' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.message).toMatch(/gameId/);
    expect((await client.post('/api/play-tickets', {})).status).toBe(400);
  });

  it('is refused from another origin (the games origin cannot ask for one itself)', async () => {
    const { client } = await signedInClient(app);
    const response = await client.post(
      '/api/play-tickets',
      { gameId: 'RocketGame' },
      { origin: GAMES_ORIGIN },
    );
    expect(response.status).toBe(403);
  });

  it('is rate limited per player', async () => {
    const { client } = await signedInClient(app);
    const statuses: number[] = [];
    for (let index = 0; index <= PLAY_TICKET_LIMIT.limit; index++) {
      statuses.push((await client.post('/api/play-tickets', { gameId: 'RocketGame' })).status);
    }
    expect(statuses.slice(0, PLAY_TICKET_LIMIT.limit).every((status) => status === 200)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('a game on the games origin joins with a ticket', () => {
  it('joins Rocket Game as the player who asked for the ticket, without a cookie', async () => {
    const { client, username } = await signedInClient(app);
    const { ticket } = await ticketFor(client, 'RocketGame');
    const socket = connect(app, MULTIPLAYER_NAMESPACES.RocketGame, {
      origin: GAMES_ORIGIN,
      ticket,
    });
    const welcome = await welcomeOf<RocketWelcome>(socket);
    expect(welcome.rockets.find((entry) => entry[0] === welcome.you)?.[1]).toBe(username);
  });

  it('joins WolfScape the same way, and two players meet in one room', async () => {
    const [alice, bob] = await Promise.all([signedInClient(app), signedInClient(app)]);
    const a = await welcomeOf<WolfWelcome>(
      connect(app, MULTIPLAYER_NAMESPACES.WolfScape, {
        origin: GAMES_ORIGIN,
        ticket: (await ticketFor(alice.client, 'WolfScape')).ticket,
      }),
    );
    // Bob plays on the site itself, with his cookie: both paths share the rooms
    const b = await welcomeOf<WolfWelcome>(
      connect(app, MULTIPLAYER_NAMESPACES.WolfScape, {
        origin: app.url,
        cookie: bob.client.cookieHeader,
      }),
    );
    expect(b.room).toBe(a.room);
    expect(b.wolves.map((wolf) => wolf[1])).toEqual(
      expect.arrayContaining([alice.username, bob.username]),
    );
  });

  it("refuses the games origin without a ticket, even carrying the site's cookie", async () => {
    const { client } = await signedInClient(app);
    const socket = connect(app, MULTIPLAYER_NAMESPACES.RocketGame, {
      origin: GAMES_ORIGIN,
      cookie: client.cookieHeader,
    });
    expect(await refusalOf(socket)).toEqual({ code: 'UNAUTHORIZED', message: 'Sign in to play' });
  });

  it('refuses a forged, altered, expired or other-game ticket', async () => {
    const { client, id } = await signedInClient(app);
    const { ticket } = await ticketFor(client, 'RocketGame');
    const altered = ticket.slice(0, 20) + (ticket[20] === 'A' ? 'B' : 'A') + ticket.slice(21);
    const forged = createPlayTickets('not the site secret at all, 32+ chars').issue({
      userId: id,
      gameId: 'RocketGame',
      sessionIdHash: 'x',
    }).ticket;
    const expired = app.deps.playTickets.issue(
      { userId: id, gameId: 'RocketGame', sessionIdHash: 'x' },
      Date.now() - 10 * 60_000,
    ).ticket;
    const cases: Array<[string, unknown]> = [
      [MULTIPLAYER_NAMESPACES.RocketGame, altered],
      [MULTIPLAYER_NAMESPACES.RocketGame, forged],
      [MULTIPLAYER_NAMESPACES.RocketGame, expired],
      [MULTIPLAYER_NAMESPACES.RocketGame, 'not-a-ticket'],
      [MULTIPLAYER_NAMESPACES.RocketGame, { nested: ticket }],
      // a ticket for Rocket Game does not open WolfScape
      [MULTIPLAYER_NAMESPACES.WolfScape, ticket],
    ];
    for (const [namespace, given] of cases) {
      const socket = connect(app, namespace, { origin: GAMES_ORIGIN, ticket: given });
      expect(await refusalOf(socket)).toMatchObject({ code: 'INVALID_TICKET' });
    }
  });

  it('refuses a ticket whose session ended, and ends the game when the player logs out', async () => {
    const { client } = await signedInClient(app);
    const first = await ticketFor(client, 'RocketGame');
    const second = await ticketFor(client, 'RocketGame');
    const socket = connect(app, MULTIPLAYER_NAMESPACES.RocketGame, {
      origin: GAMES_ORIGIN,
      ticket: first.ticket,
    });
    await welcomeOf<RocketWelcome>(socket);
    const disconnected = new Promise((resolve) => socket.once('disconnect', resolve));
    expect((await client.post('/api/auth/logout')).status).toBe(200);
    expect(await disconnected).toBe('io server disconnect');
    // the ticket is still in its minute, but the session it came from is gone
    const late = connect(app, MULTIPLAYER_NAMESPACES.RocketGame, {
      origin: GAMES_ORIGIN,
      ticket: second.ticket,
    });
    expect(await refusalOf(late)).toEqual({ code: 'UNAUTHORIZED', message: 'Sign in to play' });
  });

  it('lets the games origin reach no namespace but the live games', async () => {
    const { client } = await signedInClient(app);
    const socket = connect(app, '/', { origin: GAMES_ORIGIN, cookie: client.cookieHeader });
    const refusal = await refusalOf(socket);
    expect(refusal.message).toBe('Origin not allowed');
    // the site's own pages still connect there
    const site = connect(app, '/', { origin: app.url, cookie: client.cookieHeader });
    await new Promise<void>((resolve, reject) => {
      site.once('connect', resolve);
      site.once('connect_error', reject);
    });
  });

  it('lets the games origin read the long-polling transport (CORS for that origin only)', async () => {
    const handshake = (origin: string) =>
      fetch(`${app.url}/socket.io/?EIO=4&transport=polling`, { headers: { origin } });
    const games = await handshake(GAMES_ORIGIN);
    expect(games.status).toBe(200);
    expect(games.headers.get('access-control-allow-origin')).toBe(GAMES_ORIGIN);
    expect(games.headers.get('access-control-allow-credentials')).toBeNull();
    const site = await handshake(app.url);
    expect(site.status).toBe(200);
    expect(site.headers.get('access-control-allow-origin')).toBeNull();
    const evil = await handshake('https://evil.example');
    expect(evil.status).toBeGreaterThanOrEqual(400);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();

    // and a game joins over it with a ticket, as over WebSocket
    const { client, username } = await signedInClient(app);
    const socket = io(app.url + MULTIPLAYER_NAMESPACES.RocketGame, {
      transports: ['polling'],
      extraHeaders: { origin: GAMES_ORIGIN },
      auth: { ticket: (await ticketFor(client, 'RocketGame')).ticket },
      forceNew: true,
      reconnection: false,
    });
    open.push(socket);
    const welcome = await welcomeOf<RocketWelcome>(socket);
    expect(welcome.rockets.find((entry) => entry[0] === welcome.you)?.[1]).toBe(username);
  });

  it('refuses a foreign origin even with a valid ticket', async () => {
    const { client } = await signedInClient(app);
    const { ticket } = await ticketFor(client, 'RocketGame');
    const socket = connect(app, MULTIPLAYER_NAMESPACES.RocketGame, {
      origin: 'https://evil.example',
      ticket,
    });
    expect((await refusalOf(socket)).code).toBe('TRANSPORT');
  });
});

describe('tickets follow the catalogue an admin edits', () => {
  it('refuses an unpublished game, and a subscriber game to a plain user', async () => {
    // a database of its own: the built-in games of the shared one stay as they are
    const own = await startIsolatedTestApp();
    try {
      const admin = (await signedInClient(own, 'admin')).client;
      const { client: player } = await signedInClient(own, 'user');
      const ask = (gameId: string) => player.post('/api/play-tickets', { gameId });
      expect((await ask('WolfScape')).status).toBe(200);
      expect((await ask('RocketGame')).status).toBe(200);

      await admin.request('PATCH', '/api/admin/games/WolfScape', { published: false });
      await admin.request('PATCH', '/api/admin/games/RocketGame', { access: 'subscriber' });
      const unpublished = await ask('WolfScape');
      expect(unpublished.status).toBe(404);
      expect(unpublished.body).toMatchObject({
        error: { code: 'GAME_NOT_FOUND', message: "No game with the id 'WolfScape'" },
      });
      const locked = await ask('RocketGame');
      expect(locked.status).toBe(403);
      expect(locked.body).toMatchObject({ error: { message: 'Rocket Game is for subscribers' } });
    } finally {
      await own.stop();
    }
  });
});
