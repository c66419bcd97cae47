import { asc, isNull } from 'drizzle-orm';

import { decideGameAccess, type Role } from '@portfolio/types';
import type { AdminGame, GameBuild, GameEntry, GameFrameSize } from '@portfolio/types/game-host';
import { DEFAULT_GAME_ROOM_SETTINGS } from '@portfolio/types/rooms';

import type { Db } from '../../db/client.js';
import { gameBuilds, games } from '../../db/schema.js';
import type { InvalidationBus } from '../../lib/invalidation-bus.js';
import type { GameGrants } from './grants.js';
import type { GameHostCatalogue, HostedGame } from './layout.js';
import { moduleLogger } from '../../lib/logger.js';

const log = moduleLogger('game-host');

/*
 * The game catalogue in memory: every game and build row, read once at start and
 * again after every change, in this process at once and in the others through the invalidation
 * bus (a message no user id can equal). The catalogue is small (tens of games), so a change
 * simply reads it all again; requests (GET /api/games, every file of the games origin) never
 * wait for the database.
 */

export type GameRow = typeof games.$inferSelect;
export type BuildRow = typeof gameBuilds.$inferSelect;

export interface GameRecord {
  game: GameRow;
  /** Newest first. */
  builds: BuildRow[];
}

/** The bus message that means "the game catalogue changed": not a user id (those are uuids). */
export const CATALOGUE_CHANGED = 'game-host:catalogue';

/** A version that stopped being live keeps serving this long (a player keeps their files). */
export const RETIRED_VERSION_GRACE_MS = 24 * 60 * 60 * 1000;

export interface GameCatalogue extends GameHostCatalogue {
  /** Every game, in the admin's order. */
  list(): readonly GameRecord[];
  get(gameId: string): GameRecord | undefined;
  /** Reads the catalogue again (this process only). */
  refresh(): Promise<void>;
  /** After a change: reads it again here and tells the other processes. */
  changed(): Promise<void>;
}

export function createGameCatalogue(deps: {
  db: Db;
  bus: InvalidationBus;
  now?: () => number;
}): GameCatalogue {
  const { db, bus } = deps;
  const now = deps.now ?? Date.now;
  let records: GameRecord[] = [];
  let byId = new Map<string, GameRecord>();
  let loading: Promise<void> = Promise.resolve();

  const load = async () => {
    const [gameRows, buildRows] = await Promise.all([
      db.select().from(games).orderBy(asc(games.sortOrder), asc(games.title), asc(games.id)),
      db.select().from(gameBuilds).where(isNull(gameBuilds.deletedAt)),
    ]);
    const buildsOf = new Map<string, BuildRow[]>();
    for (const build of buildRows) {
      const list = buildsOf.get(build.gameId) ?? [];
      list.push(build);
      buildsOf.set(build.gameId, list);
    }
    records = gameRows.map((game) => ({
      game,
      builds: (buildsOf.get(game.id) ?? []).sort((a, b) => b.version - a.version),
    }));
    byId = new Map(records.map((record) => [record.game.id, record]));
  };

  // loads run one after another, so the last one started is the last one applied
  const refresh = () => {
    loading = loading.catch(() => undefined).then(load);
    return loading;
  };

  bus.subscribe((message) => {
    if (message === CATALOGUE_CHANGED) {
      refresh().catch((error: unknown) => log.error({ err: error }, 'catalogue refresh failed'));
    }
  });
  bus.onResync?.(() => {
    refresh().catch((error: unknown) => log.error({ err: error }, 'catalogue refresh failed'));
  });

  return {
    list: () => records,
    get: (gameId) => byId.get(gameId),
    refresh,
    async changed() {
      await refresh();
      // the local bus delivers to this process too: one more (cheap) read
      bus.publish(CATALOGUE_CHANGED);
    },
    find(gameId): HostedGame | undefined {
      const record = byId.get(gameId);
      if (!record) {
        return undefined;
      }
      const { game, builds } = record;
      const live = game.published
        ? builds.find((build) => build.version === game.liveVersion)
        : undefined;
      const since = now() - RETIRED_VERSION_GRACE_MS;
      const retired = game.published
        ? builds.filter(
            (build) =>
              build.version !== game.liveVersion &&
              build.replacedAt !== null &&
              build.replacedAt.getTime() > since,
          )
        : [];
      const served = [...(live ? [live] : []), ...retired];
      return {
        access: game.access,
        liveVersion: live?.version ?? null,
        versions: served.map((build) => build.version),
        needsThreads: live?.needsThreads ?? false,
        engines: Object.fromEntries(served.map((build) => [build.version, build.engine])),
      };
    },
  };
}

/** What the access rule and the game records need to know of a game. */
export interface PlayableGame {
  id: string;
  title: string;
  access: GameRow['access'];
  isMultiplayer: boolean;
}

/**
 * A published game by id (the SDK's records and game clicks), or undefined: unknown and
 * unpublished games cannot be played, so nothing is recorded for them.
 */
export function findPlayableGame(
  catalogue: GameCatalogue,
  gameId: string,
): PlayableGame | undefined {
  const game = catalogue.get(gameId)?.game;
  if (!game?.published) {
    return undefined;
  }
  return { id: game.id, title: game.title, access: game.access, isMultiplayer: game.isMultiplayer };
}

/** The live build of a game, if any. */
export function liveBuildOf(record: GameRecord): BuildRow | undefined {
  return record.builds.find((build) => build.version === record.game.liveVersion);
}

/** `a/b c.html` → `a/b%20c.html`: each path segment encoded, slashes kept. */
function encodePath(file: string): string {
  return file.split('/').map(encodeURIComponent).join('/');
}

export interface PresentContext {
  role: Role | null;
  /** The games origin for this request (gamesOriginFor). */
  gamesOrigin: string;
  grants: GameGrants;
  /** GAMES_PUBLIC_URL: a CDN in front of the games origin, for public games' builds. */
  publicGamesUrl?: string | undefined;
}

/**
 * Where a game's live build is played from: a subscriber game on the games origin with a grant
 * (or none, for a viewer it refuses); a public one on the CDN when there is one, except an
 * export that needs threads, whose isolation headers only the games origin is sure to send.
 */
function playUrlOf(
  game: GameRow,
  live: BuildRow,
  filePath: string,
  context: PresentContext,
): string {
  if (game.access === 'subscriber') {
    return decideGameAccess(game, context.role).allowed
      ? `${context.gamesOrigin}/g/${context.grants.sign(game.id)}${filePath}`
      : `${context.gamesOrigin}${filePath}`;
  }
  const isOnCdn = context.publicGamesUrl && game.published && !live.needsThreads;
  return `${isOnCdn ? context.publicGamesUrl : context.gamesOrigin}${filePath}`;
}

export function toGameBuild(build: BuildRow, liveVersion: number | null): GameBuild {
  return {
    version: build.version,
    engine: build.engine,
    entry: build.entry,
    needsThreads: build.needsThreads,
    files: build.files,
    bytes: build.bytes,
    compressedBytes: build.compressedBytes,
    leftOut: build.leftOut,
    uploadedAt: build.uploadedAt.toISOString(),
    uploadedBy: build.uploadedBy,
    isLive: build.version === liveVersion,
  };
}

/** The frame size a row holds ('default' when a size is missing: the check forbids that). */
export function frameOf(game: GameRow): GameFrameSize {
  if (game.frameMode === 'default' || game.frameWidth === null || game.frameHeight === null) {
    return { mode: 'default' };
  }
  return { mode: game.frameMode, width: game.frameWidth, height: game.frameHeight };
}

/** A card of `GET /api/games`: playUrl on the games origin, with a grant when the viewer may play. */
export function toGameEntry(record: GameRecord, context: PresentContext): GameEntry {
  const { game } = record;
  const live = liveBuildOf(record);
  const playUrl = live
    ? playUrlOf(
        game,
        live,
        `/${encodeURIComponent(game.id)}/${live.version}/${encodePath(live.entry)}`,
        context,
      )
    : null;
  const thumbnail = !game.thumbnail
    ? ''
    : game.thumbnail.startsWith('/')
      ? game.thumbnail
      : `${context.gamesOrigin}/${encodeURIComponent(game.id)}/${game.thumbnail}?v=${game.updatedAt.getTime().toString(36)}`;
  return {
    id: game.id,
    title: game.title,
    description: game.description,
    thumbnail,
    instructions: game.instructions,
    section: game.section,
    access: game.access,
    isMultiplayer: game.isMultiplayer,
    ...(game.serverType ? { serverType: game.serverType } : {}),
    playUrl,
    needsIsolation: live?.needsThreads ?? false,
    version: live?.version ?? null,
    frame: frameOf(game),
    touch: game.touch,
    orientation: game.orientation,
  };
}

export function toAdminGame(record: GameRecord, context: PresentContext): AdminGame {
  const { game } = record;
  return {
    ...toGameEntry(record, context),
    published: game.published,
    order: game.sortOrder,
    builds: record.builds.map((build) => toGameBuild(build, game.liveVersion)),
    isBuiltIn: game.isBuiltIn,
    createdAt: game.createdAt.toISOString(),
    updatedAt: game.updatedAt.toISOString(),
    rooms: { ...DEFAULT_GAME_ROOM_SETTINGS, ...game.roomSettings },
  };
}
