import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { MyGamesResponse, Profile, UnlockedAchievement, UserDetail } from '@portfolio/types';
import { LeaderboardResponse, SubmitScoreResponse } from '@portfolio/types/leaderboards';

import { startIsolatedTestApp, type TestApp, type TestClient } from '../../test/harness.js';
import { signedInClient } from '../../test/factories.js';
import { rowsOf } from '../../db/rows.js';

/*
 * Progress kept from playing as a guest ("Keep it in my account" on /games): the browser sends
 * each save, unlock and score with the time it happened. The account shows it wherever it shows
 * progress (the profile, /api/me/games, the admin's user page), with those times, not the time
 * it was kept. A guest has no play sessions, so there may be no playtime row at all.
 */

let app: TestApp;
let admin: TestClient;

beforeAll(async () => {
  // a board of its own per test: a database of its own (boards per game are limited)
  app = await startIsolatedTestApp();
  admin = (await signedInClient(app, 'admin')).client;
});
afterAll(async () => {
  await app.stop();
});

const GAME = 'TopDownRogueLike';
const DAY = 24 * 60 * 60_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();

async function profileOf(client: TestClient): Promise<Profile> {
  const response = await client.get('/api/user/profile');
  expect(response.status).toBe(200);
  return Profile.parse(response.body);
}

async function myGames(client: TestClient) {
  const response = await client.get('/api/me/games');
  expect(response.status).toBe(200);
  return MyGamesResponse.parse(response.body).games;
}

/** A board defined 30 days ago, so a guest's score of a few days ago is after it. */
async function boardOfLastMonth(): Promise<string> {
  const board = `kept-${Math.random().toString(36).slice(2, 8)}`;
  const put = await admin.request('PUT', `/api/admin/games/${GAME}/leaderboards/${board}`, {
    name: 'Kept scores',
    order: 'desc',
    format: 'number',
  });
  expect(put.status, JSON.stringify(put.body)).toBe(201);
  await app.deps.database.db.execute(
    sql`update game_leaderboards set created_at = now() - interval '30 days'
        where game_id = ${GAME} and board = ${board}`,
  );
  return board;
}

describe('progress kept from playing as a guest', () => {
  it('lists a game with only a kept achievement on the profile, with its unlock time', async () => {
    const player = await signedInClient(app);
    const unlockedAt = daysAgo(3);
    const kept = await player.client.post(`/api/games/${GAME}/achievements`, {
      name: 'First Blood',
      unlockedAt,
    });
    expect(kept.status).toBe(201);
    expect(UnlockedAchievement.parse(kept.body)).toEqual({ name: 'First Blood', unlockedAt });

    // the profile's Games Played lists the game (it said "No games played yet")
    const profile = await profileOf(player.client);
    expect(profile.games).toEqual([
      {
        game_id: GAME,
        game_name: 'TopDown RogueLike',
        playtime: 0,
        last_played: null,
      },
    ]);
    expect(profile.achievements).toEqual([
      expect.objectContaining({
        achievement_name: 'First Blood',
        game_id: GAME,
        unlocked_at: unlockedAt,
      }),
    ]);
    expect(await myGames(player.client)).toEqual([
      expect.objectContaining({
        gameId: GAME,
        achievements: [{ name: 'First Blood', unlockedAt }],
      }),
    ]);
    // and the admin's user page under Game Statistics
    const detail = await admin.get(`/api/users/${player.id}`);
    expect(detail.status).toBe(200);
    expect(UserDetail.parse(detail.body).games.map((game) => game.game_id)).toEqual([GAME]);
  });

  it("keeps the first unlock: a guest's earlier one replaces the account's, a later one does not", async () => {
    const player = await signedInClient(app);
    const own = await player.client.post(`/api/games/${GAME}/achievements`, { name: 'Boss' });
    expect(own.status).toBe(201);
    const ownAt = UnlockedAchievement.parse(own.body).unlockedAt;

    const earlier = daysAgo(2);
    const first = await player.client.post(`/api/games/${GAME}/achievements`, {
      name: 'Boss',
      unlockedAt: earlier,
    });
    expect(first.status).toBe(200);
    expect(UnlockedAchievement.parse(first.body).unlockedAt).toBe(earlier);

    const later = await player.client.post(`/api/games/${GAME}/achievements`, {
      name: 'Boss',
      unlockedAt: daysAgo(1),
    });
    expect(UnlockedAchievement.parse(later.body).unlockedAt).toBe(earlier);
    expect(Date.parse(ownAt)).toBeGreaterThan(Date.parse(earlier));
    const [record] = await myGames(player.client);
    expect(record?.achievements).toEqual([{ name: 'Boss', unlockedAt: earlier }]);
  });

  it('takes a time after the server clock as now (a browser clock that runs ahead)', async () => {
    const player = await signedInClient(app);
    const before = Date.now();
    const response = await player.client.post(`/api/games/${GAME}/achievements`, {
      name: 'From the future',
      unlockedAt: new Date(before + 2 * DAY).toISOString(),
    });
    expect(response.status).toBe(201);
    const at = Date.parse(UnlockedAchievement.parse(response.body).unlockedAt);
    expect(at).toBeGreaterThanOrEqual(before - 1000);
    expect(at).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it('keeps a save with the time the guest saved it, in slot 0 and in other slots', async () => {
    const player = await signedInClient(app);
    const savedAt = daysAgo(5);
    const slot3 = await player.client.request('PUT', `/api/games/${GAME}/save?slot=3`, {
      data: { floor: 3 },
      updatedAt: savedAt,
    });
    expect(slot3.status).toBe(200);
    expect(slot3.body).toEqual({ data: { floor: 3 }, updatedAt: savedAt });
    // a save in slot 3 alone is a game with progress, and a save
    expect(await myGames(player.client)).toEqual([
      expect.objectContaining({ gameId: GAME, hasSave: true }),
    ]);
    expect((await profileOf(player.client)).games.map((game) => game.game_id)).toEqual([GAME]);

    const slot0 = await player.client.request('PUT', `/api/games/${GAME}/save`, {
      data: { floor: 1 },
      updatedAt: savedAt,
    });
    expect(slot0.status).toBe(200);
    const loaded = await player.client.get(`/api/games/${GAME}/save`);
    expect(loaded.body).toEqual({ data: { floor: 1 }, updatedAt: savedAt });
    const slots = await player.client.get(`/api/games/${GAME}/saves`);
    expect(slots.body).toEqual({
      slots: [
        { slot: 0, updatedAt: savedAt },
        { slot: 3, updatedAt: savedAt },
      ],
    });
  });

  it("puts a kept score in its own day's period, never before the board existed", async () => {
    const board = await boardOfLastMonth();
    const player = await signedInClient(app);
    const achievedAt = daysAgo(3);
    const kept = await player.client.post(`/api/games/${GAME}/scores`, {
      board,
      value: 4200,
      achievedAt,
    });
    expect(kept.status).toBe(201);
    expect(SubmitScoreResponse.parse(kept.body).best).toMatchObject({ value: 4200, achievedAt });
    // the profile lists the game of a score alone
    expect((await profileOf(player.client)).games.map((game) => game.game_id)).toEqual([GAME]);

    const read = async (period: string) => {
      const response = await app
        .client()
        .get(`/api/games/${GAME}/leaderboards/${board}?period=${period}`);
      expect(response.status).toBe(200);
      return LeaderboardResponse.parse(response.body).entries;
    };
    expect(await read('all')).toEqual([
      expect.objectContaining({ username: player.username, value: 4200, achievedAt }),
    ]);
    // three days ago is not today
    expect(await read('day')).toEqual([]);

    // a time before the board was defined is the board's first moment
    const other = await signedInClient(app);
    const early = await other.client.post(`/api/games/${GAME}/scores`, {
      board,
      value: 10,
      achievedAt: daysAgo(60),
    });
    expect(early.status).toBe(201);
    const [created] = await rowsOf<{ at: string }>(
      app.deps.database.db,
      sql`select to_json(created_at) #>> '{}' as at from game_leaderboards
          where game_id = ${GAME} and board = ${board}`,
    );
    expect(Date.parse(SubmitScoreResponse.parse(early.body).best.achievedAt)).toBe(
      Date.parse(created?.at ?? ''),
    );
  });

  it('refuses a time that is not one with a 400 naming the field', async () => {
    const player = await signedInClient(app);
    const cases: [Promise<{ status: number; body: unknown }>, RegExp][] = [
      [
        player.client.post(`/api/games/${GAME}/achievements`, {
          name: 'x',
          unlockedAt: 'yesterday',
        }),
        /^unlockedAt: must be a date and time/,
      ],
      [
        player.client.request('PUT', `/api/games/${GAME}/save`, { data: 1, updatedAt: 17 }),
        /^updatedAt: /,
      ],
      [
        player.client.post(`/api/games/${GAME}/scores`, {
          board: 'any',
          value: 1,
          achievedAt: '2026-13-01T00:00:00Z',
        }),
        /^achievedAt: must be a date and time/,
      ],
    ];
    for (const [pending, message] of cases) {
      const response = await pending;
      expect(response.status).toBe(400);
      expect((response.body as { error: { message: string } }).error.message).toMatch(message);
    }
    // nothing was recorded
    expect(await myGames(player.client)).toEqual([]);
  });
});
