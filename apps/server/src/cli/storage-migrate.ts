/**
 * Copies the site's files between its folders and its bucket, so an owner can switch STORAGE
 * without losing a file:
 *   npm run storage:migrate [-- --to s3|local] [--concurrency N]
 * Run with the bucket's settings (STORAGE=s3, S3_BUCKET, …) and the folders' (DATA_DIR or
 * GAMES_DIR / MEDIA_DIR) as the server has them. Resumable; nothing is deleted on either side.
 */
import { existsSync } from 'node:fs';

import { type Config, loadConfig } from '../config.js';
import { CliError, runCommand } from './run-command.js';
import { type MigrationArea, migrateStorage } from '../lib/storage/migrate.js';
import { StorageUnavailableError } from '../lib/storage/object-storage.js';
import { localSiteStorage, openBucketSiteStorage } from '../lib/storage/site-storage.js';
import { migrationProgress, summaryLines } from './migrate-progress.js';

const USAGE = `Usage: npm run storage:migrate [-- --to s3|local] [--concurrency N]

--to s3 (the default) copies GAMES_DIR and MEDIA_DIR into the bucket (games/, media/);
--to local copies the bucket's games/ and media/ into the folders. Uploads in progress
(.incoming) are not copied, and nothing is deleted on either side. Objects already at the
destination with the same size and SHA-256 are skipped, so a stopped run is finished by
running it again. Needs STORAGE=s3 with S3_BUCKET and S3_REGION (and S3_ENDPOINT,
credentials) as the server will use them. --concurrency: objects copied at once (1-32, 4).`;

interface MigrateArgs {
  to: 's3' | 'local';
  concurrency: number;
}

function valueAfter(args: string[], flag: string): string | undefined {
  const at = args.indexOf(flag);
  if (at === -1) {
    return undefined;
  }
  const value = args[at + 1];
  if (value === undefined || value.startsWith('-')) {
    throw new CliError(`${flag} needs a value\n\n${USAGE}`);
  }
  return value;
}

/** The command line, or CliError saying what is wrong with it. */
function parseMigrateArgs(args: string[]): MigrateArgs {
  const known = new Set(['--to', '--concurrency']);
  const unknown = args.find((arg) => arg.startsWith('-') && !known.has(arg));
  if (unknown) {
    throw new CliError(`Unknown option ${unknown}\n\n${USAGE}`);
  }
  const to = valueAfter(args, '--to') ?? 's3';
  if (to !== 's3' && to !== 'local') {
    throw new CliError(`--to must be 's3' or 'local', not '${to}'\n\n${USAGE}`);
  }
  const concurrency = Number(valueAfter(args, '--concurrency') ?? 4);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 32) {
    throw new CliError(`--concurrency must be a whole number from 1 to 32\n\n${USAGE}`);
  }
  return { to, concurrency };
}

/** The two areas to copy, after checking the settings and the bucket. */
async function areasFor(config: Config, to: MigrateArgs['to']): Promise<MigrationArea[]> {
  if (config.storage.kind !== 's3') {
    throw new CliError(
      'STORAGE is not s3: storage:migrate copies between the folders and the bucket the S3 settings name. Run it with STORAGE=s3, S3_BUCKET and S3_REGION (S3_ENDPOINT, AWS_* credentials) set as the server will use them.',
    );
  }
  const bucket = await openBucketSiteStorage(config.storage);
  const dirs = { gamesDir: config.gamesHost.dir, mediaDir: config.media.dir };
  if (to === 's3') {
    const missing = Object.entries({ GAMES_DIR: dirs.gamesDir, MEDIA_DIR: dirs.mediaDir }).filter(
      ([, dir]) => !existsSync(dir),
    );
    if (missing.length === 2) {
      throw new CliError(
        `Nothing to copy: neither GAMES_DIR (${dirs.gamesDir}) nor MEDIA_DIR (${dirs.mediaDir}) exists. Set DATA_DIR (or GAMES_DIR and MEDIA_DIR) to the folders the server used.`,
      );
    }
    for (const [name, dir] of missing) {
      console.warn(`${name} ${dir} does not exist: nothing to copy from it.`);
    }
  }
  const folders = localSiteStorage(dirs);
  return (['games', 'media'] as const).map((name) =>
    to === 's3'
      ? { name, from: folders[name], to: bucket[name] }
      : { name, from: bucket[name], to: folders[name] },
  );
}

async function main(args: string[]): Promise<void> {
  if (args.includes('--help') || args.includes('-h')) {
    console.info(USAGE);
    return;
  }
  const { to, concurrency } = parseMigrateArgs(args);
  const config = loadConfig();
  const areas = await areasFor(config, to);
  for (const area of areas) {
    console.info(`Copying ${area.name}: ${area.from.description} → ${area.to.description}`);
  }
  const progress = migrationProgress(process.stderr);
  const summary = await migrateStorage(areas, { concurrency, ...progress });
  progress.finish();
  for (const line of summaryLines(summary, to === 's3' ? 'To the bucket' : 'To the folders')) {
    console.info(line);
  }
  if (summary.failed.length > 0) {
    process.exitCode = 1;
  }
}

runCommand('storage-migrate', main, [StorageUnavailableError]);
