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
 * StorageUnavailableError naming the setting to fix).
 */
export async function openBucketSiteStorage(settings: S3Settings): Promise<SiteStorage> {
  const bucket = createS3Storage(createS3Client(settings), settings);
  await bucket.check();
  return { games: bucket.scoped('games/'), media: bucket.scoped('media/') };
}
