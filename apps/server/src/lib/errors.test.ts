import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';

import type { ApiError } from '@portfolio/types';

import { type ErrorApp, startErrorApp } from '../test/error-app.js';
import { startTestApp, type TestApp } from '../test/harness.js';
import { conflict, tooManyRequests } from './errors.js';
import { captureLogs } from './logger.js';
import { requestLogging } from './request-log.js';

describe('errorHandler', () => {
  let errorApp: ErrorApp;
  beforeAll(async () => {
    errorApp = await startErrorApp((app) => {
      app.use(requestLogging());
      app.get('/zod', () => {
        z.object({ profile: z.object({ email: z.string().min(3, 'is too short') }) }).parse({
          profile: { email: 'x' },
        });
      });
      app.get('/unique', () => {
        // how drizzle wraps a driver error: the Postgres error is the cause
        const driverError = Object.assign(
          new Error('duplicate key value violates unique constraint "users_username_lower_idx"'),
          {
            code: '23505',
            constraint: 'users_username_lower_idx',
          },
        );
        throw new Error('Failed query: insert into "users" ...', { cause: driverError });
      });
      app.get('/conflict', () => {
        throw conflict('That username is already taken');
      });
      app.get('/limited', () => {
        throw tooManyRequests('Slow down', 42);
      });
      app.get('/bug', () => {
        throw new Error('secret internal detail');
      });
    });
  });
  afterAll(() => errorApp.close());
  const get = (path: string) => errorApp.get(path);

  it('turns a zod error into 400 with the first issue as `field: message`', async () => {
    expect(await get('/zod')).toMatchObject({
      status: 400,
      body: { error: { code: 'BAD_REQUEST', message: 'profile.email: is too short' } },
    });
  });

  it('turns a unique violation behind a driver wrapper into 409', async () => {
    expect(await get('/unique')).toMatchObject({
      status: 409,
      body: { error: { code: 'CONFLICT' } },
    });
  });

  it('keeps the status, message and headers of an HttpError', async () => {
    expect(await get('/conflict')).toMatchObject({
      status: 409,
      body: { error: { code: 'CONFLICT', message: 'That username is already taken' } },
    });
    const limited = await get('/limited');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('42');
  });

  it('answers anything else with a generic 500 that leaks nothing, and logs it with the request id', async () => {
    const logs = captureLogs();
    const response = await get('/bug');
    logs.restore();
    expect(response.status).toBe(500);
    expect(response.body.error.code).toBe('INTERNAL');
    expect(JSON.stringify(response.body)).not.toContain('secret internal detail');
    const id = response.headers.get('x-request-id');
    // the handler's error (with its stack) and the request's own line, both naming the request
    const failure = logs.lines().find((line) => line.msg === 'GET /bug failed');
    expect(failure).toMatchObject({ level: 50, module: 'http', reqId: id });
    expect(failure?.err).toMatchObject({ message: 'secret internal detail' });
    const answered = logs.lines().find((line) => line.msg === 'GET /bug 500');
    expect(answered).toMatchObject({ level: 50, reqId: id });
  });
});

describe('API error answers of the real app', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.stop();
  });

  it('answers an unknown API route with a 404 JSON error', async () => {
    for (const method of ['GET', 'POST', 'DELETE']) {
      const response = await app.client().request<ApiError>(method, '/api/no-such-route');
      expect(response.status, method).toBe(404);
      expect(response.headers.get('content-type')).toMatch(/application\/json/);
      expect(response.body.error.code).toBe('NOT_FOUND');
    }
  });

  it('answers any method on a path no route serves with a 404 JSON error, HEAD without a body', async () => {
    const { request } = await import('node:http');
    const send = (method: string, target: string) =>
      new Promise<{
        status: number;
        type: string | undefined;
        length: string | undefined;
        body: string;
      }>((resolve, reject) => {
        const req = request(`${app.url}${target}`, { method }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              type: res.headers['content-type'],
              length: res.headers['content-length'],
              body,
            }),
          );
        });
        req.on('error', reject);
        req.end();
      });
    for (const [method, target] of [
      ['GET', '/no-such-page'],
      ['DELETE', '/run-code'],
      ['TRACE', '/run-code'],
      ['PROPFIND', '/run-code'],
      ['OPTIONS', '/no-such-page'],
      ['PATCH', '/games'],
    ] as const) {
      const response = await send(method, target);
      expect(response.status, `${method} ${target}`).toBe(404);
      expect(response.type, `${method} ${target}`).toBe('application/json; charset=utf-8');
      expect(JSON.parse(response.body), `${method} ${target}`).toEqual({
        error: { code: 'NOT_FOUND', message: `No route for ${method} ${target}` },
      });
    }
    for (const target of ['/run-code', '/no-such-page', '/api/no-such-route']) {
      const head = await send('HEAD', target);
      expect(head.status, target).toBe(404);
      expect(head.type, target).toBe('application/json; charset=utf-8');
      expect(Number(head.length), target).toBeGreaterThan(0);
      expect(head.body, target).toBe('');
    }
  });

  it('answers malformed JSON with 400', async () => {
    const response = await app.client().post<ApiError>('/api/auth/login', '{"username": "a", ');
    expect(response.status).toBe(400);
    expect(response.body.error.message).toBe('Request body is not valid JSON');
  });

  it('answers a body over 100kb with 413', async () => {
    const response = await app.client().post<ApiError>('/api/auth/register', {
      username: 'someone',
      password: 'x'.repeat(110 * 1024),
    });
    expect(response.status).toBe(413);
    expect(response.body.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('answers JSON that is not an object with 400, not 500', async () => {
    for (const body of ['null', '"text"', '[1,2]', '42']) {
      const response = await app.client().post<ApiError>('/api/auth/login', body);
      expect(response.status, body).toBe(400);
    }
  });
});
