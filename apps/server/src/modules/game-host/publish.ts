import { randomUUID } from 'node:crypto';
import { copyFile, lstat, mkdir, readdir, rm } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';

import { and, eq, isNull, sql } from 'drizzle-orm';

import { formatBytes } from '@portfolio/types/format';
import { describeBuildActivated, describeBuildDeleted } from '@portfolio/types/game-history';

import type { GamesHostConfig } from '../../config.js';
import type { Db } from '../../db/client.js';
import type { ObjectStorage } from '../../lib/storage/object-storage.js';
import { gameBuilds, games, retiredGameVersions } from '../../db/schema.js';
import { conflict, notFound } from '../../lib/errors.js';
import type { Actor } from '../../access/audit.js';
import { SYSTEM_ACTOR_NAME } from '../../access/audit.js';
import { recordGameAudit } from '../../access/game-audit.js';
import type { BuildRow, GameCatalogue } from './catalogue.js';
import { compressBuild } from './compress.js';
import {
  type BuildDetection,
  detectBuild,
  headsIn,
  isLeftOut,
  listLeftOut,
  removeLeftOut,
} from './detect.js';
import { incomingDir, versionPrefix } from './layout.js';
import { headsInZip, writeZipBuild } from './stream-build.js';
import {
  type CheckedZip,
  openCheckedZip,
  receiveUpload,
  type UnpackedFile,
  unpackZip,
} from './zip.js';
import { gameNotFound } from './resolve-game.js';

/*
 * Publishing a build, the one path for an admin's upload and for the demo games
 * imported at first start:
 *
 *   zip → GAMES_DIR/.incoming/<id>.zip (streamed) → checked and unpacked into .incoming/<id>/
 *   → files no browser needs left out (detect.ts: `.exe`, `__MACOSX/`…, listed on the build)
 *   → start page, engine and threads detected → .br/.gz siblings made → in one transaction:
 *   the game row locked, the next version number taken, the folder renamed to
 *   GAMES_DIR/<game>/<version>/ (same file system: one rename), the build row written and,
 *   unless activate=false, live_version swapped.
 *
 * Into a storage that prefers streams (S3: `prefersStreams`), an upload is never unpacked: once
 * its entries are checked, detection reads the heads it needs from the zip, and inside the
 * transaction every kept entry and its .br/.gz siblings stream from the zip into the bucket
 * (stream-build.ts); .incoming holds the zip only. A failure deletes the version's prefix.
 *
 * Everything before the transaction happens in .incoming, so a refused or failed upload
 * changes nothing live. Old versions stay on disk (a player keeps the files they started with;
 * a rollback is one update) until an admin deletes them: the row stays, marked, so that no later
 * build takes its number.
 */

export interface PublishOptions {
  actor: Actor;
  /** Make the new version live (default); false keeps the live one. */
  activate: boolean;
}

export interface Publisher {
  /** Streams a zip request body to disk, checks, unpacks and publishes it as the next version. */
  publishUpload(gameId: string, req: IncomingMessage, options: PublishOptions): Promise<BuildRow>;
  /** Publishes the files of a folder (the demo games) as the next version. */
  publishFolder(
    gameId: string,
    folder: string,
    options: PublishOptions & { sourceHash?: string },
  ): Promise<BuildRow>;
  /** Writes a demo folder's files again where a recorded version's folder is missing. */
  restoreFolder(gameId: string, version: number, folder: string): Promise<void>;
  /** Makes an existing version live (a rollback, or a build uploaded with activate=false). */
  activate(gameId: string, version: number, actor: Actor): Promise<BuildRow>;
  /** Deletes a version that is not live: its files go, its number is never used again. */
  deleteBuild(gameId: string, version: number, actor: Actor): Promise<void>;
}

/**
 * Copies the regular files of `source` into `target` (links and other kinds are skipped),
 * adding each to `copied` (one list for the whole tree: no spreading of a folder's list).
 */
async function copyFolder(
  source: string,
  target: string,
  prefix = '',
  copied: UnpackedFile[] = [],
): Promise<UnpackedFile[]> {
  await mkdir(target, { recursive: true });
  for (const entry of await readdir(source, { withFileTypes: true })) {
    const from = path.join(source, entry.name);
    const to = path.join(target, entry.name);
    if (entry.isDirectory()) {
      await copyFolder(from, to, `${prefix}${entry.name}/`, copied);
    } else if (entry.isFile()) {
      await copyFile(from, to);
      copied.push({ path: `${prefix}${entry.name}`, size: (await lstat(to)).size });
    }
  }
  return copied;
}

/** The first five names, then how many more (a desktop build beside the web one has dozens). */
function someNames(names: readonly string[]): string {
  const more = names.length - 5;
  return names.slice(0, 5).join(' ') + (more > 0 ? ` and ${more} more` : '');
}

function describeBuild(build: BuildRow, isLive: boolean): string {
  const facts = [
    build.engine,
    build.needsThreads ? 'needs threads' : null,
    `${build.files} files`,
    formatBytes(build.bytes),
    build.leftOut.length > 0 ? `left out ${someNames(build.leftOut)}` : null,
  ]
    .filter(Boolean)
    .join(', ');
  return `Version ${build.version} uploaded${isLive ? ' and made live' : ''} (${facts})`;
}

/** What publishing works with. */
interface PublishContext {
  db: Db;
  config: GamesHostConfig;
  catalogue: GameCatalogue;
  /** Where versions are kept: `<gameId>/<version>/<path>`. */
  storage: ObjectStorage;
}

/** A build ready to commit: its facts, and how its objects get written. */
interface PreparedBuild {
  /** The files kept (left-out ones dropped), with their sizes. */
  files: ReadonlyArray<{ path: string; size: number }>;
  leftOut: string[];
  detection: BuildDetection;
  /** Writes the build's objects under `prefix`; answers compressedBytes. */
  write(prefix: string): Promise<number>;
}

/** An unpacked build in `dir`: detected, compressed, then imported whole (moved away). */
async function prepareFolder(
  storage: ObjectStorage,
  dir: string,
  unpacked: UnpackedFile[],
): Promise<PreparedBuild> {
  const { kept: files, leftOut } = await removeLeftOut(dir, unpacked);
  const detection = await detectBuild(
    files.map((file) => file.path),
    headsIn(dir),
  );
  const { compressedBytes } = await compressBuild(dir, files);
  const write = async (prefix: string) => {
    await storage.importFolder(dir, prefix);
    return compressedBytes;
  };
  return { files, leftOut, detection, write };
}

/** A checked zip, written entry by entry from the zip (stream-build.ts): no unpacked copy. */
async function prepareZip(storage: ObjectStorage, zip: CheckedZip): Promise<PreparedBuild> {
  const kept = zip.files.filter((file) => !isLeftOut(file.path));
  const files = kept.map((file) => ({ path: file.path, size: file.entry.uncompressedSize }));
  const detection = await detectBuild(
    files.map((file) => file.path),
    headsInZip(zip),
  );
  const leftOut = listLeftOut(zip.files.map((file) => file.path));
  const write = (prefix: string) => writeZipBuild(storage, zip, kept, prefix);
  return { files, leftOut, detection, write };
}

/** Commits a prepared build as the game's next version (live unless activate=false). */
async function commitBuild(
  { db, catalogue, storage }: PublishContext,
  gameId: string,
  prepared: PreparedBuild,
  options: PublishOptions & { sourceHash?: string },
): Promise<BuildRow> {
  const { files, leftOut, detection } = prepared;
  const bytes = files.reduce((sum, file) => sum + file.size, 0);
  // the version's objects once written: removed again if the commit fails after them
  let written: string | undefined;
  const build = await db
    .transaction(async (tx) => {
      const [game] = await tx.select().from(games).where(eq(games.id, gameId)).for('update');
      if (!game) {
        throw gameNotFound(gameId);
      }
      const [latest] = await tx
        .select({ version: sql<number | null>`max(${gameBuilds.version})` })
        .from(gameBuilds)
        .where(eq(gameBuilds.gameId, gameId));
      // a game deleted under this id had numbers too: never reused (their files may be cached)
      const [retired] = await tx
        .select({ version: retiredGameVersions.lastVersion })
        .from(retiredGameVersions)
        .where(eq(retiredGameVersions.gameId, gameId));
      const version = Math.max(Number(latest?.version ?? 0), retired?.version ?? 0) + 1;
      const prefix = versionPrefix(gameId, version);
      // objects left by a commit that failed after writing them: never recorded, never served
      await storage.deletePrefix(prefix);
      written = prefix;
      const compressedBytes = await prepared.write(prefix);
      const now = new Date();
      const [inserted] = await tx
        .insert(gameBuilds)
        .values({
          gameId,
          version,
          engine: detection.engine,
          entry: detection.entry,
          needsThreads: detection.needsThreads,
          files: files.length,
          bytes,
          compressedBytes,
          leftOut,
          uploadedBy: options.actor?.username ?? SYSTEM_ACTOR_NAME,
          wentLiveAt: options.activate ? now : null,
          sourceHash: options.sourceHash ?? null,
        })
        .returning();
      if (!inserted) {
        throw new Error('build insert returned nothing');
      }
      if (options.activate) {
        await swapLive(tx, gameId, game.liveVersion, version, now);
      }
      await recordGameAudit(tx, {
        action: 'build-upload',
        actor: options.actor,
        gameId,
        detail: describeBuild(inserted, options.activate),
      });
      return inserted;
    })
    .catch(async (error: unknown) => {
      if (written !== undefined) {
        await storage.deletePrefix(written).catch(() => undefined);
      }
      throw error;
    });
  await catalogue.changed();
  return build;
}

/** live_version → `version`; the old live build is marked replaced (it serves a while longer). */
async function swapLive(
  tx: Db,
  gameId: string,
  oldVersion: number | null,
  version: number,
  now: Date,
): Promise<void> {
  if (oldVersion !== null && oldVersion !== version) {
    await tx
      .update(gameBuilds)
      .set({ replacedAt: now })
      .where(and(eq(gameBuilds.gameId, gameId), eq(gameBuilds.version, oldVersion)));
  }
  await tx
    .update(gameBuilds)
    .set({ wentLiveAt: now, replacedAt: null })
    .where(and(eq(gameBuilds.gameId, gameId), eq(gameBuilds.version, version)));
  await tx.update(games).set({ liveVersion: version, updatedAt: now }).where(eq(games.id, gameId));
}

/** The game row (locked for the transaction) and one of its builds that was not deleted. */
async function lockBuild(tx: Db, gameId: string, version: number) {
  const [game] = await tx.select().from(games).where(eq(games.id, gameId)).for('update');
  if (!game) {
    throw gameNotFound(gameId);
  }
  const [build] = await tx
    .select()
    .from(gameBuilds)
    .where(
      and(
        eq(gameBuilds.gameId, gameId),
        eq(gameBuilds.version, version),
        isNull(gameBuilds.deletedAt),
      ),
    );
  if (!build) {
    throw notFound(`${game.title} has no version ${version}`);
  }
  return { game, build };
}

/**
 * Publishes the received `zipFile`: into a storage that prefers streams, entry by entry from the
 * zip; else unpacked into `dir` (the zip removed first: one copy on disk at a time), then moved.
 */
async function publishZip(
  deps: PublishContext,
  gameId: string,
  { zipFile, dir }: { zipFile: string; dir: string },
  options: PublishOptions,
): Promise<BuildRow> {
  const { config, storage } = deps;
  const limits = {
    maxFiles: config.zipMaxFiles,
    maxUnpackedBytes: config.zipMaxUnpackedBytes,
    maxRatio: config.zipMaxRatio,
  };
  if (storage.prefersStreams) {
    const zip = await openCheckedZip(zipFile, limits);
    try {
      return await commitBuild(deps, gameId, await prepareZip(storage, zip), options);
    } finally {
      zip.close();
    }
  }
  const files = await unpackZip(zipFile, dir, limits);
  await rm(zipFile, { force: true });
  return await commitBuild(deps, gameId, await prepareFolder(storage, dir, files), options);
}

export function createPublisher(deps: PublishContext): Publisher {
  const { db, config, catalogue, storage } = deps;
  const incoming = incomingDir(config.dir);

  const staging = async () => {
    await mkdir(incoming, { recursive: true });
    return path.join(incoming, randomUUID());
  };

  return {
    async publishUpload(gameId, req, options) {
      const dir = await staging();
      const zipFile = `${dir}.zip`;
      try {
        await receiveUpload(req, zipFile, config.uploadMaxBytes);
        return await publishZip(deps, gameId, { zipFile, dir }, options);
      } finally {
        await Promise.all([
          rm(zipFile, { force: true }),
          rm(dir, { recursive: true, force: true }),
        ]);
      }
    },

    async publishFolder(gameId, folder, options) {
      const dir = await staging();
      try {
        const files = await copyFolder(folder, dir);
        return await commitBuild(deps, gameId, await prepareFolder(storage, dir, files), options);
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },

    async restoreFolder(gameId, version, folder) {
      const dir = await staging();
      try {
        const files = await copyFolder(folder, dir);
        await compressBuild(dir, files);
        // another process sharing the storage may have restored it first: theirs is the same
        await storage.importFolder(dir, versionPrefix(gameId, version));
      } finally {
        await rm(dir, { recursive: true, force: true });
      }
    },

    async activate(gameId, version, actor) {
      const build = await db.transaction(async (tx) => {
        const { game, build: found } = await lockBuild(tx, gameId, version);
        if (game.liveVersion === version) {
          return found;
        }
        const now = new Date();
        await swapLive(tx, gameId, game.liveVersion, version, now);
        await recordGameAudit(tx, {
          action: 'build-activate',
          actor,
          gameId,
          detail: describeBuildActivated(version, game.liveVersion),
        });
        return { ...found, wentLiveAt: now, replacedAt: null };
      });
      await catalogue.changed();
      return build;
    },

    async deleteBuild(gameId, version, actor) {
      await db.transaction(async (tx) => {
        const { game, build } = await lockBuild(tx, gameId, version);
        if (game.liveVersion === version) {
          throw conflict(
            `Version ${version} is live: make another version live before deleting it`,
          );
        }
        await tx
          .update(gameBuilds)
          .set({ deletedAt: new Date() })
          .where(and(eq(gameBuilds.gameId, gameId), eq(gameBuilds.version, version)));
        await recordGameAudit(tx, {
          action: 'build-delete',
          actor,
          gameId,
          detail: describeBuildDeleted(version, build.bytes),
        });
      });
      await catalogue.changed();
      await storage.deletePrefix(versionPrefix(gameId, version));
    },
  };
}
