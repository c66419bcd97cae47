import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, link, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

import { type Database, MIGRATIONS_DIR, PGLITE_EXTENSIONS } from '../../db/client.js';
import type { SiteStorage } from '../../lib/storage/site-storage.js';
import { isStorageEmpty, putFiles, stageObjects, StorageFilesError } from './storage-files.js';
import { tarEntries, TarFormatError } from './tar-entries.js';

/**
 * One backup is one tar.gz: `manifest.json`, the database (`database/pglite.tar`, PGlite's own
 * dump of its data directory, or `database/postgres.dump`, pg_dump's custom format), the game
 * builds (`games/<game>/<version>/…`, GAMES_DIR as it is served) and the uploaded media
 * (`media/<file>`, MEDIA_DIR without its `.incoming` work area).
 *
 * A consistent point: builds are immutable per version folder (a publish renames a finished
 * folder in inside its transaction; a delete removes the folder after its transaction), and
 * media files are named by their bytes (an upload renames its files in before its row is
 * inserted; a delete removes the row before the files). So the builds and the media are linked
 * into the archive's staging folder first, then the database is dumped (one snapshot: pg_dump's
 * transaction, or PGlite's single connection), then any version folder or media file that
 * appeared meanwhile is added: every build and media item the dump names has its files, whatever
 * ran meanwhile (files of items deleted meanwhile may be in it too, unnamed and harmless).
 * With STORAGE=s3 the same two passes read the bucket's games/ and media/ objects instead
 * (storage-files.ts), into the same paths: an archive does not say where its files were kept.
 */

const run = promisify(execFile);

/** 2: adds `media/` and `mediaFiles`. Format 1 archives (no media) still restore. */
export const BACKUP_FORMAT = 2;
const READABLE_FORMATS = [1, 2];

export interface BackupManifest {
  format: number;
  createdAt: string;
  database: 'pglite' | 'postgres';
  /** The last migration applied (drizzle's journal tag), e.g. 0015_mail. */
  migration: string;
  /** Files of game builds in the archive. */
  gameFiles: number;
  /** Uploaded media files in the archive (missing in format 1, which has none). */
  mediaFiles?: number;
  /**
   * The game and media files were left out (`backup --no-files`: a bucket with versioning keeps
   * them); restore then brings back the database only and leaves the files where they are.
   */
  filesLeftOut?: boolean;
}

export class BackupError extends Error {}

/** The tag of the newest migration this code has (drizzle/meta/_journal.json). */
export async function latestMigration(): Promise<{ index: number; tag: string }> {
  const journal = JSON.parse(
    await readFile(path.join(MIGRATIONS_DIR, 'meta', '_journal.json'), 'utf8'),
  ) as { entries: { idx: number; tag: string }[] };
  const last = journal.entries.at(-1);
  if (!last) {
    throw new BackupError('no migrations found');
  }
  return { index: last.idx, tag: last.tag };
}

/**
 * Hard links where possible (same file system, no bytes copied), copies otherwise. What is deleted
 * while it runs is left out: a build's or media item's row is deleted before its files, so the
 * dump that follows does not name it.
 */
async function linkTree(from: string, to: string, skip: (name: string) => boolean) {
  await mkdir(to, { recursive: true });
  const entries = await readdir(from, { withFileTypes: true }).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return [];
    }
    throw error;
  });
  for (const entry of entries) {
    if (skip(entry.name)) {
      continue;
    }
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) {
      await linkTree(source, target, () => false);
    } else if (entry.isFile() && !existsSync(target)) {
      await link(source, target)
        .catch(() => cp(source, target))
        .catch((error: unknown) => {
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || existsSync(source)) {
            throw error;
          }
        });
    }
  }
}

async function countFiles(dir: string): Promise<number> {
  if (!existsSync(dir)) {
    return 0;
  }
  let count = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) {
      count++;
    }
  }
  return count;
}

/** Uploads in progress (each folder's `.incoming`) and other dot entries are not archived. */
const isWorkArea = (name: string) => name.startsWith('.');

export interface BackupSource {
  /** An open database: PGlite is dumped through it (the process that owns it). */
  database?: Database;
  /** PostgreSQL: dumped with pg_dump (one snapshot). */
  databaseUrl?: string | undefined;
  gamesDir: string;
  mediaDir: string;
  /** STORAGE=s3: the files are read from the bucket instead of the folders. */
  storage?: SiteStorage | undefined;
  /** false: the archive holds the database only (`--no-files`). */
  files?: boolean;
}

/** Brings the site's files into the stage (again: adds what appeared since). */
async function stageFiles(source: BackupSource, stage: string): Promise<void> {
  if (source.files === false) {
    return;
  }
  if (source.storage) {
    try {
      await stageObjects(source.storage.games, path.join(stage, 'games'));
      await stageObjects(source.storage.media, path.join(stage, 'media'));
    } catch (error) {
      throw error instanceof StorageFilesError ? new BackupError(error.message) : error;
    }
    return;
  }
  for (const [from, to] of [
    [source.gamesDir, path.join(stage, 'games')],
    [source.mediaDir, path.join(stage, 'media')],
  ] as const) {
    if (existsSync(from)) {
      await linkTree(from, to, isWorkArea);
    }
  }
}

/** Writes one archive to `out`; returns its manifest. */
export async function createBackup(source: BackupSource, out: string): Promise<BackupManifest> {
  const target = path.resolve(out);
  await mkdir(path.dirname(target), { recursive: true });
  // staged beside the archive: the games are hard-linked, which needs the same file system
  const stage = await mkdtemp(path.join(path.dirname(target), '.backup-'));
  try {
    // the files: GAMES_DIR (or games/) to games/, MEDIA_DIR to media/: before the dump and after
    await stageFiles(source, stage);
    await mkdir(path.join(stage, 'database'));
    let kind: BackupManifest['database'];
    if (source.databaseUrl) {
      kind = 'postgres';
      await dumpPostgres(source.databaseUrl, path.join(stage, 'database', 'postgres.dump'));
    } else if (source.database?.dumpDataDir) {
      kind = 'pglite';
      const dump = await source.database.dumpDataDir();
      await writeFile(
        path.join(stage, 'database', 'pglite.tar'),
        Buffer.from(await dump.arrayBuffer()),
      );
    } else {
      throw new BackupError('no database to back up');
    }
    // builds published and media uploaded while the database was dumped
    await stageFiles(source, stage);
    const manifest: BackupManifest = {
      format: BACKUP_FORMAT,
      createdAt: new Date().toISOString(),
      database: kind,
      migration: (await latestMigration()).tag,
      gameFiles: await countFiles(path.join(stage, 'games')),
      mediaFiles: await countFiles(path.join(stage, 'media')),
      ...(source.files === false ? { filesLeftOut: true } : {}),
    };
    await writeFile(path.join(stage, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    const partial = `${target}.partial`;
    await run('tar', ['-czf', partial, '-C', stage, '.'], { maxBuffer: 16 * 1024 * 1024 });
    await rm(target, { force: true });
    await cp(partial, target);
    await rm(partial, { force: true });
    return manifest;
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

async function dumpPostgres(databaseUrl: string, file: string) {
  try {
    // one transaction snapshot for the whole dump (pg_dump's own REPEATABLE READ)
    await run(
      'pg_dump',
      ['--format=custom', '--no-owner', '--no-privileges', '-f', file, databaseUrl],
      {
        maxBuffer: 16 * 1024 * 1024,
      },
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new BackupError(
        "pg_dump was not found: install the PostgreSQL client tools (Debian: postgresql-client) of the server's version or newer",
      );
    }
    throw new BackupError(
      `pg_dump failed: ${String((error as { stderr?: string }).stderr ?? error)}`,
    );
  }
}

export interface RestoreTarget {
  /** PostgreSQL: an existing, empty database. */
  databaseUrl?: string | undefined;
  /** PGlite: DATA_DIR (the database goes to DATA_DIR/pglite, which must not hold one). */
  dataDir: string;
  /** Must be missing or empty. */
  gamesDir: string;
  /** Must be missing or empty. */
  mediaDir: string;
  /** STORAGE=s3: the files go into the bucket's games/ and media/, which must be empty. */
  storage?: SiteStorage | undefined;
}

/** Refuses a place for the files that already holds some (unless the archive has none). */
async function checkFileTargets(manifest: BackupManifest, target: RestoreTarget): Promise<void> {
  if (manifest.filesLeftOut) {
    return;
  }
  if (target.storage) {
    for (const name of ['games', 'media'] as const) {
      const storage = target.storage[name];
      if (!(await isStorageEmpty(storage))) {
        throw new BackupError(
          `The bucket's ${name}/ (${storage.description}) is not empty: restore into an empty bucket (or another S3_BUCKET), or empty ${name}/ first`,
        );
      }
    }
    return;
  }
  if (!(await isEmptyDir(target.gamesDir))) {
    throw new BackupError(
      `GAMES_DIR ${target.gamesDir} is not empty: restore into an empty folder (move it aside first)`,
    );
  }
  if (!(await isEmptyDir(target.mediaDir))) {
    throw new BackupError(
      `MEDIA_DIR ${target.mediaDir} is not empty: restore into an empty folder (move it aside first)`,
    );
  }
}

/** The archive's games/ and media/ into the folders or the bucket. */
async function restoreFiles(stage: string, manifest: BackupManifest, target: RestoreTarget) {
  if (manifest.filesLeftOut) {
    return;
  }
  if (target.storage) {
    await putFiles(path.join(stage, 'games'), target.storage.games);
    await putFiles(path.join(stage, 'media'), target.storage.media);
    return;
  }
  for (const [from, to] of [
    [path.join(stage, 'games'), target.gamesDir],
    [path.join(stage, 'media'), target.mediaDir],
  ] as const) {
    await mkdir(to, { recursive: true });
    if (existsSync(from)) {
      await cp(from, to, { recursive: true });
    }
  }
}

async function isEmptyDir(dir: string): Promise<boolean> {
  if (!existsSync(dir)) {
    return true;
  }
  if (!(await stat(dir)).isDirectory()) {
    return false;
  }
  return (await readdir(dir)).length === 0;
}

async function postgresIsEmpty(databaseUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: number }>(
      `select count(*)::int as count from pg_tables
       where schemaname not in ('pg_catalog', 'information_schema')`,
    );
    return Number(rows[0]?.count ?? 0) === 0;
  } finally {
    await client.end();
  }
}

/** What an archive may hold at its top: the manifest and the three folders restore reads. */
const ARCHIVE_TOP = new Set(['manifest.json', 'database', 'games', 'media']);

/**
 * Refuses an archive holding anything but files and folders under its known top-level names,
 * before anything is unpacked: a link, a device or a FIFO unpacked into GAMES_DIR or MEDIA_DIR
 * would be served by the site (a link to /etc/passwd read through it), and a `../` or absolute
 * name would write outside the targets. The first such entry is named.
 */
async function checkArchiveEntries(archive: string): Promise<void> {
  const refuse = (name: string, why: string) =>
    new BackupError(
      `${archive}: the entry ${JSON.stringify(name)} ${why}; nothing was restored. A backup of this site holds only files and folders under manifest.json, database/, games/ and media/.`,
    );
  try {
    for await (const entry of tarEntries(archive)) {
      if (entry.kind !== 'file' && entry.kind !== 'directory') {
        const target = entry.linkName ? ` (to ${JSON.stringify(entry.linkName)})` : '';
        throw refuse(entry.name, `is a ${entry.kind}${target}`);
      }
      const segments = entry.name.split('/').filter((segment) => segment !== '' && segment !== '.');
      if (entry.name.startsWith('/') || entry.name.includes('\\')) {
        throw refuse(entry.name, 'has an absolute or backslashed path');
      }
      if (segments.includes('..')) {
        throw refuse(entry.name, 'has a path that climbs out of the archive (..)');
      }
      const [top] = segments;
      if (top === undefined) {
        continue; // the archive's own folder, "./"
      }
      if (!ARCHIVE_TOP.has(top) || (top === 'manifest.json' && segments.length > 1)) {
        throw refuse(entry.name, 'is outside what a backup restores');
      }
    }
  } catch (error) {
    if (error instanceof TarFormatError) {
      throw new BackupError(`${archive} is not a readable tar.gz: ${error.message}`);
    }
    if (error instanceof BackupError) {
      throw error;
    }
    throw new BackupError(
      `${archive} is not a readable tar.gz: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/**
 * What tar unpacked, checked again before it is used: only files and folders (the archive's
 * headers were read the way tar reads them; this holds even where the two readings differ).
 */
async function checkUnpacked(stage: string, archive: string): Promise<void> {
  for (const entry of await readdir(stage, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() && !entry.isDirectory()) {
      const name = path.relative(stage, path.join(entry.parentPath, entry.name));
      throw new BackupError(
        `${archive}: the entry ${JSON.stringify(name)} is not a file or a folder; nothing was restored`,
      );
    }
  }
}

/** Brings an archive back into an empty data folder or database; returns its manifest. */
export async function restoreBackup(file: string, target: RestoreTarget): Promise<BackupManifest> {
  const archive = path.resolve(file);
  if (!existsSync(archive)) {
    throw new BackupError(`${archive}: no such file`);
  }
  await checkArchiveEntries(archive);
  // staged beside GAMES_DIR: the builds are then moved in on the same file system
  const parent = path.dirname(path.resolve(target.gamesDir));
  await mkdir(parent, { recursive: true });
  const stage = await mkdtemp(path.join(parent, '.restore-'));
  try {
    await run('tar', ['-xzf', archive, '-C', stage]);
    await checkUnpacked(stage, archive);
    let manifest: BackupManifest;
    try {
      manifest = JSON.parse(
        await readFile(path.join(stage, 'manifest.json'), 'utf8'),
      ) as BackupManifest;
    } catch {
      throw new BackupError(`${archive} is not a backup of this site (no manifest.json)`);
    }
    if (!READABLE_FORMATS.includes(manifest.format)) {
      throw new BackupError(
        `${archive} has backup format ${manifest.format}; this version reads formats ${READABLE_FORMATS.join(' and ')}`,
      );
    }
    manifest.mediaFiles ??= 0;
    const latest = await latestMigration();
    const archiveIndex = Number.parseInt(manifest.migration, 10);
    if (Number.isFinite(archiveIndex) && archiveIndex > latest.index) {
      throw new BackupError(
        `${archive} was made by a newer version (migration ${manifest.migration}; this one knows up to ${latest.tag}): restore it with that version`,
      );
    }
    await checkFileTargets(manifest, target);
    const toPostgres = Boolean(target.databaseUrl);
    if (toPostgres !== (manifest.database === 'postgres')) {
      // the archive's database moves between the two only through a PostgreSQL dump
      throw new BackupError(
        `${archive} holds a ${manifest.database === 'postgres' ? 'PostgreSQL' : 'PGlite'} database; ` +
          (toPostgres
            ? 'unset DATABASE_URL to restore it into DATA_DIR'
            : 'set DATABASE_URL to an empty PostgreSQL database to restore it'),
      );
    }
    if (target.databaseUrl) {
      if (!(await postgresIsEmpty(target.databaseUrl))) {
        throw new BackupError(
          'the database DATABASE_URL names is not empty: restore into a new, empty database',
        );
      }
      await restorePostgres(target.databaseUrl, path.join(stage, 'database', 'postgres.dump'));
    } else {
      const pgliteDir = path.join(target.dataDir, 'pglite');
      if (!(await isEmptyDir(pgliteDir))) {
        throw new BackupError(
          `DATA_DIR ${target.dataDir} already holds a database (${pgliteDir}): restore into an empty DATA_DIR`,
        );
      }
      const dump = await readFile(path.join(stage, 'database', 'pglite.tar'));
      await mkdir(pgliteDir, { recursive: true });
      const client = await PGlite.create(pgliteDir, {
        extensions: PGLITE_EXTENSIONS,
        loadDataDir: new Blob([dump]),
      });
      await client.close();
    }
    await restoreFiles(stage, manifest, target);
    return manifest;
  } finally {
    await rm(stage, { recursive: true, force: true });
  }
}

async function restorePostgres(databaseUrl: string, file: string) {
  try {
    await run(
      'pg_restore',
      [
        '--no-owner',
        '--no-privileges',
        '--exit-on-error',
        '--single-transaction',
        '-d',
        databaseUrl,
        file,
      ],
      { maxBuffer: 16 * 1024 * 1024 },
    );
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new BackupError(
        'pg_restore was not found: install the PostgreSQL client tools (Debian: postgresql-client)',
      );
    }
    throw new BackupError(
      `pg_restore failed: ${String((error as { stderr?: string }).stderr ?? error)}`,
    );
  }
}
