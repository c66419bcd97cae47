import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { VisitorStatsResponse } from '@portfolio/types';

import { startTestApp, type TestApp, type TestClient } from '../../test/harness.js';
import { signedInClient } from '../../test/factories.js';

let app: TestApp;
let clients: Record<Role, TestClient>;
type Role = 'guest' | 'user' | 'subscriber' | 'admin';

beforeAll(async () => {
  app = await startTestApp();
  clients = {
    guest: app.client(),
    user: (await signedInClient(app, 'user')).client,
    subscriber: (await signedInClient(app, 'subscriber')).client,
    admin: (await signedInClient(app, 'admin')).client,
  };
});
afterAll(async () => {
  await app.stop();
});

/** Spec section 6, written out: role × (public, multiplayer, subscriber game). */
const MATRIX: Record<Role, { public: number; multiplayer: number; subscriber: number }> = {
  guest: { public: 200, multiplayer: 403, subscriber: 403 },
  user: { public: 200, multiplayer: 200, subscriber: 403 },
  subscriber: { public: 200, multiplayer: 200, subscriber: 200 },
  admin: { public: 200, multiplayer: 200, subscriber: 200 },
};
const GAMES = { public: 'CoopAdventure', multiplayer: 'RocketGame', subscriber: 'Pong' } as const;

const clicksOf = async (gameId: string) => {
  const response = await clients.admin.get('/api/visitor-stats');
  return VisitorStatsResponse.parse(response.body).gameStats[gameId]?.totalClicks ?? 0;
};

describe('POST /api/track-game-click counts only clicks from players who may open the game', () => {
  for (const kind of ['public', 'multiplayer', 'subscriber'] as const) {
    it(`${kind} game (${GAMES[kind]})`, async () => {
      const before = await clicksOf(GAMES[kind]);
      let counted = 0;
      for (const role of Object.keys(MATRIX) as Role[]) {
        const response = await clients[role].post('/api/track-game-click', {
          gameId: GAMES[kind],
        });
        expect(response.status, role).toBe(MATRIX[role][kind]);
        if (response.status === 403) {
          expect(response.body, role).toMatchObject({ error: { code: 'FORBIDDEN' } });
        } else {
          counted++;
        }
      }
      expect(await clicksOf(GAMES[kind])).toBe(before + counted);
    });
  }
});

describe("Pong's files by role", () => {
  it('go to subscribers and admins only', async () => {
    const expected: Record<Role, number> = { guest: 403, user: 403, subscriber: 200, admin: 200 };
    for (const role of Object.keys(expected) as Role[]) {
      for (const file of ['/games/Pong/', '/games/Pong/index.html', '/games/Pong/pong.js']) {
        const response = await fetch(`${app.url}${file}`, {
          headers: { cookie: clients[role].cookieHeader },
        });
        expect(response.status, `${role} ${file}`).toBe(expected[role]);
      }
    }
  });

  it('the public games and the SDK go to everyone', async () => {
    const files = [
      '/games/sdk.js',
      '/games/TopDownRogueLike/',
      '/games/TopDownRogueLike/roguelike.js',
      '/games/MainQuest2/mainquest.js',
      '/games/CoopAdventure/coop.js',
      '/games/CompMultiplayerUCCS/dogfight.js',
    ];
    for (const role of Object.keys(MATRIX) as Role[]) {
      for (const file of files) {
        const response = await fetch(`${app.url}${file}`, {
          headers: { cookie: clients[role].cookieHeader },
        });
        expect(response.status, `${role} ${file}`).toBe(200);
        expect(response.headers.get('cache-control'), file).not.toContain('private');
      }
    }
  });
});
