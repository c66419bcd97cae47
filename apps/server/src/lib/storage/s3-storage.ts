import { createReadStream } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';

import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';

import {
  assertKey,
  assertPrefix,
  filesUnder,
  InvalidKeyError,
  type ObjectInfo,
  type ObjectStorage,
  type PutOptions,
  StorageUnavailableError,
} from './object-storage.js';
import { forEachBounded } from './for-each-bounded.js';

/*
 * The S3 driver: any S3-compatible service (AWS, or one at S3_ENDPOINT). Puts go through
 * lib-storage's Upload (multipart above 8 MiB, 4 parts at a time), so a large file is never held
 * whole in memory. Credentials come from the SDK's own sources (AWS_ACCESS_KEY_ID /
 * AWS_SECRET_ACCESS_KEY, a profile, an instance role).
 */

export interface S3Settings {
  bucket: string;
  region: string;
  /** An S3-compatible service's address; unset: AWS. */
  endpoint?: string | undefined;
  /** Address buckets as <endpoint>/<bucket> (most self-hosted services) instead of a host name. */
  forcePathStyle: boolean;
}

/**
 * A client for `settings`; checksums only where the API requires them (S3-compatible services).
 * A service that does not answer fails a request instead of holding it: 3 s to connect, 10 s of
 * silence on a connection, 3 attempts.
 */
export function createS3Client(settings: S3Settings): S3Client {
  return new S3Client({
    region: settings.region,
    ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
    forcePathStyle: settings.forcePathStyle,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
    maxAttempts: 3,
    requestHandler: { connectionTimeout: 3000, socketTimeout: 10_000 },
  });
}

const PART_SIZE = 8 * 1024 * 1024;
/** Parallel puts of a folder's files. */
const IMPORT_CONCURRENCY = 4;

function statusOf(error: unknown): number | undefined {
  if (typeof error === 'object' && error !== null && '$metadata' in error) {
    const metadata = (error as { $metadata?: { httpStatusCode?: number } }).$metadata;
    return metadata?.httpStatusCode;
  }
  return undefined;
}

const isNotFound = (error: unknown) =>
  statusOf(error) === 404 ||
  (error instanceof Error && ['NotFound', 'NoSuchKey'].includes(error.name));

/** The total size from a Content-Range answer ("bytes 2-5/10"). */
const totalOf = (contentRange: string | undefined) => {
  const total = /\/(\d+)$/.exec(contentRange ?? '')?.[1];
  return total === undefined ? undefined : Number(total);
};

/** Why a bucket cannot be used, in words an owner can act on. */
function explainBucketError(error: unknown, settings: S3Settings): string {
  const where = `the bucket '${settings.bucket}'${settings.endpoint ? ` at ${settings.endpoint}` : ` in ${settings.region}`}`;
  const status = statusOf(error);
  if (status === 404) {
    return `S3_BUCKET: ${where} does not exist: create it, or correct S3_BUCKET / S3_ENDPOINT`;
  }
  if (status === 403 || status === 401) {
    return `S3_BUCKET: access to ${where} was refused: check AWS_ACCESS_KEY_ID / AWS_SECRET_ACCESS_KEY and the key's permissions`;
  }
  if (status === 301 || status === 400) {
    return `S3_REGION: ${where} answered ${status}: the region (${settings.region}) or S3_FORCE_PATH_STYLE may be wrong`;
  }
  const name = error instanceof Error ? error.name : '';
  if (name === 'CredentialsProviderError') {
    return 'No AWS credentials found: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (or AWS_PROFILE, or run with an instance role)';
  }
  const message = error instanceof Error ? error.message : String(error);
  return `S3_ENDPOINT: ${where} could not be reached (${message})`;
}

/** An object's facts from an answer's fields (the SHA-256 from its metadata, where kept). */
function infoOf(
  key: string,
  size: number,
  etag: string | undefined,
  modified?: Date,
  metadata?: Record<string, string>,
): ObjectInfo {
  return {
    key,
    size,
    etag: etag ?? '"0"',
    lastModified: modified ?? new Date(0),
    ...(metadata?.sha256 ? { sha256: metadata.sha256 } : {}),
  };
}

/**
 * What a failed call to the service throws: a failure that is not the service's answer about
 * the request (no answer: refused, reset, timed out; or a 5xx) becomes StorageUnavailableError,
 * which the site answers 503 (the request may be made again once the service is back).
 */
function storageErrorOf(error: unknown, settings: S3Settings): unknown {
  const status = statusOf(error);
  if ((status !== undefined && status < 500) || error instanceof InvalidKeyError) {
    return error;
  }
  const message = error instanceof Error ? error.message : String(error);
  return new StorageUnavailableError(
    `the bucket '${settings.bucket}' could not be used${status ? ` (${status})` : ''}: ${message}`,
    { cause: error },
  );
}

/** Runs one call to the service, its failure as storageErrorOf says. */
async function reaching<T>(settings: S3Settings, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw storageErrorOf(error, settings);
  }
}

/** Writes one object through lib-storage's Upload (multipart above PART_SIZE, 4 parts at once). */
async function putObject(
  client: S3Client,
  settings: S3Settings,
  key: string,
  body: Readable | Buffer,
  options: PutOptions,
) {
  const upload = new Upload({
    client,
    params: {
      Bucket: settings.bucket,
      Key: key,
      Body: body,
      ...(options.contentType ? { ContentType: options.contentType } : {}),
      ...(options.sha256 ? { Metadata: { sha256: options.sha256 } } : {}),
    },
    partSize: PART_SIZE,
    queueSize: 4,
    leavePartsOnError: false,
  });
  await reaching(settings, () => upload.done());
}

/** A storage of the objects under `prefix` in `settings.bucket`. */
export function createS3Storage(
  client: S3Client,
  settings: S3Settings,
  prefix = '',
): ObjectStorage {
  const { bucket } = settings;
  const keyOf = (key: string) => {
    assertKey(key);
    return prefix + key;
  };

  async function list(within: string, limit = Infinity): Promise<ObjectInfo[]> {
    assertPrefix(within);
    const out: ObjectInfo[] = [];
    let token: string | undefined;
    do {
      const page = await reaching(settings, () =>
        client.send(
          new ListObjectsV2Command({
            Bucket: bucket,
            Prefix: prefix + within,
            ContinuationToken: token,
            MaxKeys: Math.min(1000, limit - out.length),
          }),
        ),
      );
      for (const item of page.Contents ?? []) {
        if (item.Key !== undefined) {
          out.push(
            infoOf(item.Key.slice(prefix.length), item.Size ?? 0, item.ETag, item.LastModified),
          );
        }
      }
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined && out.length < limit);
    return out.slice(0, limit);
  }

  // async: a bad key is a rejected promise, as from every other method
  const put = async (key: string, body: Readable | Buffer, options: PutOptions = {}) =>
    putObject(client, settings, keyOf(key), body, options);

  return {
    description: `s3://${bucket}/${prefix}`,
    keepsChecksums: true,
    prefersStreams: true,

    async head(key) {
      try {
        const answer = await client.send(
          new HeadObjectCommand({ Bucket: bucket, Key: keyOf(key) }),
        );
        return infoOf(
          key,
          answer.ContentLength ?? 0,
          answer.ETag,
          answer.LastModified,
          answer.Metadata,
        );
      } catch (error) {
        if (isNotFound(error)) {
          return undefined;
        }
        throw storageErrorOf(error, settings);
      }
    },

    async get(key, range) {
      try {
        const answer = await client.send(
          new GetObjectCommand({
            Bucket: bucket,
            Key: keyOf(key),
            ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
          }),
        );
        const size =
          (range ? totalOf(answer.ContentRange) : undefined) ?? answer.ContentLength ?? 0;
        const body = answer.Body instanceof Readable ? answer.Body : Readable.from([]);
        const info = infoOf(key, size, answer.ETag, answer.LastModified, answer.Metadata);
        return { ...info, body };
      } catch (error) {
        if (isNotFound(error)) {
          return undefined;
        }
        throw storageErrorOf(error, settings);
      }
    },

    put: (key, body, options) => put(key, body, options),

    async importFolder(dir, within) {
      assertPrefix(within);
      // after a failed put the others under way finish first: the caller deleting the prefix
      // then never races a write still in flight
      await forEachBounded(await filesUnder(dir), IMPORT_CONCURRENCY, (file) =>
        put(within + file, createReadStream(path.join(dir, ...file.split('/')))),
      );
    },

    async delete(key) {
      await reaching(settings, () =>
        client.send(new DeleteObjectCommand({ Bucket: bucket, Key: keyOf(key) })),
      );
    },

    list,

    async deletePrefix(within) {
      const found = await list(within);
      for (let start = 0; start < found.length; start += 1000) {
        const batch = found.slice(start, start + 1000);
        await reaching(settings, () =>
          client.send(
            new DeleteObjectsCommand({
              Bucket: bucket,
              Delete: { Objects: batch.map((info) => ({ Key: prefix + info.key })), Quiet: true },
            }),
          ),
        );
      }
      return found.length;
    },

    async check() {
      try {
        await client.send(new HeadBucketCommand({ Bucket: bucket }));
      } catch (error) {
        throw new StorageUnavailableError(explainBucketError(error, settings), { cause: error });
      }
    },

    scoped(within) {
      assertPrefix(within);
      return createS3Storage(client, settings, prefix + within);
    },
  };
}
