import { createCachedStorage } from './cached-storage.js';
import { DiskCache } from './disk-cache.js';
import { createLocalStorage } from './local-storage.js';
import type { ObjectStorage } from './object-storage.js';
import { createS3Client, createS3Storage, type S3Settings } from './s3-storage.js';

/** The site's two storages: game builds (with thumbnails and icons) and uploaded media. */
export interface SiteStorage {
  games: ObjectStorage;
  media: ObjectStorage;
}

/** GAMES_DIR and MEDIA_DIR (media never follows links). */
export function localSiteStorage(dirs: { gamesDir: string; mediaDir: string }): SiteStorage {
  return {
    games: createLocalStorage(dirs.gamesDir),
    media: createLocalStorage(dirs.mediaDir, { followLinks: false }),
  };
}

/**
 * The bucket's `games/` and `media/`, after checking that the bucket answers (else
 * StorageUnavailableError naming the setting to fix); read through a local disk cache when
 * `cache` is given (the server's, unless STORAGE_CACHE_MAX_MB=0; never the command-line tools').
 */
export async function openBucketSiteStorage(
  settings: S3Settings,
  cache?: Parameters<typeof DiskCache.open>[0],
): Promise<SiteStorage> {
  const s3 = createS3Storage(createS3Client(settings), settings);
  await s3.check();
  const bucket = cache ? createCachedStorage(s3, await DiskCache.open(cache)) : s3;
  return { games: bucket.scoped('games/'), media: bucket.scoped('media/') };
}
