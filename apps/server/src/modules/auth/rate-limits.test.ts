import { randomInt } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ApiError } from '@portfolio/types';

import { startTestApp, type TestApp, type TestResponse, uniqueName } from '../../test/harness.js';

const WINDOW_MS = 60_000;
let app: TestApp;
beforeAll(async () => {
  // trust the loopback proxy so each test comes from its own X-Forwarded-For address: counters
  // never collide between tests, test files or runs sharing one Redis
  app = await startTestApp(
    { trustProxy: 'loopback' },
    {
      authRateLimits: {
        loginPerIp: { limit: 3, windowMs: WINDOW_MS },
        loginPerUsername: { limit: 2, windowMs: WINDOW_MS },
        registerPerIp: { limit: 2, windowMs: WINDOW_MS },
        registerPerUsername: { limit: 2, windowMs: WINDOW_MS },
        twoFactorPerUser: { limit: 2, windowMs: WINDOW_MS },
      },
    },
  );
});
afterAll(async () => {
  await app.stop();
});

const randomIp = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
const hextet = () => randomInt(0x10000).toString(16);
/** A random /64 from the documentation range: the addresses one home or phone may use. */
const randomIpv6Prefix = () => `2001:db8:${hextet()}:${hextet()}`;

function post(path: string, body: unknown, ip: string) {
  return app.client().post<ApiError>(path, body, { 'x-forwarded-for': ip });
}

function expectRateLimited(response: TestResponse<ApiError>, message: string) {
  expect(response.status).toBe(429);
  expect(response.body.error).toMatchObject({ code: 'RATE_LIMITED', message });
  const retryAfter = Number(response.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_MS / 1000);
}

const LOGIN_MESSAGE = 'Too many login attempts. Please try again later.';

describe('auth rate limits', () => {
  it('limits login attempts per address', async () => {
    const ip = randomIp();
    for (let attempt = 0; attempt < 3; attempt++) {
      expect(
        (await post('/api/auth/login', { username: uniqueName(), password: 'wrong password' }, ip))
          .status,
      ).toBe(401);
    }
    expectRateLimited(
      await post('/api/auth/login', { username: uniqueName(), password: 'wrong password' }, ip),
      LOGIN_MESSAGE,
    );
    // another address is not affected
    expect(
      (
        await post(
          '/api/auth/login',
          { username: uniqueName(), password: 'wrong password' },
          randomIp(),
        )
      ).status,
    ).toBe(401);
  });

  it('limits login attempts per username, from any address and in any letter case', async () => {
    const username = uniqueName();
    const password = 'correct horse battery';
    expect((await post('/api/auth/register', { username, password }, randomIp())).status).toBe(201);
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(
        (await post('/api/auth/login', { username, password: 'wrong password' }, randomIp()))
          .status,
      ).toBe(401);
    }
    // even the right password waits: guessing must not continue from new addresses
    expectRateLimited(
      await post('/api/auth/login', { username: username.toUpperCase(), password }, randomIp()),
      LOGIN_MESSAGE,
    );
    // another username from the same kind of fresh address still gets an answer
    expect(
      (await post('/api/auth/login', { username: uniqueName(), password }, randomIp())).status,
    ).toBe(401);
  });

  it('limits registrations per address', async () => {
    const ip = randomIp();
    const password = 'correct horse battery';
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(
        (await post('/api/auth/register', { username: uniqueName(), password }, ip)).status,
      ).toBe(201);
    }
    expectRateLimited(
      await post('/api/auth/register', { username: uniqueName(), password }, ip),
      'Too many registrations from this address. Please try again later.',
    );
    expect(
      (await post('/api/auth/register', { username: uniqueName(), password }, randomIp())).status,
    ).toBe(201);
  });

  it('counts only failed logins against a username, so its owner cannot be locked out by successes', async () => {
    const username = uniqueName();
    const password = 'correct horse battery';
    expect((await post('/api/auth/register', { username, password }, randomIp())).status).toBe(201);
    // more successful logins than the limit allows attempts
    for (let attempt = 0; attempt < 4; attempt++) {
      expect((await post('/api/auth/login', { username, password }, randomIp())).status).toBe(200);
    }
    // one failure is within the limit: the right password still works after it
    expect(
      (await post('/api/auth/login', { username, password: 'wrong password' }, randomIp())).status,
    ).toBe(401);
    expect((await post('/api/auth/login', { username, password }, randomIp())).status).toBe(200);
    expect(
      (await post('/api/auth/login', { username, password: 'wrong password' }, randomIp())).status,
    ).toBe(401);
    // two failures reach it
    expectRateLimited(
      await post('/api/auth/login', { username, password }, randomIp()),
      LOGIN_MESSAGE,
    );
  });

  it('does not let a lookalike of a username bypass its limit', async () => {
    const username = uniqueName('ivy');
    const password = 'correct horse battery';
    expect((await post('/api/auth/register', { username, password }, randomIp())).status).toBe(201);
    for (let attempt = 0; attempt < 2; attempt++) {
      expect(
        (await post('/api/auth/login', { username, password: 'wrong password' }, randomIp()))
          .status,
      ).toBe(401);
    }
    // a dotted capital I is lower-cased to i by PostgreSQL but not by the limit's key
    const lookalike = `\u0130${username.slice(1)}`;
    const response = await post('/api/auth/login', { username: lookalike, password }, randomIp());
    expect(response.status).toBe(401);
    expect(response.body.error.code).toBe('INVALID_CREDENTIALS');
  });

  it('limits registrations per username, from any address and in any letter case', async () => {
    const username = uniqueName();
    const password = 'correct horse battery';
    expect((await post('/api/auth/register', { username, password }, randomIp())).status).toBe(201);
    expect(
      (await post('/api/auth/register', { username: username.toUpperCase(), password }, randomIp()))
        .status,
    ).toBe(409);
    expectRateLimited(
      await post('/api/auth/register', { username, password }, randomIp()),
      'Too many registration attempts for this username. Please try again later.',
    );
    // another username is not affected
    expect(
      (await post('/api/auth/register', { username: uniqueName(), password }, randomIp())).status,
    ).toBe(201);
  });

  it('counts the addresses of one IPv6 /64 as one address', async () => {
    const prefix = randomIpv6Prefix();
    for (const host of ['::1', ':a:b:c:d', ':ffff:ffff:ffff:fffe']) {
      expect(
        (
          await post(
            '/api/auth/login',
            { username: uniqueName(), password: 'wrong password' },
            `${prefix}${host}`,
          )
        ).status,
      ).toBe(401);
    }
    expectRateLimited(
      await post(
        '/api/auth/login',
        { username: uniqueName(), password: 'wrong password' },
        `${prefix}::2`,
      ),
      LOGIN_MESSAGE,
    );
    // the next /64 is someone else
    expect(
      (
        await post(
          '/api/auth/login',
          { username: uniqueName(), password: 'wrong password' },
          `${randomIpv6Prefix()}::2`,
        )
      ).status,
    ).toBe(401);
  });
});
