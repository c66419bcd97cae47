import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  GAME_SAVE_MAX_BYTES,
  GAME_SESSION_MAX_GAP_SECONDS,
  MyGamesResponse,
  Profile,
  UserDetail,
} from '@portfolio/types';

import { startTestApp, type TestApp } from '../../test/harness.js';
import { signedInClient } from '../../test/factories.js';
import { GAME_SDK_WRITE_LIMIT } from './routes.js';
import { createGamesService } from './service.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.stop();
});

const myGames = async (client: ReturnType<TestApp['client']>) => {
  const response = await client.get('/api/me/games');
  expect(response.status).toBe(200);
  return MyGamesResponse.parse(response.body).games;
};

describe('who may call the SDK API', () => {
  it('answers 401 to guests on every call', async () => {
    const guest = app.client();
    const calls = [
      guest.post('/api/games/TopDownRogueLike/session', { action: 'start' }),
      guest.get('/api/games/TopDownRogueLike/save'),
      guest.request('PUT', '/api/games/TopDownRogueLike/save', { data: { level: 1 } }),
      guest.post('/api/games/TopDownRogueLike/achievements', { name: 'Boss Slayer' }),
      guest.get('/api/me/games'),
    ];
    for (const response of await Promise.all(calls)) {
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ error: { code: expect.any(String) as string } });
    }
  });

  it('answers 404 for an unknown game', async () => {
    const { client } = await signedInClient(app);
    for (const response of await Promise.all([
      client.post('/api/games/NoSuchGame/session', { action: 'start' }),
      client.get('/api/games/NoSuchGame/save'),
      client.request('PUT', '/api/games/NoSuchGame/save', { data: 1 }),
      client.post('/api/games/NoSuchGame/achievements', { name: 'x' }),
    ])) {
      expect(response.status).toBe(404);
      expect(response.body).toMatchObject({
        error: { code: 'GAME_NOT_FOUND', message: "No game with the id 'NoSuchGame'" },
      });
    }
  });

  it('answers 403 for a game the player may not open (Pong for a user)', async () => {
    const { client } = await signedInClient(app, 'user');
    const response = await client.post('/api/games/Pong/achievements', { name: 'First Point' });
    expect(response.status).toBe(403);
    expect(await myGames(client)).toEqual([]);
  });

  it('answers 400 with the field for bad bodies', async () => {
    const { client } = await signedInClient(app);
    const cases: [Promise<{ status: number; body: unknown }>, RegExp][] = [
      [client.post('/api/games/MainQuest2/session', { action: 'pause' }), /^action: /],
      [client.post('/api/games/MainQuest2/session', {}), /^action: /],
      [client.request('PUT', '/api/games/MainQuest2/save', { level: 3 }), /^data: /],
      [client.post('/api/games/MainQuest2/achievements', { name: '   ' }), /^name: is required/],
      [client.post('/api/games/MainQuest2/achievements', { name: 'x'.repeat(101) }), /^name: /],
      [client.post('/api/games/MainQuest2/achievements', { name: 7 }), /^name: /],
    ];
    for (const [pending, message] of cases) {
      const response = await pending;
      expect(response.status).toBe(400);
      expect((response.body as { error: { message: string } }).error.message).toMatch(message);
    }
  });
});

describe('the write limit', () => {
  it('answers 429 with Retry-After once a player sends more than the limit in a minute', async () => {
    const { client } = await signedInClient(app);
    for (let i = 0; i < GAME_SDK_WRITE_LIMIT.limit; i++) {
      const response = await client.post('/api/games/MainQuest2/session', { action: 'ping' });
      expect(response.status).toBe(204);
    }
    const refused = await client.post('/api/games/MainQuest2/achievements', { name: 'Spam' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toMatch(/^\d+$/);
    // reading is not limited
    expect((await myGames(client))[0]?.achievements).toEqual([]);
  });
});

describe('play sessions', () => {
  it('accrues playtime between start and end and marks the game played', async () => {
    const { client } = await signedInClient(app);
    const started = await client.post('/api/games/TopDownRogueLike/session', { action: 'start' });
    expect(started.status).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    expect(
      (await client.post('/api/games/TopDownRogueLike/session', { action: 'ping' })).status,
    ).toBe(204);
    expect(
      (await client.post('/api/games/TopDownRogueLike/session', { action: 'end' })).status,
    ).toBe(204);
    const [record] = await myGames(client);
    expect(record).toMatchObject({
      gameId: 'TopDownRogueLike',
      title: 'TopDown RogueLike',
      playtimeSeconds: 1,
      achievements: [],
      hasSave: false,
    });
    expect(Date.now() - Date.parse(record?.lastPlayed ?? '')).toBeLessThan(60_000);
  });

  it('caps each gap at one ping interval and adds nothing after end', async () => {
    const { id } = await signedInClient(app);
    let clock = Date.parse('2026-01-01T12:00:00Z');
    const games = createGamesService({ db: app.deps.database.db, now: () => new Date(clock) });
    await games.recordSession(id, 'CoopAdventure', 'start');
    clock += 20_000;
    await games.recordSession(id, 'CoopAdventure', 'ping'); // +20 s
    clock += 10 * 60_000; // the tab vanished for ten minutes
    await games.recordSession(id, 'CoopAdventure', 'ping'); // + one interval only
    clock += 5_000;
    await games.recordSession(id, 'CoopAdventure', 'end'); // +5 s
    clock += 60_000;
    await games.recordSession(id, 'CoopAdventure', 'ping'); // opens a new session: +0
    clock += 60_000;
    await games.recordSession(id, 'CoopAdventure', 'end'); // +1 interval
    const [record] = await games.listForUser(id);
    expect(record?.playtimeSeconds).toBe(20 + GAME_SESSION_MAX_GAP_SECONDS + 5 + 30);
    expect(record?.lastPlayed).toBe(new Date(clock).toISOString());
  });
});

describe('one game at a time', () => {
  it('credits a player one game at a time: another game starting ends the open session', async () => {
    const { id } = await signedInClient(app);
    let clock = Date.parse('2026-01-01T12:00:00Z');
    const games = createGamesService({ db: app.deps.database.db, now: () => new Date(clock) });
    const four = ['TopDownRogueLike', 'MainQuest2', 'CoopAdventure', 'Pong'];
    // four viewers opened at once, each pinging 6 s later: 6 s of wall time
    for (const game of four) {
      await games.recordSession(id, game, 'start');
    }
    clock += 6_000;
    for (const game of four) {
      await games.recordSession(id, game, 'ping');
    }
    const seconds = async () =>
      Object.fromEntries(
        (await games.listForUser(id)).map((record) => [record.gameId, record.playtimeSeconds]),
      );
    const total = async () => Object.values(await seconds()).reduce((sum, value) => sum + value, 0);
    expect(await total()).toBe(6);

    // one viewer left open: its game accrues, and an end closes it
    clock += 20_000;
    await games.recordSession(id, 'Pong', 'ping');
    clock += 10_000;
    await games.recordSession(id, 'Pong', 'end');
    expect(await total()).toBe(36);
    expect((await seconds()).Pong).toBe(30 + 6);

    // switching games: the first one's time up to the switch is kept, then only the second accrues
    clock += 60_000;
    await games.recordSession(id, 'MainQuest2', 'start');
    clock += 12_000;
    await games.recordSession(id, 'CoopAdventure', 'start');
    clock += 8_000;
    await games.recordSession(id, 'CoopAdventure', 'ping');
    clock += 8_000;
    await games.recordSession(id, 'MainQuest2', 'end'); // closed already: adds nothing
    expect(await seconds()).toMatchObject({ MainQuest2: 12, CoopAdventure: 8, Pong: 36 });
  });

  it('over HTTP, four games played at once are credited no more than the time that passed', async () => {
    // a subscriber, who may open Pong
    const { client } = await signedInClient(app, 'subscriber');
    const four = ['TopDownRogueLike', 'MainQuest2', 'CoopAdventure', 'Pong'];
    const call = async (game: string, action: string) =>
      expect((await client.post(`/api/games/${game}/session`, { action })).status).toBe(204);
    const startedAt = Date.now();
    for (const game of four) {
      await call(game, 'start');
    }
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    for (const game of four) {
      await call(game, 'ping');
    }
    for (const game of four) {
      await call(game, 'end');
    }
    const elapsedSeconds = (Date.now() - startedAt) / 1000;
    const records = await myGames(client);
    expect(records.map((record) => record.gameId).sort()).toEqual([...four].sort());
    const credited = records.reduce((sum, record) => sum + record.playtimeSeconds, 0);
    // each of the four got a second or more before (4+ seconds in ~1)
    expect(credited).toBeGreaterThanOrEqual(1);
    expect(credited).toBeLessThanOrEqual(elapsedSeconds);
  });
});

describe('saves', () => {
  it('answers "no save" (not an error) before the first save, then the saved data', async () => {
    const { client } = await signedInClient(app, 'subscriber');
    const none = await client.get('/api/games/Pong/save');
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ data: null, updatedAt: null });
    const data = { highScore: 4, names: ['ä', 'b'], nested: { ok: true, none: null } };
    const put = await client.request('PUT', '/api/games/Pong/save', { data });
    expect(put.status).toBe(200);
    const loaded = await client.get<{ data: unknown; updatedAt: string }>('/api/games/Pong/save');
    expect(loaded.status).toBe(200);
    expect(loaded.body.data).toEqual(data);
    expect(loaded.body.updatedAt).toBe((put.body as { updatedAt: string }).updatedAt);
    // a second save replaces the first
    await client.request('PUT', '/api/games/Pong/save', { data: 7 });
    expect((await client.get<{ data: unknown }>('/api/games/Pong/save')).body.data).toBe(7);
    expect((await myGames(client)).find((game) => game.gameId === 'Pong')?.hasSave).toBe(true);
  });

  it('keeps one save per player', async () => {
    const first = await signedInClient(app);
    const second = await signedInClient(app);
    await first.client.request('PUT', '/api/games/MainQuest2/save', { data: 'mine' });
    expect((await second.client.get('/api/games/MainQuest2/save')).body).toEqual({
      data: null,
      updatedAt: null,
    });
  });

  it('takes 64 KB and answers 413 with a message above it', async () => {
    const { client } = await signedInClient(app);
    // a JSON string of exactly the limit: the quotes count
    const atLimit = 'a'.repeat(GAME_SAVE_MAX_BYTES - 2);
    expect(
      (await client.request('PUT', '/api/games/MainQuest2/save', { data: atLimit })).status,
    ).toBe(200);
    const over = await client.request('PUT', '/api/games/MainQuest2/save', {
      data: `${atLimit}a`,
    });
    expect(over.status).toBe(413);
    expect(over.body).toEqual({
      error: {
        code: 'PAYLOAD_TOO_LARGE',
        message: 'The save is 65 KB; a game may save at most 64 KB',
      },
    });
    const huge = await client.request('PUT', '/api/games/MainQuest2/save', {
      data: 'b'.repeat(200_000),
    });
    expect(huge.status).toBe(413);
    expect(huge.body).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
    // the save at the limit is still there
    expect((await client.get<{ data: string }>('/api/games/MainQuest2/save')).body.data).toBe(
      atLimit,
    );
  });
});

describe('achievements', () => {
  it('answers 201 the first time, 200 after, and keeps the first unlock time', async () => {
    const { client } = await signedInClient(app);
    const first = await client.post<{ name: string; unlockedAt: string }>(
      '/api/games/CompMultiplayerUCCS/achievements',
      { name: ' Ace ' },
    );
    expect(first.status).toBe(201);
    expect(first.body.name).toBe('Ace');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const again = await client.post('/api/games/CompMultiplayerUCCS/achievements', {
      name: 'Ace',
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const [record] = await myGames(client);
    expect(record).toMatchObject({
      gameId: 'CompMultiplayerUCCS',
      title: 'Competitive Multiplayer',
      playtimeSeconds: 0,
      lastPlayed: null,
      hasSave: false,
      achievements: [{ name: 'Ace', unlockedAt: first.body.unlockedAt }],
    });
  });
});

describe('the records on the profile and the admin user detail', () => {
  it('shows playtime, save and achievements recorded through the SDK', async () => {
    const player = await signedInClient(app, 'subscriber');
    await player.client.post('/api/games/Pong/session', { action: 'start' });
    await player.client.request('PUT', '/api/games/Pong/save', { data: { highScore: 3 } });
    await player.client.post('/api/games/Pong/achievements', { name: 'First Point' });
    await player.client.post('/api/games/Pong/session', { action: 'end' });

    const profile = Profile.parse((await player.client.get('/api/user/profile')).body);
    expect(profile.games).toEqual([
      expect.objectContaining({ game_id: 'Pong', game_name: 'Pong', playtime: 0 }),
    ]);
    expect(profile.achievements).toEqual([
      expect.objectContaining({ achievement_name: 'First Point', game_id: 'Pong' }),
    ]);

    const admin = await signedInClient(app, 'admin');
    const detail = UserDetail.parse((await admin.client.get(`/api/users/${player.id}`)).body);
    expect(detail.games).toEqual([
      expect.objectContaining({ game_id: 'Pong', save_data: { highScore: 3 } }),
    ]);
    expect(detail.achievements.map((a) => a.achievement_name)).toEqual(['First Point']);
  });
});

describe('save slots', () => {
  it('keeps up to ten slots per game, slot 0 being the save games had before slots', async () => {
    const { client } = await signedInClient(app);
    const put = (slot: number | undefined, data: unknown) =>
      client.request(
        'PUT',
        `/api/games/MainQuest2/save${slot === undefined ? '' : `?slot=${slot}`}`,
        { data },
      );
    expect((await put(undefined, { level: 1 })).status).toBe(200);
    expect((await put(3, { level: 7 })).status).toBe(200);
    expect((await put(9, { level: 9 })).status).toBe(200);

    expect((await client.get('/api/games/MainQuest2/save?slot=0')).body).toMatchObject({
      data: { level: 1 },
    });
    expect((await client.get('/api/games/MainQuest2/save?slot=3')).body).toMatchObject({
      data: { level: 7 },
    });
    expect((await client.get('/api/games/MainQuest2/save?slot=5')).body).toEqual({
      data: null,
      updatedAt: null,
    });
    const slots = await client.get<{ slots: Array<{ slot: number }> }>(
      '/api/games/MainQuest2/saves',
    );
    expect(slots.body.slots.map((entry) => entry.slot)).toEqual([0, 3, 9]);

    for (const bad of ['10', '-1', '1.5', 'two']) {
      const response = await client.get(`/api/games/MainQuest2/save?slot=${bad}`);
      expect(response.status).toBe(400);
      expect((response.body as { error: { message: string } }).error.message).toMatch(/^slot: /);
    }
    // another player sees none of them
    const other = await signedInClient(app);
    expect(
      (await other.client.get<{ slots: unknown[] }>('/api/games/MainQuest2/saves')).body.slots,
    ).toEqual([]);
  });
});
