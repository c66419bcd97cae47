import { describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';

import { s3ServerKind } from '../../test/s3-server.js';
import { useTestBucket } from '../../test/test-bucket.js';
import { describeObjectStorageContract } from './object-storage.contract.js';
import { StorageUnavailableError } from './object-storage.js';
import { createS3Client, createS3Storage } from './s3-storage.js';

const s3 = useTestBucket('storage-contract');
const hasServer = s3.available;
/** A storage of a new prefix of the file's bucket. */
const freshStorage = () =>
  createS3Storage(createS3Client(s3.settings()), s3.settings(), `${randomUUID()}/`);

describeObjectStorageContract(`S3 (${s3ServerKind ?? 'no server'})`, freshStorage, {
  skip: !hasServer,
});

describe.skipIf(!hasServer)('the S3 driver', () => {
  it('writes a file larger than one part in parts and reads it back whole', async () => {
    const storage = freshStorage();
    const part = Buffer.alloc(1024 * 1024, 7);
    const parts = Array.from({ length: 10 }, () => part);
    await storage.put('big.wasm', Readable.from(parts));
    expect((await storage.head('big.wasm'))?.size).toBe(10 * part.length);
    const read = await storage.get('big.wasm', {
      start: 9 * part.length,
      end: 9 * part.length + 3,
    });
    const chunks: Buffer[] = [];
    for await (const chunk of read?.body ?? []) {
      chunks.push(chunk as Buffer);
    }
    expect(Buffer.concat(chunks)).toEqual(Buffer.from([7, 7, 7, 7]));
  });

  it("keeps a put's SHA-256 with the object and answers it from head and get", async () => {
    const storage = freshStorage();
    expect(storage.keepsChecksums).toBe(true);
    const sha256 = 'ab'.repeat(32);
    await storage.put('summed.txt', Buffer.from('x'), { sha256 });
    await storage.put('plain.txt', Buffer.from('x'));
    expect((await storage.head('summed.txt'))?.sha256).toBe(sha256);
    const read = await storage.get('summed.txt');
    read?.body.resume();
    expect(read?.sha256).toBe(sha256);
    expect((await storage.head('plain.txt'))?.sha256).toBeUndefined();
  });

  it('says at the check that a bucket does not exist, naming it and the endpoint', async () => {
    const missing = { ...s3.settings(), bucket: 'no-such-bucket' };
    const check = createS3Storage(createS3Client(missing), missing).check();
    await expect(check).rejects.toBeInstanceOf(StorageUnavailableError);
    await expect(check).rejects.toThrow(
      `S3_BUCKET: the bucket 'no-such-bucket' at ${s3.server().endpoint} does not exist`,
    );
  });

  it('says at the check that nothing answers at the endpoint', async () => {
    const away = { ...s3.settings(), endpoint: 'http://127.0.0.1:9' };
    await expect(createS3Storage(createS3Client(away), away).check()).rejects.toThrow(
      /^S3_ENDPOINT: the bucket 'storage-contract' at http:\/\/127\.0\.0\.1:9 could not be reached/,
    );
  });
});
