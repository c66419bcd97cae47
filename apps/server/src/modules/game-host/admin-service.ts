import { eq, sql } from 'drizzle-orm';

import type {
  CreateGameRequest,
  GameFrameSize,
  UpdateGameRequest,
} from '@portfolio/types/game-host';
import {
  type AuditedGameFields,
  describeGameChanges,
  describeGameCreated,
  describeGameDeleted,
  describeThumbnail,
} from '@portfolio/types/game-history';

import type { Db } from '../../db/client.js';
import type { ObjectStorage } from '../../lib/storage/object-storage.js';
import { games } from '../../db/schema.js';
import { badRequest, conflict, gameNotFound, HttpError } from '../../lib/errors.js';
import type { Actor } from '../../access/audit.js';
import { recordGameAudit } from '../../access/game-audit.js';
import { frameOf, type GameCatalogue, type GameRecord } from './catalogue.js';
import { type ImageType, sniffImage } from './images.js';

/*
 * The admin's changes to the catalogue: add, edit, publish/unpublish, delete (not the
 * built-in games) and the card's thumbnail. Each change is one transaction with its audit entry,
 * then the catalogue is read again in every process.
 */

/** Ids the games origin uses for itself (`/g/<grant>/…`). */
const RESERVED_IDS = new Set(['g']);

/** The largest thumbnail accepted. */
export const THUMBNAIL_MAX_BYTES = 2 * 1024 * 1024;

const DECLARED_TYPE: Record<string, ImageType> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

export interface GameAdminService {
  create(input: CreateGameRequest, actor: Actor): Promise<GameRecord>;
  update(gameId: string, input: UpdateGameRequest, actor: Actor): Promise<GameRecord>;
  delete(gameId: string, actor: Actor): Promise<void>;
  setThumbnail(
    gameId: string,
    image: Buffer,
    contentType: string,
    actor: Actor,
  ): Promise<GameRecord>;
}

/** `title: "a" → "b"; published: false → true` for the fields that changed. */
/** The frame's columns for a size: no width or height for the default frame. */
function frameColumns(frame: GameFrameSize) {
  return frame.mode === 'default'
    ? { frameMode: frame.mode, frameWidth: null, frameHeight: null }
    : { frameMode: frame.mode, frameWidth: frame.width, frameHeight: frame.height };
}

interface GameAdminContext {
  db: Db;
  catalogue: GameCatalogue;
  /** Builds and thumbnails (`<gameId>/thumbnail.<ext>`). */
  storage: ObjectStorage;
}

/** A game in the catalogue, or the 404 that names its id. */
function recordIn(catalogue: GameCatalogue, gameId: string): GameRecord {
  const record = catalogue.get(gameId);
  if (!record) {
    throw gameNotFound(gameId);
  }
  return record;
}

/** Keeps a game's thumbnail (PNG, JPEG or WebP, sniffed), one file per game. */
async function setThumbnail(
  { db, storage, catalogue }: GameAdminContext,
  gameId: string,
  image: Buffer,
  contentType: string,
  actor: Actor,
): Promise<GameRecord> {
  recordIn(catalogue, gameId);
  const type = sniffImage(image);
  if (!type) {
    throw new HttpError('BAD_IMAGE', 'The thumbnail is not a PNG, JPEG or WebP image.');
  }
  const declared = DECLARED_TYPE[contentType];
  if (declared !== type) {
    throw new HttpError(
      'BAD_IMAGE',
      `The thumbnail is a ${type.toUpperCase()} image but was sent as ${contentType}.`,
    );
  }
  const name = `thumbnail.${type}`;
  await storage.put(`${gameId}/${name}`, image, { contentType: `image/${type}` });
  // the other types' files go: one thumbnail per game
  for (const { key } of await storage.list(`${gameId}/thumbnail.`)) {
    if (key !== `${gameId}/${name}`) {
      await storage.delete(key);
    }
  }
  await db.transaction(async (tx) => {
    await tx
      .update(games)
      .set({ thumbnail: name, updatedAt: new Date() })
      .where(eq(games.id, gameId));
    await recordGameAudit(tx, {
      action: 'thumbnail-upload',
      actor,
      gameId,
      detail: describeThumbnail(image.length),
    });
  });
  await catalogue.changed();
  return recordIn(catalogue, gameId);
}

export function createGameAdminService(deps: GameAdminContext): GameAdminService {
  const { db, catalogue, storage } = deps;

  const recordOf = (gameId: string): GameRecord => recordIn(catalogue, gameId);

  return {
    async create(input, actor) {
      if (RESERVED_IDS.has(input.id.toLowerCase())) {
        throw badRequest(`id: '${input.id}' is reserved`);
      }
      await db.transaction(async (tx) => {
        const [clash] = await tx
          .select({ id: games.id })
          .from(games)
          .where(eq(sql`lower(${games.id})`, input.id.toLowerCase()));
        if (clash) {
          throw conflict(`A game with the id '${clash.id}' already exists`);
        }
        const [{ next } = { next: 0 }] = await tx
          .select({ next: sql<number>`coalesce(max(${games.sortOrder}), -10) + 10` })
          .from(games);
        await tx.insert(games).values({
          id: input.id,
          title: input.title,
          description: input.description,
          instructions: input.instructions,
          section: input.section,
          access: input.access,
          sortOrder: input.order ?? Number(next),
          isMultiplayer: input.section === 'multiplayer',
          ...(input.frame ? frameColumns(input.frame) : {}),
          ...(input.touch ? { touch: input.touch } : {}),
          ...(input.orientation ? { orientation: input.orientation } : {}),
        });
        await recordGameAudit(tx, {
          action: 'game-create',
          actor,
          gameId: input.id,
          detail: describeGameCreated(input.title, input.section, input.access),
        });
      });
      await catalogue.changed();
      return recordOf(input.id);
    },

    async update(gameId, input, actor) {
      await db.transaction(async (tx) => {
        const [game] = await tx.select().from(games).where(eq(games.id, gameId)).for('update');
        if (!game) {
          throw gameNotFound(gameId);
        }
        if (input.published === true && !game.published && game.liveVersion === null) {
          throw conflict(`Upload a build of ${game.title} before publishing it`);
        }
        const before: AuditedGameFields = {
          title: game.title,
          description: game.description,
          instructions: game.instructions,
          section: game.section,
          access: game.access,
          order: game.sortOrder,
          published: game.published,
          frame: frameOf(game),
          touch: game.touch,
          orientation: game.orientation,
        };
        const after = { ...before, ...input };
        const detail = describeGameChanges(before, after);
        if (!detail) {
          return;
        }
        await tx
          .update(games)
          .set({
            title: after.title,
            description: after.description,
            instructions: after.instructions,
            section: after.section,
            access: after.access,
            sortOrder: after.order,
            published: after.published,
            ...frameColumns(after.frame),
            touch: after.touch,
            orientation: after.orientation,
            // the built-in games keep the spec's rule; an added game listed under Multiplayer
            // needs a signed-in player like the built-in ones
            ...(game.isBuiltIn ? {} : { isMultiplayer: after.section === 'multiplayer' }),
            updatedAt: new Date(),
          })
          .where(eq(games.id, gameId));
        await recordGameAudit(tx, { action: 'game-update', actor, gameId, detail });
      });
      await catalogue.changed();
      return recordOf(gameId);
    },

    async delete(gameId, actor) {
      await db.transaction(async (tx) => {
        const [game] = await tx.select().from(games).where(eq(games.id, gameId)).for('update');
        if (!game) {
          throw gameNotFound(gameId);
        }
        if (game.isBuiltIn) {
          throw conflict(`${game.title} is a built-in game: unpublish it instead`);
        }
        // its numbers stay taken: a game added again under this id goes on after them
        await tx.execute(sql`
          insert into retired_game_versions (game_id, last_version)
          select ${gameId}, max(version) from game_builds where game_id = ${gameId}
          having max(version) is not null
          on conflict (game_id) do update
            set last_version = greatest(retired_game_versions.last_version, excluded.last_version)`);
        await tx.delete(games).where(eq(games.id, gameId));
        await recordGameAudit(tx, {
          action: 'game-delete',
          actor,
          gameId,
          detail: describeGameDeleted(game.title),
        });
      });
      await catalogue.changed();
      // its files go too (a new game with this id starts after its last version)
      await storage.deletePrefix(`${gameId}/`);
    },

    setThumbnail: (gameId, image, contentType, actor) =>
      setThumbnail(deps, gameId, image, contentType, actor),
  };
}
