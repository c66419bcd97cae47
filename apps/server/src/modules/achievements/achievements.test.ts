import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  AdminAchievementsResponse,
  GameAchievementsResponse,
  HIDDEN_ACHIEVEMENT_NAME,
} from '@portfolio/types/achievements';
import { Profile } from '@portfolio/types';
import type { GameAuditResponse } from '@portfolio/types/game-host';

import { startIsolatedTestApp, type TestApp, type TestClient } from '../../test/harness.js';
import { buildAchievement, signedInClient } from '../../test/factories.js';

/*
 * The achievement catalogue over HTTP on a real database: definitions by the admin, unlocks
 * through the SDK's API, what players and guests see, icons, and names from before catalogues.
 */

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

let app: TestApp;
let admin: TestClient;
beforeAll(async () => {
  // the share of players counts every player of the game: a database of its own
  app = await startIsolatedTestApp();
  admin = (await signedInClient(app, 'admin')).client;
});
afterAll(async () => {
  await app.stop();
});

const define = (gameId: string, key: string, body: Record<string, unknown>) =>
  admin.request('PUT', `/api/admin/games/${gameId}/achievements/${encodeURIComponent(key)}`, body);

const unlock = (client: TestClient, gameId: string, name: string) =>
  client.post(`/api/games/${gameId}/achievements`, { name });

async function catalogue(client: TestClient, gameId: string) {
  const response = await client.get(`/api/games/${gameId}/achievements`);
  expect(response.status).toBe(200);
  return GameAchievementsResponse.parse(response.body);
}

describe('a game with a catalogue', () => {
  const GAME = 'MainQuest2';

  it('unlocks only defined achievements and shows each with its share of players', async () => {
    await buildAchievement(admin, GAME, 'first-quest', {
      name: 'First Quest',
      description: 'Finish one',
      points: 10,
    });
    await buildAchievement(admin, GAME, 'secret-room', {
      name: 'Secret Room',
      points: 50,
      hidden: true,
    });

    const alice = await signedInClient(app);
    const bob = await signedInClient(app);
    expect((await unlock(alice.client, GAME, 'first-quest')).status).toBe(201);
    expect((await unlock(alice.client, GAME, 'secret-room')).status).toBe(201);
    // a record of play makes Bob one of the game's players
    await bob.client.post(`/api/games/${GAME}/session`, { action: 'start' });
    const refused = await unlock(bob.client, GAME, 'Not In The Catalogue');
    expect(refused.status).toBe(404);
    expect(refused.body).toMatchObject({ error: { code: 'UNKNOWN_ACHIEVEMENT' } });

    const seenByBob = await catalogue(bob.client, GAME);
    expect(seenByBob.players).toBe(2);
    expect(seenByBob.achievements).toEqual([
      {
        key: 'first-quest',
        name: 'First Quest',
        description: 'Finish one',
        points: 10,
        hidden: false,
        iconUrl: null,
        share: 0.5,
        unlockedAt: null,
      },
      // hidden: no name or key until Bob has it
      {
        key: null,
        name: HIDDEN_ACHIEVEMENT_NAME,
        description: '',
        points: 50,
        hidden: true,
        iconUrl: null,
        share: 0.5,
        unlockedAt: null,
      },
    ]);
    const seenByAlice = await catalogue(alice.client, GAME);
    expect(
      seenByAlice.achievements.map((entry) => [entry.name, Boolean(entry.unlockedAt)]),
    ).toEqual([
      ['First Quest', true],
      ['Secret Room', true],
    ]);
    const seenByGuest = await catalogue(app.client(), GAME);
    expect(seenByGuest.achievements.every((entry) => entry.unlockedAt === null)).toBe(true);
  });

  it('takes an icon uploaded like the thumbnail, serves it, and shows it with the points on the profile', async () => {
    await buildAchievement(admin, GAME, 'iconic', { name: 'Iconic', points: 5 });
    const upload = await fetch(`${app.url}/api/admin/games/${GAME}/achievements/iconic/icon`, {
      method: 'PUT',
      headers: { 'content-type': 'image/png', cookie: admin.cookieHeader },
      body: PNG,
    });
    expect(upload.status).toBe(200);
    const { achievement } = (await upload.json()) as { achievement: { iconUrl: string } };
    expect(achievement.iconUrl).toMatch(
      /^\/api\/games\/MainQuest2\/achievement-icons\/[0-9a-f]{16}\.png\?v=/,
    );
    const icon = await fetch(`${app.url}${achievement.iconUrl}`);
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(await icon.arrayBuffer()).equals(PNG)).toBe(true);

    const wrongType = await fetch(`${app.url}/api/admin/games/${GAME}/achievements/iconic/icon`, {
      method: 'PUT',
      headers: { 'content-type': 'image/jpeg', cookie: admin.cookieHeader },
      body: PNG,
    });
    expect(wrongType.status).toBe(400);
    const notAnImage = await fetch(`${app.url}/api/admin/games/${GAME}/achievements/iconic/icon`, {
      method: 'PUT',
      headers: { 'content-type': 'image/png', cookie: admin.cookieHeader },
      body: 'not an image',
    });
    expect(notAnImage.status).toBe(400);
    const { client: player } = await signedInClient(app);
    const byPlayer = await fetch(`${app.url}/api/admin/games/${GAME}/achievements/iconic/icon`, {
      method: 'PUT',
      headers: { 'content-type': 'image/png', cookie: player.cookieHeader },
      body: PNG,
    });
    expect(byPlayer.status).toBe(403);

    await unlock(player, GAME, 'iconic');
    const profile = await player.get('/api/user/profile');
    const achievements = Profile.parse(profile.body).achievements;
    expect(achievements).toContainEqual(
      expect.objectContaining({
        achievement_name: 'Iconic',
        points: 5,
        icon_url: achievement.iconUrl,
      }),
    );
  });

  it('refuses bad definitions with the field', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ name: '' }, /^name: /],
      [{ name: 'x', points: -1 }, /^points: /],
      [{ name: 'x', points: 1.5 }, /^points: /],
      [{ name: 'x', hidden: 'yes' }, /^hidden: /],
    ];
    for (const [body, message] of cases) {
      const response = await define(GAME, 'bad', body);
      expect(response.status).toBe(400);
      expect((response.body as { error: { message: string } }).error.message).toMatch(message);
    }
  });
});

describe('a game without a catalogue', () => {
  const GAME = 'TopDownRogueLike';

  it('keeps free-form names, which the admin sees as undefined and can adopt', async () => {
    const { client } = await signedInClient(app);
    expect((await unlock(client, GAME, 'Boss Slayer')).status).toBe(201);
    expect((await catalogue(client, GAME)).achievements).toEqual([]);

    const view = await admin.get(`/api/admin/games/${GAME}/achievements`);
    expect(AdminAchievementsResponse.parse(view.body).undefined).toContainEqual({
      key: 'Boss Slayer',
      players: 1,
    });

    expect((await define(GAME, 'Boss Slayer', { name: 'Boss Slayer', points: 25 })).status).toBe(
      201,
    );
    const adopted = AdminAchievementsResponse.parse(
      (await admin.get(`/api/admin/games/${GAME}/achievements`)).body,
    );
    expect(adopted.undefined).toEqual([]);
    expect(adopted.achievements).toContainEqual(
      expect.objectContaining({ key: 'Boss Slayer', points: 25, players: 1 }),
    );
    // the player's earlier unlock counts in the catalogue
    const mine = await catalogue(client, GAME);
    expect(mine.achievements[0]).toMatchObject({ name: 'Boss Slayer', points: 25 });
    expect(mine.achievements[0]?.unlockedAt).not.toBeNull();

    const audit = await admin.get<GameAuditResponse>(`/api/admin/games/audit?gameId=${GAME}`);
    expect(audit.body.entries.map((entry) => entry.action)).toContain('achievement-save');

    expect(
      (
        await admin.delete(
          `/api/admin/games/${GAME}/achievements/${encodeURIComponent('Boss Slayer')}`,
        )
      ).status,
    ).toBe(204);
  });
});
