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
 */

// Sunday 29 November 2026, 23:50 UTC: the last minutes of an ISO week (and of a day)
let clock = Date.parse('2026-11-29T23:50:00.000Z');
let app: TestApp;
let admin: TestClient;

beforeAll(async () => {
  // boards per game are limited and ranks count every player: a database of its own
  app = await startIsolatedTestApp({}, { now: () => clock });
  admin = (await signedInClient(app, 'admin')).client;
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
