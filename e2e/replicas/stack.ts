import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import {
  hasS3Server,
  S3_SERVER_MISSING,
  startS3Server,
  type TestS3Server,
} from '../../apps/server/src/test/s3-server';
import {
  createScratchDatabase,
  type ScratchDatabase,
} from '../../apps/server/src/test/scratch-database';
import { makeDataDir } from '../fixtures/constants';

/**
 * The scaled-out shape, for real, on this machine: Debian's nginx with deploy/nginx.conf (its
 * upstreams pointed at two local processes), two built servers (`node apps/server/dist/main.js`)
 * on one PostgreSQL database made for the run, one Redis (a key prefix of the run's own) and one
 * bucket (STORAGE=s3) on an S3 test server started for the run (moto_server, else s3rver), and
 * nothing else: each replica has its own empty DATA_DIR, GAMES_DIR and MEDIA_DIR, so whatever
 * one writes reaches the other only through the bucket. Everything is stopped, and the database
 * dropped, by `stop()`.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const REPLICAS_BASE_PORT = Number(process.env.REPLICAS_PORT ?? 4353);
export const PORTS = {
  a: REPLICAS_BASE_PORT,
  aGames: REPLICAS_BASE_PORT + 1,
  b: REPLICAS_BASE_PORT + 2,
  bGames: REPLICAS_BASE_PORT + 3,
  proxy: REPLICAS_BASE_PORT + 4,
  proxyGames: REPLICAS_BASE_PORT + 5,
};
export const SITE = `http://127.0.0.1:${PORTS.proxy}`;
// the other loopback name: production refuses a games origin that shares the site's cookie jar
export const GAMES = `http://localhost:${PORTS.proxyGames}`;
export const ADMIN = { username: 'replica_admin', password: 'replica admin password' };

/** Why the stack cannot run here (nginx, PostgreSQL or the build missing), or undefined. */
export function missingPrerequisite(): string | undefined {
  try {
    execFileSync('nginx', ['-v'], { stdio: 'ignore' });
  } catch {
    return 'nginx is not installed (Debian: apt-get install nginx)';
  }
  if (!hasS3Server) {
    return S3_SERVER_MISSING;
  }
  if (!existsSync(path.join(ROOT, 'apps/server/dist/main.js'))) {
    return 'the server is not built (npm run build)';
  }
  try {
    execFileSync('pg_isready', ['-q', '-d', baseDatabaseUrl()], { stdio: 'ignore' });
  } catch {
    return `PostgreSQL does not answer at ${baseDatabaseUrl()} (set REPLICAS_DATABASE_URL)`;
  }
  return undefined;
}

function baseDatabaseUrl(): string {
  return (
    process.env.REPLICAS_DATABASE_URL ??
    process.env.DATABASE_URL ??
    'postgres://postgres@127.0.0.1:5432/postgres'
  );
}

/**
 * deploy/nginx.conf as the test runs it: the compose service names become the two local
 * processes, and two test-only lines are added: the client address is taken from X-Test-Client
 * (so the browser contexts of one machine can be different clients for ip_hash), and the
 * upstream that answered is named in X-Upstream (so a test knows which replica it reached).
 */
export function nginxConfig(prefix: string): string {
  const site = readFileSync(path.join(ROOT, 'deploy/nginx.conf'), 'utf8')
    .replace(
      /server app:3000([^;]*);/,
      `server 127.0.0.1:${PORTS.a}$1;\n  server 127.0.0.1:${PORTS.b}$1;`,
    )
    .replace(
      /server app:3001([^;]*);/,
      `server 127.0.0.1:${PORTS.aGames}$1;\n  server 127.0.0.1:${PORTS.bGames}$1;`,
    )
    .replaceAll('/var/log/nginx/', `${prefix}/`)
    .replace(/listen 80;/, `listen 127.0.0.1:${PORTS.proxy};`)
    .replace(/listen 81;/, `listen 127.0.0.1:${PORTS.proxyGames};`);
  if (site.includes('app:')) {
    throw new Error('deploy/nginx.conf names an upstream this test does not map');
  }
  const isRoot = process.getuid?.() === 0;
  return `${isRoot ? 'user root root;\n' : ''}worker_processes 1;
daemon off;
pid ${prefix}/nginx.pid;
error_log ${prefix}/error.log warn;
events { worker_connections 512; }
http {
  access_log ${prefix}/access.log;
  client_body_temp_path ${prefix}/body;
  proxy_temp_path ${prefix}/proxy;
  fastcgi_temp_path ${prefix}/fastcgi;
  uwsgi_temp_path ${prefix}/uwsgi;
  scgi_temp_path ${prefix}/scgi;
  # test only: one machine, many clients
  set_real_ip_from 127.0.0.1;
  real_ip_header X-Test-Client;
  add_header X-Upstream $upstream_addr always;
${site}
}
`;
}

interface Replica {
  name: 'a' | 'b';
  child: ChildProcess;
  output: string;
}

export interface Stack {
  replicas: Record<'a' | 'b', Replica>;
  kill(name: 'a' | 'b'): Promise<void>;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(url: string, child: ChildProcess, what: () => string, timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      throw new Error(`exited early:\n${what()}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(1000) });
      if (response.ok) {
        return;
      }
    } catch {
      // not yet
    }
    await sleep(200);
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms:\n${what()}`);
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve();
  }
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

export async function startStack(): Promise<Stack> {
  const work = makeDataDir('replicas-');
  const run = randomBytes(4).toString('hex');
  const children: ChildProcess[] = [];
  const redisUrl = process.env.REPLICAS_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const redisPrefix = `replicas_${run}`;
  let database: ScratchDatabase | undefined;
  let s3: TestS3Server | undefined;
  const stop = async () => {
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
      }
    }
    await Promise.race([Promise.all(children.map(exited)), sleep(10_000)]);
    for (const child of children) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
      }
    }
    await database?.drop().catch(() => undefined);
    await s3?.stop().catch(() => undefined);
    // the run's keys (presence, rate limits) go with it
    try {
      execFileSync(
        'sh',
        [
          '-c',
          'redis-cli -u "$1" --scan --pattern "$2:*" | xargs -r redis-cli -u "$1" del',
          'sh',
          redisUrl,
          redisPrefix,
        ],
        { stdio: 'ignore' },
      );
    } catch {
      // Redis gone or redis-cli missing: the keys expire or stay under a prefix no one uses
    }
    rmSync(work, { recursive: true, force: true });
  };
  try {
    database = await createScratchDatabase(baseDatabaseUrl(), `replicas_${run}`);
    s3 = await startS3Server();
    const bucket = `replicas-${run}`;
    await s3.bucket(bucket);
    const env = {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? work,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      DATABASE_URL: database.url,
      REDIS_URL: redisUrl,
      // a prefix of this run's own: other runs on the same Redis never see its traffic
      REDIS_PREFIX: redisPrefix,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      PUBLIC_ORIGIN: SITE,
      GAMES_ORIGIN: GAMES,
      ...s3.envFor(bucket),
      TRUST_PROXY: 'loopback',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      ADMIN_REQUIRE_2FA: 'false',
      REGISTER_LIMIT_PER_HOUR: '1000',
      LOG_LEVEL: process.env.REPLICAS_LOG_LEVEL ?? 'warn',
      RUN_CODE_BACKEND: 'wasm',
    };
    const replicas = {} as Record<'a' | 'b', Replica>;
    // one after the other: the second finds the migrations done (under the advisory lock anyway)
    for (const [name, port, gamesPort] of [
      ['a', PORTS.a, PORTS.aGames],
      ['b', PORTS.b, PORTS.bGames],
    ] as const) {
      // folders of its own, empty: builds and media are in the bucket
      const dataDir = path.join(work, `data-${name}`);
      mkdirSync(dataDir);
      const folders = {
        DATA_DIR: dataDir,
        GAMES_DIR: path.join(dataDir, 'games'),
        MEDIA_DIR: path.join(dataDir, 'media'),
      };
      const child = spawn(process.execPath, ['apps/server/dist/main.js'], {
        cwd: ROOT,
        env: { ...env, PORT: String(port), GAMES_PORT: String(gamesPort), ...folders },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      const replica: Replica = { name, child, output: '' };
      child.stdout?.on('data', (chunk: Buffer) => (replica.output += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (replica.output += chunk.toString()));
      replicas[name] = replica;
      await waitFor(`http://127.0.0.1:${port}/api/ready`, child, () => replica.output, 90_000);
    }
    const prefix = path.join(work, 'nginx');
    mkdirSync(prefix);
    writeFileSync(path.join(prefix, 'nginx.conf'), nginxConfig(prefix));
    let nginxOutput = '';
    const nginx = spawn('nginx', ['-p', prefix, '-c', path.join(prefix, 'nginx.conf')], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(nginx);
    nginx.stderr?.on('data', (chunk: Buffer) => (nginxOutput += chunk.toString()));
    await waitFor(
      `${SITE}/api/ready`,
      nginx,
      () => `${nginxOutput}\n${readIfExists(path.join(prefix, 'error.log'))}`,
      15_000,
    );
    return {
      replicas,
      async kill(name) {
        const { child } = replicas[name];
        child.kill('SIGKILL');
        await exited(child);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

function readIfExists(file: string): string {
  return existsSync(file) ? readFileSync(file, 'utf8') : '';
}
