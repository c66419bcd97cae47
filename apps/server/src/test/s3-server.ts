import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { CreateBucketCommand, ListBucketsCommand } from '@aws-sdk/client-s3';

import { createS3Client, createS3Storage, type S3Settings } from '../lib/storage/s3-storage.js';
import { freePort } from './ports.js';
import { scaled } from './slow-machine.js';

/**
 * A real S3-compatible server for the tests, on a free loopback port, started by the test and
 * stopped after: moto_server (Python moto: S3 with multipart, ranges and conditional requests,
 * in memory, any credentials), found on PATH or at /root/.pyenv/shims; where it is missing,
 * s3rver (the npm package, a dev dependency: objects in a temporary folder, credentials
 * S3RVER/S3RVER, no conditional requests). TEST_S3_SERVER=moto|s3rver picks one.
 */

const MOTO_CANDIDATES = [
  ...(process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, 'moto_server')),
  '/root/.pyenv/shims/moto_server',
];

export const motoServerPath = MOTO_CANDIDATES.find((candidate) => {
  try {
    return existsSync(candidate);
  } catch {
    return false;
  }
});

const s3rverBin = (() => {
  try {
    return path.join(
      path.dirname(createRequire(import.meta.url).resolve('s3rver/package.json')),
      'bin/s3rver.js',
    );
  } catch {
    return undefined;
  }
})();

export type S3ServerKind = 'moto' | 's3rver';

/** The server the S3 tests run on (TEST_S3_SERVER, else moto where installed, else s3rver). */
export const s3ServerKind: S3ServerKind | undefined = (() => {
  const wanted = process.env.TEST_S3_SERVER;
  if (wanted === 'moto' || wanted === 's3rver') {
    return (wanted === 'moto' ? motoServerPath : s3rverBin) ? wanted : undefined;
  }
  return motoServerPath ? 'moto' : s3rverBin ? 's3rver' : undefined;
})();

export const hasS3Server = s3ServerKind !== undefined;

export const S3_SERVER_MISSING =
  'no S3 test server (pip install "moto[server]", or the s3rver dev dependency): the S3 half of the storage tests is skipped';

/**
 * Why a test of names near the file system's 255-byte limit is skipped, or undefined: s3rver
 * keeps each object as a file named after its key plus a suffix, so such keys fail there (on
 * moto and real S3 a key may be 1024 bytes).
 */
export function longNamesUnsupported(): string | undefined {
  return isTestStorageS3() && s3ServerKind === 's3rver'
    ? "s3rver stores an object as a file named after its key plus '._S3rver_object': names near 255 bytes are tested on moto_server or a folder only"
    : undefined;
}

/** The credentials the server takes (moto: any; s3rver: its fixed pair). */
const CREDENTIALS: Record<
  S3ServerKind,
  { AWS_ACCESS_KEY_ID: string; AWS_SECRET_ACCESS_KEY: string }
> = {
  moto: { AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test' },
  s3rver: { AWS_ACCESS_KEY_ID: 'S3RVER', AWS_SECRET_ACCESS_KEY: 'S3RVER' },
};

export interface TestS3Server {
  kind: S3ServerKind;
  endpoint: string;
  /** Settings for a bucket of its own (created). */
  bucket(name: string): Promise<S3Settings>;
  /** The environment of a server process keeping its files in `bucket` here (STORAGE=s3). */
  envFor(bucket: string): Record<string, string>;
  /** Reads every object now (moto); the next start() puts them back as they are now. */
  snapshot(): Promise<void>;
  /** Stops it; `keep` keeps its objects for start() (else its folder is removed). */
  stop(options?: { keep?: boolean }): Promise<void>;
  /**
   * Starts it again on the same port after stop(). moto keeps objects in memory only, so its
   * buckets and objects are read out before a stop (`stop({ keep: true })`) and put back here;
   * s3rver keeps them in its folder.
   */
  start(): Promise<void>;
}

/**
 * Whether test apps keep their files in a bucket (TEST_STORAGE=s3): tests of a local folder's
 * own matters (links on disk) skip then, and fixtures laid out on disk are written into the
 * app's storage.
 */
export const isTestStorageS3 = () => Boolean(process.env.TEST_S3_ENDPOINT);

/** A new empty bucket on the test S3 server at `endpoint`, as STORAGE=s3 settings. */
export async function createTestBucket(endpoint: string) {
  process.env.AWS_ACCESS_KEY_ID ??= 'test';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
  const settings: S3Settings = {
    bucket: `test-${randomBytes(8).toString('hex')}`,
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
  };
  await createS3Client(settings).send(new CreateBucketCommand({ Bucket: settings.bucket }));
  return { kind: 's3' as const, ...settings, endpoint };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function spawnServer(kind: S3ServerKind, port: number, folder: string): ChildProcess {
  if (kind === 'moto') {
    return spawn(motoServerPath ?? 'moto_server', ['-H', '127.0.0.1', '-p', String(port)], {
      stdio: 'ignore',
    });
  }
  const args = [s3rverBin ?? '', '-d', folder, '-a', '127.0.0.1', '-p', String(port), '--silent'];
  // s3rver's continuation tokens (a listing in pages) use DES, which OpenSSL 3 keeps in its
  // legacy provider
  return spawn(process.execPath, ['--openssl-legacy-provider', ...args, '--no-vhost-buckets'], {
    stdio: 'ignore',
  });
}

async function waitUntilAnswering(child: ChildProcess, endpoint: string, kind: S3ServerKind) {
  // moto (Python) takes seconds to start on a loaded machine
  const limitMs = scaled(30_000);
  const deadline = Date.now() + limitMs;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`${kind} exited with ${child.exitCode}`);
    }
    const isUp = await fetch(endpoint, { signal: AbortSignal.timeout(2000) }).then(
      () => true,
      () => false,
    );
    if (isUp) {
      return;
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${kind} did not answer within ${limitMs / 1000} s`);
    }
    await sleep(100);
  }
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve();
  }
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

type Snapshot = Map<string, Map<string, Buffer>>;

/** Every bucket's objects, read into memory (small test data only). */
async function snapshotOf(settingsOf: (bucket: string) => S3Settings): Promise<Snapshot> {
  const snapshot: Snapshot = new Map();
  const { Buckets = [] } = await createS3Client(settingsOf('')).send(new ListBucketsCommand({}));
  for (const { Name } of Buckets) {
    if (!Name) {
      continue;
    }
    const storage = createS3Storage(createS3Client(settingsOf(Name)), settingsOf(Name));
    const objects = new Map<string, Buffer>();
    for (const info of await storage.list('')) {
      const read = await storage.get(info.key);
      if (read) {
        objects.set(info.key, Buffer.concat(await read.body.toArray()));
      }
    }
    snapshot.set(Name, objects);
  }
  return snapshot;
}

async function restore(snapshot: Snapshot, settingsOf: (bucket: string) => S3Settings) {
  for (const [bucket, objects] of snapshot) {
    const client = createS3Client(settingsOf(bucket));
    await client.send(new CreateBucketCommand({ Bucket: bucket }));
    const storage = createS3Storage(client, settingsOf(bucket));
    for (const [key, bytes] of objects) {
      await storage.put(key, bytes);
    }
  }
}

/** Starts the test S3 server and waits until it answers. */
export async function startS3Server(): Promise<TestS3Server> {
  const kind = s3ServerKind;
  if (!kind) {
    throw new Error(S3_SERVER_MISSING);
  }
  // the SDK wants credentials even though moto checks none; s3rver takes its own pair only
  Object.assign(process.env, CREDENTIALS[kind]);
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const folder = mkdtempSync(path.join(tmpdir(), 's3rver-'));
  const settingsOf = (bucket: string): S3Settings => ({
    bucket,
    region: 'us-east-1',
    endpoint,
    forcePathStyle: true,
  });
  let child: ChildProcess | undefined;
  let kept: Snapshot | undefined;
  const start = async () => {
    child = spawnServer(kind, port, folder);
    await waitUntilAnswering(child, endpoint, kind);
    if (kept) {
      await restore(kept, settingsOf);
      kept = undefined;
    }
  };
  const stop = async (options: { keep?: boolean } = {}) => {
    if (options.keep && kind === 'moto' && child) {
      kept = await snapshotOf(settingsOf);
    }
    const running = child;
    child = undefined;
    if (running && running.exitCode === null && running.signalCode === null) {
      running.kill('SIGTERM');
      await Promise.race([exited(running), sleep(5000)]);
      running.kill('SIGKILL');
    }
  };
  await start();
  return {
    kind,
    endpoint,
    async bucket(name) {
      await createS3Client(settingsOf(name)).send(new CreateBucketCommand({ Bucket: name }));
      return settingsOf(name);
    },
    envFor: (bucket) => ({
      STORAGE: 's3',
      S3_BUCKET: bucket,
      S3_REGION: 'us-east-1',
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      ...CREDENTIALS[kind],
    }),
    start,
    async snapshot() {
      kept = kind === 'moto' ? await snapshotOf(settingsOf) : undefined;
    },
    async stop(options) {
      await stop(options);
      if (!options?.keep) {
        rmSync(folder, { recursive: true, force: true });
      }
    },
  };
}
