import { afterAll, beforeAll } from 'vitest';

import type { S3Settings } from '../lib/storage/s3-storage.js';
import { hasS3Server, S3_SERVER_MISSING, startS3Server, type TestS3Server } from './s3-server.js';

/** A test file's S3 test server and bucket (see useTestBucket). */
export interface TestBucket {
  /** Whether the machine has an S3 test server (moto_server or s3rver); else the tests skip. */
  readonly available: boolean;
  server(): TestS3Server;
  /** The settings of the file's bucket (created). */
  settings(): S3Settings;
}

/**
 * Starts the machine's S3 test server before the file's tests, with a bucket `name` of its own,
 * and stops it after them. Where there is none, `available` is false and a warning says why.
 */
export function useTestBucket(name: string): TestBucket {
  if (!hasS3Server) {
    console.warn(S3_SERVER_MISSING);
  }
  let server: TestS3Server | undefined;
  let settings: S3Settings | undefined;
  beforeAll(async () => {
    if (hasS3Server) {
      server = await startS3Server();
      settings = await server.bucket(name);
    }
  });
  afterAll(async () => {
    await server?.stop();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) {
      throw new Error('No S3 test server: skip this test unless `available`.');
    }
    return value;
  };
  return {
    available: hasS3Server,
    server: () => started(server),
    settings: () => started(settings),
  };
}
