import { sql } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { GameAuditResponse } from '@portfolio/types/game-host';
import {
  AdminLeaderboardScoresResponse,
  LeaderboardResponse,
  LeaderboardsResponse,
  SubmitScoreResponse,
} from '@portfolio/types/leaderboards';

import { startIsolatedTestApp, type TestApp, type TestClient } from '../../test/harness.js';
import { buildBoard, signedInClient } from '../../test/factories.js';
import { SCORE_SUBMIT_LIMIT } from './routes.js';

/*
 * Leaderboards over HTTP on a real database, with the app's clock in the test's hands: periods
 * reset on calendar boundaries in UTC, which the test crosses by moving the clock, not by waiting.
 * Ranks are read from bins of a bucket's scores (and, with REDIS_URL, from Redis sorted sets);
 * this database's bins hold about two players, so a few players already split and merge them.
 */

// Sunday 29 November 2026, 23:50 UTC: the last minutes of an ISO week (and of a day)
let clock = Date.parse('2026-11-29T23:50:00.000Z');
let app: TestApp;
let admin: TestClient;

beforeAll(async () => {
  // boards per game are limited and ranks count every player: a database of its own
  app = await startIsolatedTestApp({}, { now: () => clock });
  admin = (await signedInClient(app, 'admin')).client;
  // bins of about two players (split past four): every board here spans several
  await app.deps.database.db.execute(
    sql.raw(`create or replace function game_score_bin_rows() returns integer
      language plpgsql stable as $$ begin return 2; end $$`),
  );
});
afterAll(async () => {
  await app.stop();
});

/** The demo game whose boards these tests define (each its own): no other test file uses it. */
const GAME = 'TopDownRogueLike';

async function submit(client: TestClient, board: string, value: number) {
  return client.post(`/api/games/${GAME}/scores`, { board, value });
}

async function read(
  client: TestClient,
  board: string,
  query = 'period=all',
): Promise<LeaderboardResponse> {
  const response = await client.get(`/api/games/${GAME}/leaderboards/${board}?${query}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return LeaderboardResponse.parse(response.body);
}

const ranks = (answer: LeaderboardResponse) =>
  answer.entries.map((entry) => [entry.rank, entry.username, entry.value]);

describe('defining boards', () => {
  it('lets an admin define a board that players and guests then see', async () => {
    const board = await buildBoard(admin, GAME, {
      order: 'desc',
      format: 'suffix',
      suffix: 'coins',
      min: 0,
    });
    const listed = await app.client().get(`/api/games/${GAME}/leaderboards`);
    expect(listed.status).toBe(200);
    expect(LeaderboardsResponse.parse(listed.body).leaderboards).toContainEqual({
      gameId: GAME,
      board,
      name: expect.stringMatching(/^Board /) as string,
      order: 'desc',
      format: 'suffix',
      suffix: 'coins',
      min: 0,
      max: null,
    });
    const audit = await admin.get<GameAuditResponse>(`/api/admin/games/audit?gameId=${GAME}`);
    expect(audit.body.entries.map((entry) => entry.detail)).toContainEqual(
      expect.stringContaining(`(${board}) added`),
    );
  });

  it('refuses bad definitions with the field, and non-admins', async () => {
    const cases: [unknown, RegExp][] = [
      [{ order: 'up', format: 'number' }, /^order: /],
      [{ order: 'desc', format: 'suffix' }, /^suffix: is required/],
      [{ order: 'desc', format: 'number', min: 10, max: 5 }, /^max: must be at least min/],
      [{ order: 'desc', format: 'clock' }, /^format: /],
    ];
    for (const [body, message] of cases) {
      const response = await admin.request(
        'PUT',
        `/api/admin/games/${GAME}/leaderboards/bad`,
        body,
      );
      expect(response.status).toBe(400);
      expect((response.body as { error: { message: string } }).error.message).toMatch(message);
    }
    const badKey = await admin.request(
      'PUT',
      `/api/admin/games/${GAME}/leaderboards/${encodeURIComponent('no spaces')}`,
      { order: 'desc', format: 'number' },
    );
    // a malformed key is a validation error, as on the public routes
    expect(badKey.status).toBe(400);
    expect((badKey.body as { error: { message: string } }).error.message).toMatch(/^board: /);
    const unknownGame = await admin.request('PUT', '/api/admin/games/NoSuchGame/leaderboards/x', {
      order: 'desc',
      format: 'number',
    });
    expect(unknownGame.status).toBe(404);
    const { client: player } = await signedInClient(app);
    const refused = await player.request('PUT', `/api/admin/games/${GAME}/leaderboards/x`, {
      order: 'desc',
      format: 'number',
    });
    expect(refused.status).toBe(403);
    expect(
      (await app.client().request('PUT', `/api/admin/games/${GAME}/leaderboards/x`, {})).status,
    ).toBe(401);
  });
});

describe('scores', () => {
  it('keeps each player’s best and ranks higher-is-better boards, ties by who was first', async () => {
    const board = await buildBoard(admin, GAME);
    const alice = await signedInClient(app);
    const bob = await signedInClient(app);
    const carol = await signedInClient(app);
    expect((await submit(alice.client, board, 500)).status).toBe(201);
    clock += 1000;
    expect((await submit(bob.client, board, 700)).status).toBe(201);
    clock += 1000;
    const worse = await submit(alice.client, board, 100);
    expect(SubmitScoreResponse.parse(worse.body)).toMatchObject({
      isBest: false,
      best: { rank: 2, value: 500 },
    });
    clock += 1000;
    expect((await submit(carol.client, board, 500)).status).toBe(201);

    const top = await read(app.client(), board);
    expect(ranks(top)).toEqual([
      [1, bob.username, 700],
      [2, alice.username, 500],
      [3, carol.username, 500],
    ]);
    expect(top.total).toBe(3);

    clock += 1000;
    const better = await submit(carol.client, board, 900);
    expect(SubmitScoreResponse.parse(better.body)).toMatchObject({
      isBest: true,
      best: { rank: 1, value: 900 },
    });
    // the cached top is dropped by a submission
    expect(ranks(await read(app.client(), board))[0]).toEqual([1, carol.username, 900]);
  });

  it('ranks lower-is-better boards and shows times', async () => {
    const board = await buildBoard(admin, GAME, { order: 'asc', format: 'time', min: 1000 });
    const fast = await signedInClient(app);
    const slow = await signedInClient(app);
    await submit(slow.client, board, 95_250);
    await submit(fast.client, board, 62_500);
    const top = await read(app.client(), board);
    expect(top.entries.map((entry) => [entry.username, entry.display])).toEqual([
      [fast.username, '1:02.500'],
      [slow.username, '1:35.250'],
    ]);
  });

  it('refuses scores outside the board’s range, guests, bad bodies and unknown boards', async () => {
    const board = await buildBoard(admin, GAME, {
      order: 'desc',
      format: 'number',
      min: 0,
      max: 1000,
    });
    const { client } = await signedInClient(app);
    const tooHigh = await submit(client, board, 1001);
    expect(tooHigh.status).toBe(422);
    expect(tooHigh.body).toMatchObject({
      error: {
        code: 'SCORE_OUT_OF_RANGE',
        message: expect.stringContaining('must be from 0 to 1,000') as string,
      },
    });
    expect((await submit(client, board, -1)).status).toBe(422);
    expect((await submit(app.client(), board, 10)).status).toBe(401);
    const notANumber = await client.post(`/api/games/${GAME}/scores`, { board, value: '12' });
    expect(notANumber.status).toBe(400);
    expect(notANumber.body).toMatchObject({ error: { message: /^value: / } });
    expect((await submit(client, 'no-such-board', 1)).status).toBe(404);
    expect((await client.post('/api/games/NoSuchGame/scores', { board, value: 1 })).status).toBe(
      404,
    );
    expect((await read(app.client(), board)).entries).toEqual([]);
  });

  it('refuses too frequent scores from one player with 429', async () => {
    const board = await buildBoard(admin, GAME);
    const { client } = await signedInClient(app);
    const statuses: number[] = [];
    for (let index = 0; index <= SCORE_SUBMIT_LIMIT.limit; index += 1) {
      statuses.push((await submit(client, board, index)).status);
    }
    expect(statuses.slice(0, SCORE_SUBMIT_LIMIT.limit).every((status) => status === 201)).toBe(
      true,
    );
    const last = await submit(client, board, 99);
    expect(last.status).toBe(429);
    expect(last.headers.get('retry-after')).toMatch(/^\d+$/);
    // another player is not slowed by it
    const other = await signedInClient(app);
    expect((await submit(other.client, board, 5)).status).toBe(201);
  });

  it('shows the rows around a signed-in player with their rank', async () => {
    const board = await buildBoard(admin, GAME);
    const players = [];
    for (let index = 0; index < 7; index += 1) {
      const player = await signedInClient(app);
      await submit(player.client, board, (index + 1) * 10);
      players.push(player);
    }
    // values 10…70: the player with 30 is 5th of 7
    const me = players[2];
    if (!me) {
      throw new Error('no player');
    }
    const around = await read(me.client, board, 'period=all&around=me&limit=3');
    expect(around.me).toMatchObject({ rank: 5, username: me.username, value: 30 });
    expect(around.entries.map((entry) => [entry.rank, entry.value])).toEqual([
      [4, 40],
      [5, 30],
      [6, 20],
    ]);
    // a guest asking for around=me gets the top
    const guest = await read(app.client(), board, 'period=all&around=me&limit=2');
    expect(guest.me).toBeNull();
    expect(guest.entries.map((entry) => entry.value)).toEqual([70, 60]);
    const bad = await app.client().get(`/api/games/${GAME}/leaderboards/${board}?period=year`);
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { message: /^period: / } });
  });
});

describe('periods', () => {
  it('resets the day and the week at midnight UTC on Monday; month and all time keep the score', async () => {
    clock = Date.parse('2026-11-29T23:55:00.000Z'); // Sunday
    const board = await buildBoard(admin, GAME);
    const sunday = await signedInClient(app);
    const monday = await signedInClient(app);
    await submit(sunday.client, board, 300);
    for (const period of ['day', 'week', 'month', 'all']) {
      expect(ranks(await read(app.client(), board, `period=${period}`))).toEqual([
        [1, sunday.username, 300],
      ]);
    }

    clock = Date.parse('2026-11-30T00:05:00.000Z'); // Monday: a new day and ISO week, same month
    await submit(monday.client, board, 100);
    const day = await read(app.client(), board, 'period=day');
    expect(day.periodStart).toBe('2026-11-30');
    expect(ranks(day)).toEqual([[1, monday.username, 100]]);
    const week = await read(app.client(), board, 'period=week');
    expect(week.periodStart).toBe('2026-11-30');
    expect(ranks(week)).toEqual([[1, monday.username, 100]]);
    expect(ranks(await read(app.client(), board, 'period=month'))).toEqual([
      [1, sunday.username, 300],
      [2, monday.username, 100],
    ]);
    // a lower score on Monday counts for Monday's day and week, not for all time
    await submit(sunday.client, board, 50);
    expect(ranks(await read(app.client(), board, 'period=week'))).toEqual([
      [1, monday.username, 100],
      [2, sunday.username, 50],
    ]);
    expect(ranks(await read(app.client(), board, 'period=all'))[0]).toEqual([
      1,
      sunday.username,
      300,
    ]);

    clock = Date.parse('2026-12-01T00:00:00.000Z'); // a new month
    expect((await read(app.client(), board, 'period=month')).entries).toEqual([]);
    expect((await read(app.client(), board, 'period=week')).entries).toHaveLength(2);
  });
});

describe('what a board shows of its players', () => {
  it('names players without their user ids, marks your own row, and gives the admin the ids', async () => {
    const board = await buildBoard(admin, GAME);
    const first = await signedInClient(app);
    const second = await signedInClient(app);
    await submit(first.client, board, 20);
    const submitted = await submit(second.client, board, 10);
    expect(submitted.status).toBe(201);
    expect(JSON.stringify(submitted.body)).not.toContain(second.id);
    expect(SubmitScoreResponse.parse(submitted.body).best).toMatchObject({ rank: 2, you: true });

    const path = `/api/games/${GAME}/leaderboards/${board}`;
    for (const [client, query] of [
      [app.client(), 'period=all'],
      [first.client, 'period=all'],
      [second.client, 'period=all&around=me'],
    ] as const) {
      const response = await client.get(`${path}?${query}`);
      expect(response.status).toBe(200);
      const text = JSON.stringify(response.body);
      expect(text).not.toContain('userId');
      expect(text).not.toContain(first.id);
      expect(text).not.toContain(second.id);
    }
    const asGuest = await read(app.client(), board);
    expect(asGuest.entries.map((entry) => entry.you)).toEqual([undefined, undefined]);
    const asFirst = await read(first.client, board);
    expect(asFirst.entries.map((entry) => [entry.username, entry.you])).toEqual([
      [first.username, true],
      [second.username, undefined],
    ]);
    const aroundSecond = await read(second.client, board, 'period=all&around=me');
    expect(aroundSecond.me).toMatchObject({ username: second.username, rank: 2, you: true });

    const scores = await admin.get<AdminLeaderboardScoresResponse>(
      `/api/admin/games/${GAME}/leaderboards/${board}/scores?limit=10`,
    );
    expect(scores.status).toBe(200);
    expect(
      AdminLeaderboardScoresResponse.parse(scores.body).entries.map((entry) => [
        entry.rank,
        entry.userId,
        entry.username,
      ]),
    ).toEqual([
      [1, first.id, first.username],
      [2, second.id, second.username],
    ]);
    expect(
      (await first.client.get(`/api/admin/games/${GAME}/leaderboards/${board}/scores`)).status,
    ).toBe(403);
    const badLimit = await admin.get<{ error: { message: string } }>(
      `/api/admin/games/${GAME}/leaderboards/${board}/scores?limit=1000`,
    );
    expect(badLimit.status).toBe(400);
    expect(badLimit.body.error.message).toMatch(/limit: must be at most 100/);
  });
});

describe('moderation', () => {
  it('lets an admin remove a score and ban a player from a board, audited', async () => {
    const board = await buildBoard(admin, GAME);
    const cheater = await signedInClient(app);
    const honest = await signedInClient(app);
    await submit(cheater.client, board, 999);
    await submit(honest.client, board, 10);

    const removed = await admin.delete(
      `/api/admin/games/${GAME}/leaderboards/${board}/scores/${cheater.id}`,
    );
    expect(removed.status).toBe(204);
    expect(ranks(await read(app.client(), board))).toEqual([[1, honest.username, 10]]);

    await submit(cheater.client, board, 998);
    const banned = await admin.post(`/api/admin/games/${GAME}/leaderboards/${board}/bans`, {
      userId: cheater.id,
    });
    expect(banned.status).toBe(204);
    expect(ranks(await read(app.client(), board))).toEqual([[1, honest.username, 10]]);
    const refused = await submit(cheater.client, board, 5);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: { code: 'BANNED_FROM_LEADERBOARD' } });
    const bans = await admin.get<{ bans: Array<{ username: string }> }>(
      `/api/admin/games/${GAME}/leaderboards/${board}/bans`,
    );
    expect(bans.body.bans.map((ban) => ban.username)).toEqual([cheater.username]);

    const unbanned = await admin.delete(
      `/api/admin/games/${GAME}/leaderboards/${board}/bans/${cheater.id}`,
    );
    expect(unbanned.status).toBe(204);
    expect((await submit(cheater.client, board, 5)).status).toBe(201);

    const audit = await admin.get<GameAuditResponse>(`/api/admin/games/audit?gameId=${GAME}`);
    const details = audit.body.entries.map((entry) => entry.detail);
    expect(details).toContainEqual(`Score of ${cheater.username} removed from 'Board ${board}'`);
    expect(details).toContainEqual(
      `${cheater.username} banned from 'Board ${board}' (scores removed)`,
    );
    expect(
      audit.body.entries.filter((entry) => entry.action === 'player-unban').length,
    ).toBeGreaterThan(0);

    const player = await signedInClient(app);
    expect(
      (
        await player.client.post(`/api/admin/games/${GAME}/leaderboards/${board}/bans`, {
          userId: cheater.id,
        })
      ).status,
    ).toBe(403);
  });

  it('deletes a board with its scores', async () => {
    const board = await buildBoard(admin, GAME);
    const { client } = await signedInClient(app);
    await submit(client, board, 1);
    expect((await admin.delete(`/api/admin/games/${GAME}/leaderboards/${board}`)).status).toBe(204);
    expect((await app.client().get(`/api/games/${GAME}/leaderboards/${board}`)).status).toBe(404);
    expect((await submit(client, board, 1)).status).toBe(404);
  });
});

/** The signed-in player's rank in a period (around=me), or null without a score there. */
async function rankOf(client: TestClient, board: string, period = 'all') {
  return (await read(client, board, `period=${period}&around=me&limit=1`)).me?.rank ?? null;
}

/** Every player's own rank, as each of them reads it, in the order given. */
async function ranksOf(players: Array<{ client: TestClient }>, board: string, period = 'all') {
  const answers = [];
  for (const player of players) {
    answers.push(await rankOf(player.client, board, period));
  }
  return answers;
}

/** The list's item at `index` (a test's own list: always there). */
function nth<T>(list: readonly T[], index: number): T {
  const item = list[index];
  if (item === undefined) {
    throw new Error(`no item ${index}`);
  }
  return item;
}

async function newPlayers(count: number) {
  const players = [];
  for (let index = 0; index < count; index += 1) {
    players.push(await signedInClient(app));
  }
  return players;
}

describe('ranks', () => {
  it('ranks ties by who reached the score first, however many players sit between', async () => {
    clock = Date.parse('2026-12-02T10:00:00.000Z');
    const board = await buildBoard(admin, GAME, { order: 'desc', format: 'number' });
    const players = await newPlayers(9);
    const values = [40, 50, 40, 30, 40, 40, 20, 40, 50];
    for (const [index, player] of players.entries()) {
      clock += 1000;
      expect((await submit(player.client, board, values[index] ?? 0)).status).toBe(201);
    }
    // 50 (2nd, 9th), then the 40s in the order they came, then 30 and 20
    expect(await ranksOf(players, board)).toEqual([3, 1, 4, 8, 5, 6, 9, 7, 2]);
    const viewer = (await signedInClient(app)).client;
    const top = await read(viewer, board, 'period=all&limit=20');
    expect(top.total).toBe(9);
    expect(top.entries.map((entry) => entry.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(top.entries.map((entry) => entry.username)).toEqual(
      [1, 8, 0, 2, 4, 5, 7, 3, 6].map((index) => players[index]?.username),
    );

    // the 20 becomes a 40, reached last of the 40s
    clock += 1000;
    const caughtUp = await submit(nth(players, 6).client, board, 40);
    expect(SubmitScoreResponse.parse(caughtUp.body).best).toMatchObject({ rank: 8, value: 40 });
    expect(await ranksOf(players, board)).toEqual([3, 1, 4, 9, 5, 6, 8, 7, 2]);
    // the same 30 again keeps the earlier time and the rank
    clock += 1000;
    const again = await submit(nth(players, 3).client, board, 30);
    expect(SubmitScoreResponse.parse(again.body)).toMatchObject({
      isBest: false,
      best: { rank: 9, value: 30 },
    });
    // a 45 passes every 40
    clock += 1000;
    await submit(nth(players, 7).client, board, 45);
    expect(await ranksOf(players, board)).toEqual([4, 1, 5, 9, 6, 7, 8, 3, 2]);
  });

  it('ranks a period by its own scores: a new week starts every player again', async () => {
    clock = Date.parse('2026-12-06T12:00:00.000Z'); // Sunday
    const board = await buildBoard(admin, GAME, { order: 'desc', format: 'number' });
    const players = await newPlayers(3);
    const [early, late, steady] = [nth(players, 0), nth(players, 1), nth(players, 2)];
    await submit(early.client, board, 300);
    clock += 1000;
    await submit(late.client, board, 200);
    clock += 1000;
    await submit(steady.client, board, 250);
    expect(await ranksOf([early, late, steady], board, 'week')).toEqual([1, 3, 2]);

    clock = Date.parse('2026-12-07T09:00:00.000Z'); // Monday: a new day and ISO week
    await submit(late.client, board, 260);
    clock += 1000;
    await submit(steady.client, board, 100);
    expect(await ranksOf([early, late, steady], board, 'week')).toEqual([null, 1, 2]);
    expect(await ranksOf([early, late, steady], board, 'day')).toEqual([null, 1, 2]);
    // December keeps Sunday's scores: 300, 260, 250
    expect(await ranksOf([early, late, steady], board, 'month')).toEqual([1, 2, 3]);
    expect(await ranksOf([early, late, steady], board, 'all')).toEqual([1, 2, 3]);
    const viewer = (await signedInClient(app)).client;
    expect((await read(viewer, board, 'period=week')).total).toBe(2);
    expect((await read(viewer, board, 'period=month')).total).toBe(3);
  });

  it('moves the players behind up when a score is removed, a player banned or deleted', async () => {
    clock = Date.parse('2026-12-08T10:00:00.000Z');
    const board = await buildBoard(admin, GAME, { order: 'desc', format: 'number' });
    const players = await newPlayers(6);
    for (const [index, player] of players.entries()) {
      clock += 1000;
      await submit(player.client, board, 60 - index * 10); // 60, 50, … 10
    }
    expect(await ranksOf(players, board)).toEqual([1, 2, 3, 4, 5, 6]);
    const path = `/api/admin/games/${GAME}/leaderboards/${board}`;
    const viewer = (await signedInClient(app)).client;

    expect((await admin.delete(`${path}/scores/${nth(players, 0).id}`)).status).toBe(204);
    expect(await ranksOf(players, board)).toEqual([null, 1, 2, 3, 4, 5]);
    expect(await ranksOf(players, board, 'week')).toEqual([null, 1, 2, 3, 4, 5]);
    expect((await read(viewer, board)).total).toBe(5);

    expect((await admin.post(`${path}/bans`, { userId: nth(players, 1).id })).status).toBe(204);
    expect(await ranksOf(players, board)).toEqual([null, null, 1, 2, 3, 4]);
    expect(await ranksOf(players, board, 'day')).toEqual([null, null, 1, 2, 3, 4]);
    expect((await read(viewer, board)).total).toBe(4);

    expect((await admin.delete(`${path}/bans/${nth(players, 1).id}`)).status).toBe(204);
    clock += 1000;
    const back = await submit(nth(players, 1).client, board, 55);
    expect(SubmitScoreResponse.parse(back.body).best).toMatchObject({ rank: 1, value: 55 });
    expect(await ranksOf(players, board)).toEqual([null, 1, 2, 3, 4, 5]);

    // an account deleted takes its scores with it
    expect((await admin.delete(`/api/users/${nth(players, 3).id}`)).status).toBe(200);
    expect(
      await ranksOf([nth(players, 1), nth(players, 2), nth(players, 4), nth(players, 5)], board),
    ).toEqual([1, 2, 3, 4]);
    expect((await read(viewer, board)).total).toBe(4);
  });

  it('turns the ranks when the board’s order is turned, and back', async () => {
    clock = Date.parse('2026-12-09T10:00:00.000Z');
    const board = await buildBoard(admin, GAME, { order: 'desc', format: 'number' });
    const players = await newPlayers(5);
    for (const [index, player] of players.entries()) {
      clock += 1000;
      await submit(player.client, board, (index + 1) * 10); // 10 … 50
    }
    expect(await ranksOf(players, board)).toEqual([5, 4, 3, 2, 1]);
    const path = `/api/admin/games/${GAME}/leaderboards/${board}`;
    expect((await admin.put(path, { order: 'asc', format: 'number' })).status).toBe(200);
    expect(await ranksOf(players, board)).toEqual([1, 2, 3, 4, 5]);
    clock += 1000;
    await submit(nth(players, 4).client, board, 5); // lower is better now
    expect(await ranksOf(players, board)).toEqual([2, 3, 4, 5, 1]);
    expect((await admin.put(path, { order: 'desc', format: 'number' })).status).toBe(200);
    expect(await ranksOf(players, board)).toEqual([4, 3, 2, 1, 5]);
  });

  it('starts a board deleted and defined again with no players', async () => {
    clock = Date.parse('2026-12-10T10:00:00.000Z');
    const board = await buildBoard(admin, GAME, { order: 'desc', format: 'number' });
    const players = await newPlayers(3);
    for (const [index, player] of players.entries()) {
      await submit(player.client, board, 100 + index);
    }
    expect(await ranksOf(players, board)).toEqual([3, 2, 1]);
    const path = `/api/admin/games/${GAME}/leaderboards/${board}`;
    expect((await admin.delete(path)).status).toBe(204);
    expect((await admin.put(path, { order: 'desc', format: 'number' })).status).toBe(201);
    clock += 1000;
    const first = await submit(nth(players, 0).client, board, 1);
    expect(SubmitScoreResponse.parse(first.body).best).toMatchObject({ rank: 1, value: 1 });
    expect(await ranksOf(players, board)).toEqual([1, null, null]);
    expect((await read(nth(players, 0).client, board)).total).toBe(1);
  });
});

describe.runIf(process.env.REDIS_URL)('ranks with Redis', () => {
  let redis: Redis;
  beforeAll(() => {
    redis = new Redis(process.env.REDIS_URL ?? '');
  });
  afterAll(() => {
    redis.disconnect();
  });

  /** The board's all-time sorted set: its key, and its members (user ids) best first. */
  async function allTimeSet(board: string) {
    const sets = app.deps.leaderboards.sets;
    await sets?.settle();
    const keys = await redis.keys(`${app.deps.config.redisPrefix}:lb:${GAME}:${board}:*:all:*`);
    expect(keys).toHaveLength(1);
    const key = keys[0] ?? '';
    return { key, members: await redis.zrange(key, '0', '-1') };
  }

  it('rebuilds a board’s set from PostgreSQL when it is missing, ranking right meanwhile', async () => {
    clock = Date.parse('2026-12-11T10:00:00.000Z');
    const board = await buildBoard(admin, GAME, { order: 'desc', format: 'number' });
    const players = await newPlayers(5);
    for (const [index, player] of players.entries()) {
      clock += 1000;
      await submit(player.client, board, [30, 50, 30, 10, 40][index] ?? 0);
    }
    // the first rank asked for builds the set
    expect(await ranksOf(players, board)).toEqual([3, 1, 4, 5, 2]);
    const built = await allTimeSet(board);
    expect(built.members).toHaveLength(5);
    expect(built.members[0]).toBe(nth(players, 1).id);

    await redis.del(built.key);
    expect(await ranksOf(players, board)).toEqual([3, 1, 4, 5, 2]);
    const rebuilt = await allTimeSet(board);
    expect(rebuilt.key).toBe(built.key);
    expect(rebuilt.members).toHaveLength(5);
    expect(await redis.zscore(rebuilt.key, nth(players, 4).id)).toBe('-40');

    // writes reach the rebuilt set: a better score, a removal
    clock += 1000;
    await submit(nth(players, 3).client, board, 60);
    expect(await redis.zscore(rebuilt.key, nth(players, 3).id)).toBe('-60');
    await admin.delete(
      `/api/admin/games/${GAME}/leaderboards/${board}/scores/${nth(players, 1).id}`,
    );
    expect(await redis.zscore(rebuilt.key, nth(players, 1).id)).toBeNull();
    expect(await ranksOf(players, board)).toEqual([3, null, 4, 1, 2]);
  });
});
