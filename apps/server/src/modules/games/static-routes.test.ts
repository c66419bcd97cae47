import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestApp, type TestApp } from '../../test/harness.js';
import { signedInClient } from '../../test/factories.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.stop();
});

describe('the game folders', () => {
  it('serves the SDK as JavaScript, at /sdk.js (where games include it) and /games/sdk.js', async () => {
    for (const path of ['/sdk.js', '/games/sdk.js']) {
      const response = await fetch(`${app.url}${path}`);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type'), path).toMatch(/javascript/);
      expect(await response.text(), path).toContain('window.GameSDK');
    }
  });

  it('answers 404 with the API error body for a missing file, folder or game', async () => {
    for (const path of [
      '/games/TopDownRogueLike/nope.png',
      '/games/NoSuchGame/index.html',
      '/games/TopDownRogueLike/..%2F..%2Fsdk.js',
      '/games/sdk.js.map',
    ]) {
      const response = await fetch(`${app.url}${path}`, { headers: { accept: 'text/html' } });
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type'), path).toMatch(/json/);
    }
  });

  it('redirects a game folder without its trailing slash', async () => {
    const { client } = await signedInClient(app, 'admin');
    const response = await fetch(`${app.url}/games/Pong?x=1`, {
      redirect: 'manual',
      headers: { cookie: client.cookieHeader },
    });
    expect(response.status).toBe(301);
    expect(response.headers.get('location')).toBe('/games/Pong/?x=1');
  });
});

describe('Pong (a subscriber game)', () => {
  const pongIndex = (cookie?: string) =>
    fetch(`${app.url}/games/Pong/`, { headers: cookie ? { cookie } : {} });

  it('is refused to guests and users with 403', async () => {
    expect((await pongIndex()).status).toBe(403);
    const { client } = await signedInClient(app, 'user');
    const response = await fetch(`${app.url}/games/Pong/pong.js`, {
      headers: { cookie: client.cookieHeader },
    });
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
  });

  it('is served to subscribers and admins, never from shared caches', async () => {
    for (const role of ['subscriber', 'admin'] as const) {
      const { client } = await signedInClient(app, role);
      const response = await pongIndex(client.cookieHeader);
      expect(response.status, role).toBe(200);
      expect(response.headers.get('cache-control'), role).toBe('private, no-cache');
      expect(await response.text()).toContain('<script src="/sdk.js">');
    }
  });
});
