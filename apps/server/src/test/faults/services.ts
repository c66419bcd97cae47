import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { expect } from 'vitest';
import { freePort } from '../ports.js';

/**
 * Real services for the fault tests, private to the test: a Redis and a PostgreSQL cluster on free
 * loopback ports, and the server as real processes (`src/main.ts` under tsx), so stopping and
 * starting them is what an outage or a deploy is. The machine's shared services are never touched.
 */

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitUntil(check: () => Promise<boolean> | boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) {
      return;
    }
    await sleep(100);
  }
  throw new Error(`${what} not ready after ${timeoutMs} ms`);
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve(child.exitCode);
  }
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** A private redis-server (no persistence) that can be stopped and started on the same port. */
export async function startRedis() {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const ping = () => {
    try {
      return execFileSync('redis-cli', ['-p', String(port), 'ping'], { stdio: 'pipe' })
        .toString()
        .includes('PONG');
    } catch {
      return false;
    }
  };
  const start = async () => {
    child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    await waitUntil(ping, 10_000, 'redis');
  };
  const stop = async () => {
    if (child) {
      const running = child;
      child = undefined;
      running.kill('SIGKILL');
      await exited(running);
    }
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, start, stop };
}

/**
 * A private PostgreSQL cluster (Debian's binaries, whichever version is installed) in a temporary
 * folder, trust authentication, loopback only. As root its commands run as the postgres user.
 */
export async function startPostgres() {
  const version = readdirSync('/usr/lib/postgresql').sort().at(-1);
  if (!version) {
    throw new Error('no PostgreSQL under /usr/lib/postgresql');
  }
  const bin = (name: string) => `/usr/lib/postgresql/${version}/bin/${name}`;
  const isRoot = process.getuid?.() === 0;
  const run = (command: string, args: string[]) =>
    execFileSync(
      isRoot ? 'runuser' : command,
      isRoot ? ['-u', 'postgres', '--', command, ...args] : args,
      { stdio: 'pipe' },
    );
  const dir = mkdtempSync(path.join(tmpdir(), 'fault-pg-'));
  chmodSync(dir, 0o777);
  const data = path.join(dir, 'data');
  if (isRoot) {
    execFileSync('chown', ['postgres:postgres', dir]);
  }
  run(bin('initdb'), ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = () => {
    run(bin('pg_ctl'), ['-D', data, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  };
  const stop = () => {
    run(bin('pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']);
  };
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    start,
    stop,
    destroy() {
      try {
        stop();
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface AppProcess {
  url: string;
  child: ChildProcess;
  output: () => string;
  /** SIGTERM; resolves with the exit code and how long the exit took. */
  terminate(): Promise<{ code: number | null; ms: number }>;
}

export const FAULT_SECRET = randomBytes(32).toString('hex');
export const FAULT_ADMIN = { username: 'fault_admin', password: 'fault admin password' };

/** The server as production runs it, in its own process. */
export async function startApp(env: Record<string, string>, port?: number): Promise<AppProcess> {
  const listenPort = port ?? (await freePort());
  let output = '';
  const dataDir = mkdtempSync(path.join(tmpdir(), 'fault-data-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: SERVER_DIR,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? tmpdir(),
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(listenPort),
      // the games origin on a port of its own choosing: PORT + 1 may be a private service's port
      GAMES_PORT: '0',
      PUBLIC_ORIGIN: `http://127.0.0.1:${listenPort}`,
      SESSION_SECRET: FAULT_SECRET,
      DATA_DIR: dataDir,
      WEB_DIST_DIR: '/nonexistent-web-dist',
      ADMIN_USERNAME: FAULT_ADMIN.username,
      ADMIN_PASSWORD: FAULT_ADMIN.password,
      REGISTER_LIMIT_PER_HOUR: '1000',
      // production's default asks an admin for two-factor sign-in first; these tests are about
      // the services failing, and their admin watches presence over Socket.IO at once
      ADMIN_REQUIRE_2FA: 'false',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.once('exit', () => rmSync(dataDir, { recursive: true, force: true }));
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await waitUntil(
    () => {
      if (child.exitCode !== null) {
        throw new Error(`server exited: ${output}`);
      }
      return output.includes('listening on');
    },
    60_000,
    'server',
  );
  return {
    url: `http://127.0.0.1:${listenPort}`,
    child,
    output: () => output,
    async terminate() {
      const started = Date.now();
      child.kill('SIGTERM');
      const code = await exited(child);
      return { code, ms: Date.now() - started };
    },
  };
}

/** A browser's calls: same-origin JSON with a cookie jar (one per client). */
export class Browser {
  cookies = new Map<string, string>();

  /** The Cookie header this browser sends. */
  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  async call<T = unknown>(
    baseUrl: string,
    method: string,
    pathname: string,
    body?: unknown,
  ): Promise<{ status: number; body: T }> {
    const response = await fetch(baseUrl + pathname, {
      method,
      headers: {
        origin: baseUrl,
        'content-type': 'application/json',
        ...(this.cookies.size ? { cookie: this.cookieHeader } : {}),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(10_000),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const value = pair.slice(at + 1);
      if (value) {
        this.cookies.set(pair.slice(0, at), value);
      } else {
        this.cookies.delete(pair.slice(0, at));
      }
    }
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON
    }
    return { status: response.status, body: parsed as T };
  }
}

/** A new browser signed in to `app` (registered first unless `register` is false). */
export async function signIn(app: AppProcess, username: string, password: string, register = true) {
  const browser = new Browser();
  if (register) {
    expect(
      (await browser.call(app.url, 'POST', '/api/auth/register', { username, password })).status,
    ).toBe(201);
  }
  expect(
    (await browser.call(app.url, 'POST', '/api/auth/login', { username, password })).status,
  ).toBe(200);
  return browser;
}
