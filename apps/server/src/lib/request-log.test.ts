import { randomUUID } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type TestApp, startTestApp, uniqueName } from '../test/harness.js';
import { captureLogs, type CapturedLogs, logger } from './logger.js';

let app: TestApp;
let logs: CapturedLogs;

beforeAll(async () => {
  // what an operator reads at the default production level, JSON lines
  logs = captureLogs('info');
  app = await startTestApp({ trustProxy: 'loopback' });
});

afterAll(async () => {
  await app.stop();
  logs.restore();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitForLine(match: (line: Record<string, unknown>) => boolean) {
  for (let tries = 0; tries < 50; tries++) {
    const line = logs.lines().find(match);
    if (line) {
      return line;
    }
    await sleep(100);
  }
  throw new Error('no such log line');
}

describe('request ids', () => {
  it('gives every request an X-Request-Id, and its log line carries the same id', async () => {
    const response = await app.client().request('GET', '/api/games');
    const id = response.headers.get('x-request-id');
    expect(id).toMatch(/^[\da-f-]{36}$/);
    const line = await waitForLine((entry) => entry.reqId === id);
    expect(line).toMatchObject({
      level: 30,
      module: 'http',
      msg: 'GET /api/games 200',
      req: { method: 'GET', url: '/api/games' },
      res: { statusCode: 200 },
    });
    expect(line.responseTime).toEqual(expect.any(Number));
  });

  it("keeps a valid incoming id (the proxy's) and replaces one that is not", async () => {
    const incoming = `nginx-${randomUUID()}`;
    const kept = await app.client().request('GET', '/api/health', undefined, {
      'x-request-id': incoming,
    });
    expect(kept.headers.get('x-request-id')).toBe(incoming);
    const forged = await app.client().request('GET', '/api/games', undefined, {
      'x-request-id': 'a"b\\c'.repeat(3),
    });
    expect(forged.headers.get('x-request-id')).toMatch(/^[\da-f-]{36}$/);
  });

  it('replaces an incoming id that is path text, too short or too long, and logs only the new one', async () => {
    for (const incoming of [
      '../../etc/passwd',
      'a/b/c/d/e/f',
      'proxy:id.1',
      // not hex: a new id (a random UUID) can never contain it
      'zyq',
      'x'.repeat(65),
      `nginx-${randomUUID()}@host`,
    ]) {
      const response = await app.client().request('GET', '/api/games', undefined, {
        'x-request-id': incoming,
      });
      const id = response.headers.get('x-request-id');
      expect(id, incoming).toMatch(/^[\da-f-]{36}$/);
      await waitForLine((entry) => entry.reqId === id);
      expect(logs.text(), incoming).not.toContain(incoming);
    }
  });

  it('writes the request id once on each line', async () => {
    const response = await app.client().request('GET', '/api/games');
    const id = response.headers.get('x-request-id') ?? '';
    await waitForLine((entry) => entry.reqId === id);
    const raw = logs
      .text()
      .split('\n')
      .filter((line) => line.includes(id));
    expect(raw.length).toBeGreaterThan(0);
    for (const line of raw) {
      expect(line.split('"reqId"').length - 1, line).toBe(1);
    }
  });
});

describe('what the logs never hold', () => {
  it('no cookie, password, email, token or client address from a registration and sign-in', async () => {
    const username = uniqueName('logged');
    const password = `pw ${randomUUID()}`;
    const email = `${username}@example.org`;
    const client = app.client();
    const clientAddress = '203.0.113.77';
    const headers = { 'x-forwarded-for': clientAddress };
    expect(
      (await client.request('POST', '/api/auth/register', { username, password, email }, headers))
        .status,
    ).toBe(201);
    const login = await client.request('POST', '/api/auth/login', { username, password }, headers);
    expect(login.status).toBe(200);
    // a failed sign-in with the address as the name, and an unsubscribe link's token in a query
    await client.request('POST', '/api/auth/login', { username: email, password }, headers);
    const token = randomUUID();
    await client.request(
      'GET',
      `/api/mail/unsubscribe?token=${token}&kind=news`,
      undefined,
      headers,
    );
    // the confirmation mail is kept in the outbox (no SMTP_URL): its line names no address
    await waitForLine((entry) => String(entry.msg).startsWith('kept in the outbox'));
    await waitForLine((entry) => String(entry.msg).startsWith('GET /api/mail/unsubscribe'));

    const text = logs.text();
    expect(text).toContain('POST /api/auth/login 200');
    const sessionValue = client.cookieHeader.split(';')[0]?.split('=')[1] ?? '';
    expect(sessionValue.length).toBeGreaterThan(10);
    for (const secret of [password, email, sessionValue, token, clientAddress]) {
      expect(text).not.toContain(secret);
    }
    const unsubscribe = logs
      .lines()
      .find((entry) => String(entry.msg).startsWith('GET /api/mail/unsubscribe'));
    expect(unsubscribe?.req).toEqual({
      method: 'GET',
      url: '/api/mail/unsubscribe?token=%5Bredacted%5D&kind=news',
    });
  });

  it('censors secret fields and scrubs addresses from any line', () => {
    logger.warn(
      {
        password: 'hunter2-secret',
        user: { email: 'someone@example.com', token: 'tok-secret' },
        headers: { cookie: '__Host-sid=abc' },
      },
      'failed for someone@example.com from 198.51.100.4 and 2001:db8::1, listening on 127.0.0.1',
    );
    const text = logs.text();
    for (const secret of [
      'hunter2-secret',
      'someone@example.com',
      'tok-secret',
      '__Host-sid=abc',
      '198.51.100.4',
      '2001:db8::1',
    ]) {
      expect(text).not.toContain(secret);
    }
    const line = logs.lines().at(-1);
    expect(line).toMatchObject({
      password: '[redacted]',
      user: { email: '[redacted]', token: '[redacted]' },
      headers: { cookie: '[redacted]' },
      msg: 'failed for [email] from [ip] and [ip], listening on 127.0.0.1',
    });
  });
});
