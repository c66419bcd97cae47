import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';

import { CreateBucketCommand } from '@aws-sdk/client-s3';

import { createS3Client, type S3Settings } from '../lib/storage/s3-storage.js';
import { freePort } from './ports.js';

/**
 * A real S3-compatible server for the tests, on a free loopback port, started by the test and
 * stopped after: moto_server (Python moto: S3 with multipart, ranges and conditional requests,
 * in memory, any credentials). Found on PATH or at /root/.pyenv/shims; when it is missing the S3
 * half of a suite is skipped with `S3_SERVER_MISSING` as the reason.
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

export const S3_SERVER_MISSING =
  'no moto_server found (pip install "moto[server]"): the S3 half of the storage tests is skipped';

export interface TestS3Server {
  endpoint: string;
  /** Settings for a bucket of its own (created). */
  bucket(name: string): Promise<S3Settings>;
  stop(): Promise<void>;
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

/** Starts moto_server and waits until it answers. */
export async function startS3Server(): Promise<TestS3Server> {
  if (!motoServerPath) {
    throw new Error(S3_SERVER_MISSING);
  }
  // the SDK wants credentials even though moto checks none
  process.env.AWS_ACCESS_KEY_ID ??= 'test';
  process.env.AWS_SECRET_ACCESS_KEY ??= 'test';
  const port = await freePort();
  const endpoint = `http://127.0.0.1:${port}`;
  const child: ChildProcess = spawn(motoServerPath, ['-H', '127.0.0.1', '-p', String(port)], {
    stdio: 'ignore',
  });
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) {
      throw new Error(`moto_server exited with ${child.exitCode}`);
    }
    const isUp = await fetch(endpoint).then(
      () => true,
      () => false,
    );
    if (isUp) {
      break;
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('moto_server did not answer within 30 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    endpoint,
    async bucket(name) {
      const settings: S3Settings = {
        bucket: name,
        region: 'us-east-1',
        endpoint,
        forcePathStyle: true,
      };
      await createS3Client(settings).send(new CreateBucketCommand({ Bucket: name }));
      return settings;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) {
        return;
      }
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
