import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type {
  AdminGameResponse,
  CreateAdminTokenResponse,
  GameAuditResponse,
  GamesResponse,
} from '@portfolio/types/game-host';

import { startTestApp, type TestApp, type TestClient } from '../../test/harness.js';
import { buildPublishedGame, signedInClient } from '../../test/factories.js';

/*
 * How a game is shown: the frame's size, touch support and orientation, set by the
 * admin (session or API token) and read by every visitor from GET /api/games.
 */

let app: TestApp;
let gamesDir: string;
let admin: TestClient;

beforeAll(async () => {
  gamesDir = mkdtempSync(path.join(tmpdir(), 'game-display-test-'));
  app = await startTestApp({
    gamesHost: {
      origin: 'http://games.test.localhost',
      port: 0,
      dir: gamesDir,
      uploadMaxBytes: 1024 * 1024,
      zipMaxFiles: 50,
      zipMaxUnpackedBytes: 2 * 1024 * 1024,
      zipMaxRatio: 200,
    },
  });
  admin = (await signedInClient(app, 'admin')).client;
});

afterAll(async () => {
  await app?.stop();
  rmSync(gamesDir, { recursive: true, force: true });
});

async function cardOf(gameId: string) {
  const response = await app.client().get<GamesResponse>('/api/games');
  expect(response.status).toBe(200);
  return response.body.games.find((game) => game.id === gameId);
}

describe('a game’s frame, touch support and orientation', () => {
  it('starts with the spec’s frame, playable on touch screens, any orientation', async () => {
    const id = await buildPublishedGame(admin);
    expect(await cardOf(id)).toMatchObject({
      frame: { mode: 'default' },
      touch: 'playable',
      orientation: 'any',
    });
  });

  it('seeds Rocket Game and Pong as keyboard-only and WolfScape as playable, all landscape', async () => {
    const games = (await admin.get<GamesResponse>('/api/games')).body.games;
    const byId = new Map(games.map((game) => [game.id, game]));
    expect(byId.get('RocketGame')).toMatchObject({
      touch: 'keyboard-only',
      orientation: 'landscape',
    });
    expect(byId.get('Pong')).toMatchObject({ touch: 'keyboard-only', orientation: 'landscape' });
    expect(byId.get('WolfScape')).toMatchObject({ touch: 'playable', orientation: 'landscape' });
    expect(byId.get('MainQuest2')).toMatchObject({ touch: 'playable', frame: { mode: 'default' } });
  });

  it('is set by PATCH with an admin API token, shown to guests and recorded in the audit log', async () => {
    const id = await buildPublishedGame(admin);
    const created = await admin.post<CreateAdminTokenResponse>('/api/admin/tokens', {
      name: 'display script',
    });
    expect(created.status).toBe(201);
    const bearer = { authorization: `Bearer ${created.body.token}` };
    const patched = await app.client().request<AdminGameResponse>(
      'PATCH',
      `/api/admin/games/${id}`,
      {
        frame: { mode: 'fixed', width: 1200, height: 800 },
        touch: 'keyboard-only',
        orientation: 'landscape',
      },
      bearer,
    );
    expect(patched.status).toBe(200);
    expect(patched.body.game).toMatchObject({
      frame: { mode: 'fixed', width: 1200, height: 800 },
      touch: 'keyboard-only',
      orientation: 'landscape',
    });
    expect(await cardOf(id)).toMatchObject({
      frame: { mode: 'fixed', width: 1200, height: 800 },
      touch: 'keyboard-only',
      orientation: 'landscape',
    });

    // an aspect ratio, then the spec's frame again (no size left behind)
    const aspect = await admin.request<AdminGameResponse>('PATCH', `/api/admin/games/${id}`, {
      frame: { mode: 'aspect', width: 9, height: 16 },
      orientation: 'portrait',
    });
    expect(aspect.status).toBe(200);
    expect((await cardOf(id))?.frame).toEqual({ mode: 'aspect', width: 9, height: 16 });
    const back = await admin.request('PATCH', `/api/admin/games/${id}`, {
      frame: { mode: 'default' },
    });
    expect(back.status).toBe(200);
    expect((await cardOf(id))?.frame).toEqual({ mode: 'default' });

    const audit = await admin.get<GameAuditResponse>(`/api/admin/games/audit?gameId=${id}`);
    const details = audit.body.entries.map((entry) => entry.detail).join('\n');
    // sentences, not raw values
    expect(details).toContain(
      'Frame changed from the standard frame to a fixed 1200 × 800 px frame',
    );
    expect(details).toContain('Touch screens changed from playable to keyboard only');
    expect(details).toContain('Orientation changed from Landscape to Portrait');
  });

  it('is set when a game is added', async () => {
    const id = `D${randomBytes(5).toString('hex')}`;
    const created = await admin.post<AdminGameResponse>('/api/admin/games', {
      id,
      title: 'Added with a size',
      description: '',
      instructions: '',
      section: 'html5',
      access: 'public',
      frame: { mode: 'aspect', width: 4, height: 3 },
      touch: 'keyboard-only',
    });
    expect(created.status).toBe(201);
    expect(created.body.game).toMatchObject({
      frame: { mode: 'aspect', width: 4, height: 3 },
      touch: 'keyboard-only',
      orientation: 'any',
    });
  });

  it('refuses sizes and values it cannot show with a readable 400', async () => {
    const id = await buildPublishedGame(admin);
    const refused = async (body: Record<string, unknown>) => {
      const response = await admin.request<{ error: { message: string } }>(
        'PATCH',
        `/api/admin/games/${id}`,
        body,
      );
      expect(response.status).toBe(400);
      return response.body.error.message;
    };
    expect(await refused({ frame: { mode: 'fixed', width: 0, height: 800 } })).toMatch(
      /frame.*width.*1 or more/,
    );
    expect(await refused({ frame: { mode: 'fixed' } })).toMatch(/frame/);
    expect(await refused({ frame: { mode: 'stretch' } })).toMatch(/frame/);
    expect(await refused({ touch: 'sometimes' })).toMatch(/touch/);
    expect(await refused({ orientation: 'sideways' })).toMatch(/orientation/);
    // a guest or a plain user cannot change it
    expect(
      (await app.client().request('PATCH', `/api/admin/games/${id}`, { touch: 'keyboard-only' }))
        .status,
    ).toBe(401);
    expect((await cardOf(id))?.touch).toBe('playable');
  });
});
