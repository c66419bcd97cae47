import { setTimeout as sleep } from 'node:timers/promises';

import { io, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';

import { GameStatusResponse } from '@portfolio/types';
import {
  MULTIPLAYER_NAMESPACES,
  PlayRefusal,
  ROCKET_KEYS,
  type RocketUpdate,
  type RocketWelcome,
  type WolfUpdate,
  type WolfWelcome,
} from '@portfolio/types/multiplayer';

import { openSocket, waitForConnect, waitForEvent } from '../../realtime/socket-test-client.js';
import { startTestApp, type TestApp, uniqueName } from '../../test/harness.js';
import { signedInClient } from '../../test/factories.js';
import { scaled } from '../../test/slow-machine.js';

type Game = keyof typeof MULTIPLAYER_NAMESPACES;

interface Player<Welcome> {
  socket: Socket;
  welcome: Welcome;
  updates: unknown[];
}

const open: Socket[] = [];

function connectRaw(app: TestApp, game: Game, headers: Record<string, string> = {}): Socket {
  const socket = io(app.url + MULTIPLAYER_NAMESPACES[game], {
    transports: ['websocket'],
    extraHeaders: headers,
    forceNew: true,
    reconnection: false,
  });
  open.push(socket);
  return socket;
}

/** Joins a game as a browser tab with this cookie would; resolves with the welcome. */
function join<Welcome>(app: TestApp, game: Game, cookie: string): Promise<Player<Welcome>> {
  const socket = connectRaw(app, game, { cookie });
  const updates: unknown[] = [];
  socket.on('u', (update: unknown) => updates.push(update));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no welcome within 3 s')), 3000);
    socket.once('welcome', (welcome: Welcome) => {
      clearTimeout(timer);
      resolve({ socket, welcome, updates });
    });
    socket.once('connect_error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}

/** Resolves with the first update that satisfies `accept`. */
function nextUpdate<U>(socket: Socket, accept: (update: U) => boolean, timeoutMs = scaled(3000)) {
  return new Promise<U>((resolve, reject) => {
    const timer = setTimeout(() => {
      socket.off('u', listener);
      reject(new Error(`no matching update within ${timeoutMs} ms`));
    }, timeoutMs);
    const listener = (update: U) => {
      if (accept(update)) {
        clearTimeout(timer);
        socket.off('u', listener);
        resolve(update);
      }
    };
    socket.on('u', listener);
  });
}

/** Rocket positions of one player in a `m` list ([id, x, y, angle, flags, …]). */
function movesOf(update: RocketUpdate, id: number): number[][] {
  const moves = update.m ?? [];
  const found: number[][] = [];
  for (let index = 0; index < moves.length; index += 5) {
    if (moves[index] === id) {
      found.push(moves.slice(index, index + 5));
    }
  }
  return found;
}

async function roomsSettle(app: TestApp, serverType: string, expected: number[]) {
  const deadline = Date.now() + 3000;
  const sizes = () =>
    [...(app.deps.multiplayer.servers().get(serverType)?.rooms().values() ?? [])].sort(
      (a, b) => a - b,
    );
  while (Date.now() < deadline && JSON.stringify(sizes()) !== JSON.stringify(expected)) {
    await sleep(20);
  }
  expect(sizes()).toEqual(expected);
}

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ redisPrefix: uniqueName('multiplayer') });
});
afterEach(async () => {
  open.splice(0).forEach((socket) => socket.disconnect());
  await roomsSettle(app, 'rocketGame', []);
  await roomsSettle(app, 'wolfscape', []);
});
afterAll(async () => {
  await app.stop();
});

describe('multiplayer handshake', () => {
  it.each(['WolfScape', 'RocketGame'] as const)(
    'refuses guests in %s with a clear reason',
    async (game) => {
      const guest = connectRaw(app, game);
      const error = await new Promise<Error & { data?: unknown }>((resolve) =>
        guest.once('connect_error', resolve),
      );
      expect(PlayRefusal.parse(error.data)).toEqual({
        code: 'UNAUTHORIZED',
        message: 'Sign in to play',
      });
      expect(guest.connected).toBe(false);
    },
  );

  it('refuses a foreign origin even with a valid session', async () => {
    const { client } = await signedInClient(app);
    const socket = connectRaw(app, 'RocketGame', {
      cookie: client.cookieHeader,
      origin: 'https://evil.example',
    });
    await expect(
      new Promise((resolve, reject) => {
        socket.once('connect', () => resolve(undefined));
        socket.once('connect_error', reject);
      }),
    ).rejects.toThrow();
  });

  it('drops a player whose session ends', async () => {
    const { client } = await signedInClient(app);
    const player = await join<RocketWelcome>(app, 'RocketGame', client.cookieHeader);
    const disconnected = new Promise((resolve) => player.socket.once('disconnect', resolve));
    expect((await client.post('/api/auth/logout')).status).toBe(200);
    await disconnected;
  });
});

describe('Rocket Game', () => {
  it('shows two players in one room each other’s rockets moving after input', async () => {
    const [alice, bob] = await Promise.all([signedInClient(app), signedInClient(app)]);
    const a = await join<RocketWelcome>(app, 'RocketGame', alice.client.cookieHeader);
    const bJoined = nextUpdate<RocketUpdate>(a.socket, (update) =>
      (update.j ?? []).some((entry) => entry[1] === bob.username),
    );
    const b = await join<RocketWelcome>(app, 'RocketGame', bob.client.cookieHeader);
    expect(b.welcome.room).toBe(a.welcome.room);
    // Bob's welcome lists Alice; Alice hears that Bob joined
    expect(b.welcome.rockets.find((entry) => entry[0] === a.welcome.you)?.[1]).toBe(alice.username);
    await bJoined;

    const start = b.welcome.rockets.find((entry) => entry[0] === a.welcome.you);
    const seenByBob = nextUpdate<RocketUpdate>(b.socket, (update) =>
      movesOf(update, a.welcome.you).some(([, x, y, , flags]) => {
        return flags === 1 && (x !== start?.[2] || y !== start?.[3]);
      }),
    );
    a.socket.emit('input', ROCKET_KEYS.forward);
    await seenByBob;

    // a shot Bob fires reaches Alice as a shot of Bob's
    const shot = nextUpdate<RocketUpdate>(a.socket, (update) => (update.s ?? []).length >= 4);
    b.socket.emit('input', ROCKET_KEYS.shoot);
    const [, x, y, angle] = (await shot).s ?? [];
    expect([x, y, angle].every((value) => Number.isInteger(value))).toBe(true);
  });

  it('sends only rockets that changed (an idle rocket costs nothing)', async () => {
    const [alice, bob] = await Promise.all([signedInClient(app), signedInClient(app)]);
    const a = await join<RocketWelcome>(app, 'RocketGame', alice.client.cookieHeader);
    const b = await join<RocketWelcome>(app, 'RocketGame', bob.client.cookieHeader);
    b.socket.emit('input', ROCKET_KEYS.forward | ROCKET_KEYS.left);
    await sleep(600);
    const updates = a.updates.slice(-4) as RocketUpdate[];
    expect(updates.length).toBeGreaterThan(0);
    expect(updates.every((update) => movesOf(update, a.welcome.you).length === 0)).toBe(true);
    expect(updates.some((update) => movesOf(update, b.welcome.you).length > 0)).toBe(true);
  });

  it('fills a room to its cap, opens another, and seats newcomers in the least-full room', async () => {
    const { client } = await signedInClient(app);
    const players: Array<Player<RocketWelcome>> = [];
    for (let index = 0; index < 9; index++) {
      players.push(await join<RocketWelcome>(app, 'RocketGame', client.cookieHeader));
    }
    const [firstRoom] = players.map((player) => player.welcome.room);
    expect(players.slice(0, 8).every((player) => player.welcome.room === firstRoom)).toBe(true);
    const secondRoom = players[8]?.welcome.room;
    expect(secondRoom).not.toBe(firstRoom);
    await roomsSettle(app, 'rocketGame', [1, 8]);

    // 7 leave the first room: it now has 1, the second 1 → a tie; one more joins the second
    players.push(await join<RocketWelcome>(app, 'RocketGame', client.cookieHeader));
    expect(players[9]?.welcome.room).toBe(secondRoom);
    players.slice(0, 7).forEach((player) => player.socket.disconnect());
    await roomsSettle(app, 'rocketGame', [1, 2]);
    const newcomer = await join<RocketWelcome>(app, 'RocketGame', client.cookieHeader);
    expect(newcomer.welcome.room).toBe(firstRoom);
  });

  it('ignores bad input without crashing or disconnecting', async () => {
    const [alice, bob] = await Promise.all([signedInClient(app), signedInClient(app)]);
    const a = await join<RocketWelcome>(app, 'RocketGame', alice.client.cookieHeader);
    const b = await join<RocketWelcome>(app, 'RocketGame', bob.client.cookieHeader);
    for (const bad of ['forward', 16, -1, 1.5, null, { keys: 4 }, [4], 'x'.repeat(10_000)]) {
      a.socket.emit('input', bad);
    }
    a.socket.emit('no-such-event', 1);
    await sleep(300);
    expect(a.socket.connected).toBe(true);
    const recent = a.updates.slice(-2) as RocketUpdate[];
    expect(recent.every((update) => movesOf(update, a.welcome.you).length === 0)).toBe(true);

    // the same socket's next valid input still works
    const moved = nextUpdate<RocketUpdate>(
      b.socket,
      (update) => movesOf(update, a.welcome.you).length > 0,
    );
    a.socket.emit('input', ROCKET_KEYS.right);
    await moved;
  });
});

describe('WolfScape', () => {
  it('sends the map and shows a click-to-move path to the other wolves', async () => {
    const [alice, bob] = await Promise.all([signedInClient(app), signedInClient(app)]);
    const a = await join<WolfWelcome>(app, 'WolfScape', alice.client.cookieHeader);
    const b = await join<WolfWelcome>(app, 'WolfScape', bob.client.cookieHeader);
    expect(b.welcome.room).toBe(a.welcome.room);
    expect(b.welcome.map).toBe(a.welcome.map);
    expect(b.welcome.wolves.map((wolf) => wolf[1]).sort()).toEqual(
      [alice.username, bob.username].sort(),
    );

    // Alice clicks a walkable tile away from her wolf; Bob receives her path ending there
    const me = a.welcome.wolves.find((wolf) => wolf[0] === a.welcome.you);
    const width = 48;
    const origin = { x: Math.round((me?.[2] ?? 0) / 10), y: Math.round((me?.[3] ?? 0) / 10) };
    let target = { x: origin.x, y: origin.y };
    for (let index = 0; index < a.welcome.map.length; index++) {
      const x = index % width;
      const y = Math.floor(index / width);
      if (a.welcome.map[index] === '0' && Math.abs(x - origin.x) + Math.abs(y - origin.y) >= 6) {
        target = { x, y };
        break;
      }
    }
    const path = nextUpdate<WolfUpdate>(b.socket, (update) =>
      (update.p ?? []).some((entry) => entry[0] === a.welcome.you),
    );
    // bad clicks first: ignored, nothing breaks
    for (const bad of [{ x: -1, y: 0 }, { x: 999, y: 2 }, { x: 'a' }, null, 7]) {
      a.socket.emit('move', bad);
    }
    a.socket.emit('move', target);
    const entry = (await path).p?.find((candidate) => candidate[0] === a.welcome.you) ?? [];
    expect(entry.slice(-2)).toEqual([target.x, target.y]);
    expect(a.socket.connected).toBe(true);
  });
});

describe('health', () => {
  it('reports both in-process servers up, and down to admins when a loop stops', async () => {
    const own = await startTestApp({ redisPrefix: uniqueName('mp-health') });
    try {
      const client = own.client();
      await own.deps.gameStatus.check();
      const before = await client.get('/api/game-status');
      expect(GameStatusResponse.parse(before.body)).toEqual({ wolfscape: true, rocketGame: true });

      const admin = await signedInClient(own, 'admin');
      const adminSocket = openSocket(own.url, { cookie: admin.client.cookieHeader });
      await waitForConnect(adminSocket.socket);
      const pushed = waitForEvent(
        adminSocket.socket,
        'game-status:update',
        (status) => status.rocketGame === false,
      );
      own.deps.multiplayer.servers().get('rocketGame')?.stopLoop();
      await own.deps.gameStatus.check();
      expect((await client.get('/api/game-status')).body).toEqual({
        wolfscape: true,
        rocketGame: false,
      });
      expect(await pushed).toEqual({ wolfscape: true, rocketGame: false });
      adminSocket.close();
    } finally {
      await own.stop();
    }
  });

  it('keeps asking the external server when its URL is configured', async () => {
    const own = await startTestApp({
      redisPrefix: uniqueName('mp-external'),
      gameServerHealthUrls: { wolfscape: 'http://127.0.0.1:9/health', rocketGame: undefined },
    });
    try {
      await own.deps.gameStatus.check();
      // nothing listens on port 9: the external WolfScape is down, the in-process rocket server up
      expect((await own.client().get('/api/game-status')).body).toEqual({
        wolfscape: false,
        rocketGame: true,
      });
    } finally {
      await own.stop();
    }
  });
});
