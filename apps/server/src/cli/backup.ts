/**
 * Writes one backup archive (tar.gz): the database, the game builds and the uploaded media at one
 * consistent point.
 *   npm run backup [-- --out FILE] [--no-files]
 * Reads DATA_DIR or DATABASE_URL, GAMES_DIR and MEDIA_DIR (or, with STORAGE=s3, the bucket's
 * games/ and media/), as the server does. PostgreSQL is
 * dumped with pg_dump while the site runs. The embedded database (PGlite) allows one process at a
 * time: stop the server first.
 */
import { existsSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';

import { loadConfig } from '../config.js';
import { runCommand } from './run-command.js';
import { openDatabase } from '../db/client.js';
import { StorageUnavailableError } from '../lib/storage/object-storage.js';
import { openBucketSiteStorage } from '../lib/storage/site-storage.js';
import { BackupError, createBackup } from '../modules/backup/archive.js';
import { backupFileFor, USAGE } from './backup-file.js';

async function main(args: string[]): Promise<void> {
  if (args.includes('--help') || args.includes('-h')) {
    console.info(USAGE);
    return;
  }
  const config = loadConfig();
  // npm runs the script in apps/server: --out is relative to where npm was started
  const out = backupFileFor(args, process.env.INIT_CWD ?? process.cwd(), config.dataDir);
  await mkdir(path.dirname(out), { recursive: true });
  const files = !args.includes('--no-files');
  const dirs = {
    gamesDir: config.gamesHost.dir,
    mediaDir: config.media.dir,
    files,
    // the bucket is read only when files go into the archive
    storage:
      files && config.storage.kind === 's3'
        ? await openBucketSiteStorage(config.storage)
        : undefined,
  };
  let manifest;
  if (config.databaseUrl) {
    manifest = await createBackup({ databaseUrl: config.databaseUrl, ...dirs }, out);
  } else {
    const pgliteDir = path.join(config.dataDir, 'pglite');
    if (!existsSync(pgliteDir)) {
      throw new BackupError(`no database in DATA_DIR ${config.dataDir} (${pgliteDir} is missing)`);
    }
    if (existsSync(path.join(pgliteDir, 'postmaster.pid'))) {
      throw new BackupError(
        `The embedded database in ${pgliteDir} is in use: stop the server and retry (PGlite allows one process at a time).`,
      );
    }
    const database = await openDatabase({ dataDir: pgliteDir });
    try {
      manifest = await createBackup({ database, ...dirs }, out);
    } finally {
      await database.close();
    }
  }
  // the development secret made in DATA_DIR also keys two-factor secrets: keep it beside
  const secretFile = path.join(config.dataDir, 'session-secret');
  if (!process.env.SESSION_SECRET && existsSync(secretFile)) {
    await copyFile(secretFile, `${out}.session-secret`);
    console.info(
      `SESSION_SECRET came from ${secretFile}: copied to ${out}.session-secret (keep it with the backup, secret).`,
    );
  }
  const from = dirs.storage ? ` from ${dirs.storage.games.description} and media/` : '';
  console.info(
    files
      ? `Backup written to ${out}: ${manifest.database} database at migration ${manifest.migration}, ${manifest.gameFiles} game files, ${manifest.mediaFiles ?? 0} media files${from}.`
      : `Backup written to ${out}: ${manifest.database} database at migration ${manifest.migration}; game and media files left out (--no-files).`,
  );
}

runCommand('backup', main, [BackupError, StorageUnavailableError]);
