import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { GamesResponse } from '@portfolio/types/game-host';

import { freePort } from '../../test/ports.js';
import { startTestApp, type TestApp } from '../../test/harness.js';

/*
 * Browsers keep cookies per host name, so the site opened at localhost and a reset link to
 * 127.0.0.1 (or the reverse) are two sessions: pages asked for at the other loopback name of
 * the site's port go to the origin mail links use. The API, files and the games origin (which
 * lives on the other name on purpose) answer where they are asked.
 */

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A request with exactly this Host header (fetch would not let a test set it). */
function rawRequest(
  method: 'GET' | 'HEAD' | 'POST',
  url: string,
  host: string,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers: { ...headers, host } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const INDEX_HTML =
  '<!doctype html><html lang="en"><head><title>Template</title></head><body><div id="root"></div></body></html>';

let webDist: string;
beforeAll(() => {
  webDist = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
  writeFileSync(path.join(webDist, 'index.html'), INDEX_HTML);
});
afterAll(() => {
  rmSync(webDist, { recursive: true, force: true });
});

describe('without PUBLIC_ORIGIN: the address the process listens on (127.0.0.1)', () => {
  let app: TestApp;
  let port: string;
  beforeAll(async () => {
    app = await startTestApp({ webDistDir: webDist });
    port = new URL(app.url).port;
  });
  afterAll(async () => {
    await app.stop();
  });

  it('sends a page asked for at localhost to 127.0.0.1, path and query kept', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await rawRequest(
        method,
        `${app.url}/Gallery?project=tanks`,
        `localhost:${port}`,
        { accept: 'text/html' },
      );
      expect(res.status, method).toBe(302);
      expect(res.headers.location, method).toBe(`http://127.0.0.1:${port}/Gallery?project=tanks`);
    }
    const deep = await rawRequest('GET', `${app.url}/reset-password`, `localhost:${port}`);
    expect(deep.headers.location).toBe(`http://127.0.0.1:${port}/reset-password`);
  });

  it('serves the page itself at 127.0.0.1', async () => {
    const res = await rawRequest('GET', `${app.url}/Gallery`, `127.0.0.1:${port}`);
    expect(res.status).toBe(200);
    expect(res.body).toContain('<div id="root">');
  });

  it('answers the API, sign-in and files at localhost without a redirect', async () => {
    const health = await rawRequest('GET', `${app.url}/api/health`, `localhost:${port}`);
    expect(health.status).toBe(200);
    const user = await rawRequest('GET', `${app.url}/api/auth/current-user`, `localhost:${port}`);
    expect(user.status).toBe(200);
    expect(JSON.parse(user.body)).toEqual({ user: null });
    const robots = await rawRequest('GET', `${app.url}/robots.txt`, `localhost:${port}`);
    expect(robots.status).toBe(200);
    const missingFile = await rawRequest('GET', `${app.url}/missing.png`, `localhost:${port}`);
    expect(missingFile.status).toBe(404);
  });

  it('leaves another host name alone: only the other loopback name is redirected', async () => {
    const res = await rawRequest('GET', `${app.url}/Gallery`, `portfolio.test:${port}`);
    expect(res.status).toBe(200);
    // and another port on localhost (a proxy in front) is not this origin's alias
    const proxied = await rawRequest('GET', `${app.url}/Gallery`, 'localhost:8080');
    expect(proxied.status).toBe(200);
  });

  it('still serves games on the games origin at localhost', async () => {
    const catalogue = GamesResponse.parse(
      JSON.parse((await rawRequest('GET', `${app.url}/api/games`, `127.0.0.1:${port}`)).body),
    );
    const hosted = catalogue.games.find((game) => game.playUrl?.startsWith('http://localhost:'));
    if (!hosted?.playUrl) {
      throw new Error('no game on the games origin');
    }
    const playUrl = new URL(hosted.playUrl);
    expect(playUrl.port).toBe(new URL(app.gamesUrl).port);
    const page = await rawRequest(
      'GET',
      `${app.gamesUrl}${playUrl.pathname}${playUrl.search}`,
      playUrl.host,
    );
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    const sdk = await rawRequest('GET', `${app.gamesUrl}/sdk.js`, playUrl.host);
    expect(sdk.status).toBe(200);
  });
});

describe('with PUBLIC_ORIGIN on localhost', () => {
  let app: TestApp;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    app = await startTestApp({
      webDistDir: webDist,
      port,
      publicOrigin: `http://localhost:${port}`,
    });
  });
  afterAll(async () => {
    await app.stop();
  });

  it('sends a page asked for at 127.0.0.1 or [::1] to localhost', async () => {
    for (const host of [`127.0.0.1:${port}`, `[::1]:${port}`]) {
      const res = await rawRequest('GET', `${app.url}/devlog?page=2`, host);
      expect(res.status, host).toBe(302);
      expect(res.headers.location, host).toBe(`http://localhost:${port}/devlog?page=2`);
    }
    const home = await rawRequest('GET', `${app.url}/`, `localhost:${port}`);
    expect(home.status).toBe(200);
  });
});
