/**
 * Brings a backup archive back into an empty data folder or database:
 *   npm run restore -- FILE
 * Reads DATA_DIR or DATABASE_URL (an existing, empty database), GAMES_DIR and MEDIA_DIR (or, with
 * STORAGE=s3, the bucket's games/ and media/), as the server does; refuses a target that already
 * holds data. Start the server on it afterwards: it
 * applies any newer migrations as usual. The site's SESSION_SECRET must be the one the backup was
 * made with (two-factor secrets are encrypted with it).
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';

import { dataDirFrom, loadConfig } from '../config.js';
import { runCommand } from './run-command.js';
import { StorageUnavailableError } from '../lib/storage/object-storage.js';
import { openBucketSiteStorage } from '../lib/storage/site-storage.js';
import { BackupError, restoreBackup } from '../modules/backup/archive.js';

const USAGE = 'Usage: npm run restore -- FILE';

async function main(args: string[]): Promise<void> {
  const positional = args.filter((arg) => !arg.startsWith('-'));
  if (args.includes('--help') || args.includes('-h') || positional.length !== 1) {
    throw new BackupError(USAGE);
  }
  const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), positional[0] ?? '');
  // a development secret travels beside the archive: put it in place before loadConfig makes one
  const secretCopy = `${file}.session-secret`;
  const dataDir = dataDirFrom();
  if (!process.env.SESSION_SECRET && existsSync(secretCopy)) {
    const secretFile = path.join(dataDir, 'session-secret');
    if (!existsSync(secretFile)) {
      await mkdir(dataDir, { recursive: true });
      await copyFile(secretCopy, secretFile);
    }
  }
  const config = loadConfig();
  const storage =
    config.storage.kind === 's3' ? await openBucketSiteStorage(config.storage) : undefined;
  const manifest = await restoreBackup(file, {
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    gamesDir: config.gamesHost.dir,
    mediaDir: config.media.dir,
    storage,
  });
  const [games, media] = storage
    ? [storage.games.description, storage.media.description]
    : [config.gamesHost.dir, config.media.dir];
  const files = manifest.filesLeftOut
    ? 'no files (the archive was made with --no-files: the files were left where they are)'
    : `${manifest.gameFiles} game files into ${games}, ${manifest.mediaFiles ?? 0} media files into ${media}`;
  console.info(
    `Restored ${file} (made ${manifest.createdAt}, migration ${manifest.migration}): ${manifest.database} database into ${config.databaseUrl ? 'DATABASE_URL' : config.dataDir}, ${files}.`,
  );
}

runCommand('restore', main, [BackupError, StorageUnavailableError]);
