import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ApiError } from '@portfolio/types';

import { type ErrorApp, startErrorApp } from '../test/error-app.js';
import { startTestApp, type TestApp } from '../test/harness.js';
import { captureLogs } from './logger.js';

/** Status and error body, with the rule every client error must keep: a readable sentence. */
function expectClientError(
  response: { status: number; body: unknown; headers: Headers },
  status: number,
) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/application\/json/);
  const body = response.body as ApiError;
  expect(body.error.code).toMatch(/^[A-Z_]+$/);
  expect(body.error.message).toMatch(/^[A-Z].* .*\.$/);
  return body.error;
}

describe('bad input to the real app is a client error, never a 500', () => {
  let app: TestApp;
  beforeAll(async () => {
    // a built web app, so the client-side route fallback is there
    const webDist = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
    writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><title>app</title>');
    app = await startTestApp({ webDistDir: webDist });
  });
  afterAll(async () => {
    await app.stop();
  });

  it('answers a body that claims gzip but is not with 400', async () => {
    const log = captureLogs();
    try {
      const response = await app
        .client()
        .post('/api/auth/login', 'x', { 'content-encoding': 'gzip' });
      expect(expectClientError(response, 400).message).toBe(
        'The request body could not be decompressed.',
      );
      expect(log.linesAtLeast('error')).toEqual([]);
    } finally {
      log.restore();
    }
  });

  it('still reads a body that really is gzip', async () => {
    const response = await fetch(`${app.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
      body: gzipSync(JSON.stringify({ username: 'nobody_here', password: 'wrong password' })),
    });
    expect(response.status).toBe(401);
  });

  it('answers an unsupported content encoding with 415', async () => {
    const response = await app
      .client()
      .post('/api/auth/login', '{}', { 'content-encoding': 'compress' });
    expectClientError(response, 415);
  });

  it.each(['/%E0%A4%A', '/games/%E0%A4%A', '/%', '/api/auth/%E0%A4%A'])(
    'answers a malformed percent-encoding in %s with 400 or 404',
    async (url) => {
      const log = captureLogs();
      try {
        const response = await app.client().get(url);
        expect(response.status, url).toBeGreaterThanOrEqual(400);
        expect(response.status, url).toBeLessThan(500);
        expect(log.linesAtLeast('error')).toEqual([]);
      } finally {
        log.restore();
      }
    },
  );

  it('answers the malformed address of a page with 400 and says why', async () => {
    const response = await app.client().get('/%E0%A4%A');
    expect(expectClientError(response, 400).message).toBe(
      'The address contains an invalid percent-encoding.',
    );
  });
});

describe('errors from other middleware', () => {
  let errorApp: ErrorApp;
  beforeAll(async () => {
    errorApp = await startErrorApp((app) => {
      const fail = (error: unknown) => () => {
        throw error;
      };
      app.get('/status-418', fail(Object.assign(new Error('short and stout'), { status: 418 })));
      app.get('/status-code-404', fail(Object.assign(new Error('nothing'), { statusCode: 404 })));
      app.get('/status-503', fail(Object.assign(new Error('internal detail'), { status: 503 })));
      // how drizzle wraps the driver errors for text PostgreSQL cannot store
      const pgError = (code: string) =>
        new Error('Failed query: update "users" ...', {
          cause: Object.assign(new Error('invalid byte sequence for encoding "UTF8": 0x00'), {
            code,
          }),
        });
      app.get('/pg-22021', fail(pgError('22021')));
      app.get('/pg-22P05', fail(pgError('22P05')));
      app.get('/pg-22P02', fail(pgError('22P02')));
    });
  });
  afterAll(() => errorApp.close());
  const get = (path: string) => errorApp.get(path);

  it('keeps any 4xx status an error carries, with a readable message', async () => {
    expectClientError(await get('/status-418'), 418);
    expect(expectClientError(await get('/status-code-404'), 404).code).toBe('NOT_FOUND');
  });

  it('does not trust a 5xx status from elsewhere: a logged, generic 500', async () => {
    const log = captureLogs();
    try {
      const response = await get('/status-503');
      expect(response.status).toBe(500);
      expect(JSON.stringify(response.body)).not.toContain('internal detail');
      expect(log.linesAtLeast('error')).not.toEqual([]);
    } finally {
      log.restore();
    }
  });

  it.each(['22021', '22P05', '22P02'])(
    'answers PostgreSQL error %s (a value it cannot take) with 400',
    async (code) => {
      expectClientError(await get(`/pg-${code}`), 400);
    },
  );
});
