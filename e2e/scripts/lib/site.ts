// A built site for the measuring scripts (lighthouse.ts, godot-first-frame.ts): the built server
// of a checkout (this one, or another for a same-run comparison) started on its own port with a
// fresh embedded database and an admin from ADMIN_USERNAME/ADMIN_PASSWORD, plus the small API
// client that seeds it as an owner would (sign in, upload, publish) and hands back the session
// cookies a browser then carries.
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';

import { makeDataDir } from '../../fixtures/constants';

export const SITE_ADMIN = { username: 'lighthouse_admin', password: 'lighthouse-admin-password' };

export interface Site {
  origin: string;
  /** The games origin (the other loopback name, PORT + 1). */
  gamesOrigin: string;
  stop(): Promise<void>;
}

/** Starts `checkout`'s built server (apps/server/dist/main.js) on `port`; resolves once ready. */
export async function startSite(
  checkout: string,
  port: number,
  env: Record<string, string> = {},
): Promise<Site> {
  const origin = `http://127.0.0.1:${port}`;
  const dataDir = makeDataDir('measure-site-');
  const server = spawn(process.execPath, [path.join(checkout, 'apps/server/dist/main.js')], {
    cwd: checkout,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PUBLIC_ORIGIN: origin,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
      ADMIN_USERNAME: SITE_ADMIN.username,
      ADMIN_PASSWORD: SITE_ADMIN.password,
      // the admin pages are measured signed in with a password only
      ADMIN_REQUIRE_2FA: 'false',
      ...env,
    },
  });
  const stop = async () => {
    if (server.exitCode === null) {
      server.kill('SIGTERM');
      await new Promise((resolve) => server.once('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await waitForReady(server, origin);
  } catch (error) {
    await stop();
    throw error;
  }
  return { origin, gamesOrigin: `http://localhost:${port + 1}`, stop };
}

async function waitForReady(server: ChildProcess, origin: string) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) {
      throw new Error(`the server exited with ${server.exitCode}`);
    }
    try {
      if ((await fetch(`${origin}/api/ready`)).ok) {
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the site did not get ready on ${origin} within 120 s`);
}

/** A cookie as the browser should hold it (Playwright's addCookies shape). */
export interface BrowserCookie {
  name: string;
  value: string;
  /**
   * Where the cookie is set: a host-only cookie (as __Host- names need), path /. A Secure one is
   * set through https (Chromium refuses Secure cookies set for http through the protocol, but
   * sends them to http://127.0.0.1, a secure context, as it does when the site sets them).
   */
  url: string;
  secure: boolean;
  httpOnly: boolean;
  sameSite: 'Strict' | 'Lax' | 'None';
}

/** The Set-Cookie lines of an answer as browser cookies of `origin` (expired ones left out). */
function cookiesOf(response: Response, origin: string): BrowserCookie[] {
  return response.headers.getSetCookie().flatMap((line) => {
    const [pair = '', ...attributes] = line.split(';').map((part) => part.trim());
    const equals = pair.indexOf('=');
    const attribute = (name: string) =>
      attributes.find((part) => part.toLowerCase().startsWith(name.toLowerCase()));
    const maxAge = attribute('max-age=');
    if (equals <= 0 || (maxAge && Number(maxAge.split('=')[1]) <= 0)) {
      return [];
    }
    const sameSite = attribute('samesite=')?.split('=')[1]?.toLowerCase();
    return [
      {
        name: pair.slice(0, equals),
        value: pair.slice(equals + 1),
        url: `${attribute('secure') === undefined ? 'http' : 'https'}://${new URL(origin).hostname}/`,
        secure: attribute('secure') !== undefined,
        httpOnly: attribute('httponly') !== undefined,
        sameSite: sameSite === 'strict' ? 'Strict' : sameSite === 'none' ? 'None' : 'Lax',
      },
    ];
  });
}

/** A signed-in (or not) API client of the site, as a script's owner would use it. */
export class SiteClient {
  cookies: BrowserCookie[] = [];

  constructor(readonly origin: string) {}

  async request(method: string, pathname: string, body?: unknown, headers = {}) {
    const isRaw = body instanceof Uint8Array;
    const response = await fetch(`${this.origin}${pathname}`, {
      method,
      headers: {
        origin: this.origin,
        cookie: this.cookies.map(({ name, value }) => `${name}=${value}`).join('; '),
        ...(body === undefined || isRaw ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : isRaw ? new Uint8Array(body) : JSON.stringify(body),
    });
    for (const cookie of cookiesOf(response, this.origin)) {
      this.cookies = [...this.cookies.filter(({ name }) => name !== cookie.name), cookie];
    }
    const text = await response.text();
    if (!response.ok) {
      throw new Error(`${method} ${pathname}: ${response.status} ${text.slice(0, 300)}`);
    }
    return text ? (JSON.parse(text) as unknown) : undefined;
  }

  static async signedIn(origin: string, account = SITE_ADMIN): Promise<SiteClient> {
    const client = new SiteClient(origin);
    await client.request('POST', '/api/auth/login', account);
    return client;
  }

  static async registered(origin: string, username: string): Promise<SiteClient> {
    const client = new SiteClient(origin);
    const account = { username, password: 'measure-password-1' };
    await client.request('POST', '/api/auth/register', account);
    await client.request('POST', '/api/auth/login', account);
    return client;
  }
}
