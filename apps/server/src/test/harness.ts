import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import type { CurrentUser, CurrentUserResponse } from '@portfolio/types';

import { loadConfig, type Config } from '../config.js';
import type { BuildOptions } from '../container.js';
import { type RunningServer, startServer } from '../server.js';
import {
  RELAXED_AUTH_LIMITS,
  RELAXED_PASSWORD_RESET_LIMITS,
  RELAXED_SUBSCRIPTION_LIMITS,
} from './relaxed-limits.js';
import { pgliteTemplate } from './database.js';
import { createScratchDatabase } from './scratch-database.js';
import { createTestBucket } from './s3-server.js';

export interface TestApp extends RunningServer {
  /** A client with its own cookie jar, like one browser. */
  client(): TestClient;
}

/**
 * Starts the real app on port 0: PGlite from the template, or PostgreSQL when DATABASE_URL is
 * set, Redis when REDIS_URL is set. Rate limits are relaxed unless a test passes its own.
 */
export async function startTestApp(
  overrides: Partial<Config> = {},
  options: BuildOptions = {},
): Promise<TestApp> {
  // every app its own folder of game builds (the demo games are imported there at start)
  const gamesDir = overrides.gamesHost ? undefined : mkdtempSync(path.join(tmpdir(), 'games-'));
  // and of uploaded media
  const mediaDir = overrides.media ? undefined : mkdtempSync(path.join(tmpdir(), 'media-'));
  const config: Config = {
    ...loadConfig({
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: '/nonexistent-test-data',
      SESSION_SECRET: randomBytes(32).toString('hex'),
      ...(process.env.DATABASE_URL ? { DATABASE_URL: process.env.DATABASE_URL } : {}),
      ...(process.env.REDIS_URL ? { REDIS_URL: process.env.REDIS_URL } : {}),
      WEB_DIST_DIR: '/nonexistent-web-dist',
      LOG_LEVEL: 'silent',
      ...(gamesDir ? { GAMES_DIR: gamesDir } : {}),
      ...(mediaDir ? { MEDIA_DIR: mediaDir } : {}),
    }),
    ...overrides,
  };
  let cacheDir: string | undefined;
  if (process.env.TEST_S3_ENDPOINT && !overrides.storage) {
    // read through a disk cache, as STORAGE=s3 runs by default
    cacheDir = mkdtempSync(path.join(tmpdir(), 'storage-cache-'));
    config.storage = {
      ...(await createTestBucket(process.env.TEST_S3_ENDPOINT)),
      cache: { dir: cacheDir, maxBytes: 64 * 1024 * 1024 },
    };
  }
  const template = pgliteTemplate();
  const buildOptions: BuildOptions = {
    authRateLimits: RELAXED_AUTH_LIMITS,
    subscriptionRateLimits: RELAXED_SUBSCRIPTION_LIMITS,
    passwordResetLimits: RELAXED_PASSWORD_RESET_LIMITS,
    ...(template && !config.databaseUrl ? { loadDataDir: template } : {}),
    ...options,
  };
  const running = await startServer(config, buildOptions);
  return {
    ...running,
    stop: async () => {
      await running.stop();
      for (const dir of [gamesDir, mediaDir, cacheDir]) {
        if (dir) {
          rmSync(dir, { recursive: true, force: true });
        }
      }
    },
    client: () => new TestClient(running.url),
  };
}

/**
 * An app whose database no other test uses, for tests about the whole table (for example that
 * one admin is left): a fresh PGlite, or a scratch PostgreSQL database dropped at stop().
 */
export async function startIsolatedTestApp(
  overrides: Partial<Config> = {},
  options: BuildOptions = {},
): Promise<TestApp> {
  if (!process.env.DATABASE_URL) {
    return startTestApp(overrides, options);
  }
  const scratch = await createScratchDatabase(process.env.DATABASE_URL, 'test_isolated');
  try {
    const app = await startTestApp({ ...overrides, databaseUrl: scratch.url }, options);
    return {
      ...app,
      stop: async () => {
        await app.stop();
        await scratch.drop();
      },
    };
  } catch (error) {
    await scratch.drop();
    throw error;
  }
}

export interface TestResponse<T = unknown> {
  status: number;
  body: T;
  headers: Headers;
}

/**
 * A browser's user agent, sent by every test request unless a test gives its own: fetch's own
 * ('node') is a known bot, which Live Activity and analytics leave out.
 */
export const TEST_BROWSER_AGENT =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36';

/** fetch with a cookie jar and JSON by default, as the web app sends requests. */
export class TestClient {
  private cookies = new Map<string, string>();

  constructor(readonly baseUrl: string) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async request<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<TestResponse<T>> {
    const response = await fetch(this.baseUrl + path, {
      method,
      headers: {
        accept: 'application/json',
        'user-agent': TEST_BROWSER_AGENT,
        ...(method === 'GET' || method === 'HEAD' ? {} : { 'content-type': 'application/json' }),
        ...(this.cookies.size ? { cookie: this.cookieHeader } : {}),
        ...headers,
      },
      ...(body === undefined
        ? {}
        : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const index = pair.indexOf('=');
      const name = pair.slice(0, index).trim();
      const value = pair.slice(index + 1).trim();
      const isExpired =
        attributes.some((attribute) => /^\s*expires=thu, 01 jan 1970/i.test(attribute)) ||
        value === '';
      if (isExpired) {
        this.cookies.delete(name);
      } else {
        this.cookies.set(name, value);
      }
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    return { status: response.status, body: parsed as T, headers: response.headers };
  }

  get<T = unknown>(path: string) {
    return this.request<T>('GET', path);
  }

  post<T = unknown>(path: string, body: unknown = {}, headers?: Record<string, string>) {
    return this.request<T>('POST', path, body, headers);
  }

  patch<T = unknown>(path: string, body: unknown = {}) {
    return this.request<T>('PATCH', path, body);
  }

  put<T = unknown>(path: string, body: unknown = {}) {
    return this.request<T>('PUT', path, body);
  }

  delete<T = unknown>(path: string) {
    return this.request<T>('DELETE', path);
  }
}

/**
 * Who the server says is signed in on this client: GET /api/auth/current-user answers 200 with
 * the user, or with null for a guest.
 */
export async function currentUserOf(client: TestClient): Promise<CurrentUser | null> {
  const response = await client.get<CurrentUserResponse>('/api/auth/current-user');
  if (response.status !== 200) {
    throw new Error(`current-user answered ${response.status}`);
  }
  return response.body.user;
}

/** A username no other test uses. */
export function uniqueName(prefix = 'user'): string {
  return `${prefix}_${randomBytes(5).toString('hex')}`;
}

/** The password every user made by the factories (factories.ts) has unless a test gives one. */
export const SIGNED_IN_PASSWORD = 'correct horse battery';
