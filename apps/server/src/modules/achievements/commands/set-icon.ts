import { and, eq } from 'drizzle-orm';

import type { AchievementDef } from '@portfolio/types/achievements';

import { gameAchievementDefs } from '../../../db/schema.js';
import { HttpError } from '../../../lib/errors.js';
import { sniffImage } from '../../game-host/index.js';
import { recordGameAudit } from '../../../access/game-audit.js';
import type { Actor } from '../../../access/audit.js';
import {
  type AchievementContext,
  achievementIconPrefix,
  counts,
  findDef,
  iconFileOf,
  toDef,
} from '../context.js';

const DECLARED_TYPE: Record<string, 'png' | 'jpg' | 'webp'> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
};

/** Keeps an achievement's icon (PNG, JPEG or WebP, sniffed like the game's thumbnail). */
export async function setIcon(
  ctx: AchievementContext,
  gameId: string,
  key: string,
  image: Buffer,
  contentType: string,
  actor: Actor,
): Promise<AchievementDef> {
  const def = await findDef(ctx, gameId, key);
  const type = sniffImage(image);
  if (!type) {
    throw new HttpError('BAD_IMAGE', 'The icon is not a PNG, JPEG or WebP image.');
  }
  if (DECLARED_TYPE[contentType] !== type) {
    throw new HttpError(
      'BAD_IMAGE',
      `The icon is a ${type.toUpperCase()} image but was sent as ${contentType}.`,
    );
  }
  const prefix = achievementIconPrefix(gameId);
  const name = iconFileOf(key, type);
  await ctx.storage.put(prefix + name, image, { contentType: `image/${type}` });
  // the icon of another type before (key.png after key.jpg)
  const stem = name.slice(0, name.indexOf('.'));
  for (const { key: other } of await ctx.storage.list(`${prefix}${stem}.`)) {
    if (other !== prefix + name) {
      await ctx.storage.delete(other);
    }
  }
  const row = await ctx.db.transaction(async (tx) => {
    const [updated] = await tx
      .update(gameAchievementDefs)
      .set({ icon: `achievements/${name}`, updatedAt: new Date() })
      .where(and(eq(gameAchievementDefs.gameId, gameId), eq(gameAchievementDefs.key, key)))
      .returning();
    await recordGameAudit(tx, {
      action: 'achievement-icon',
      actor,
      gameId,
      detail: `Icon of achievement '${def.name}' uploaded (${Math.ceil(image.length / 1024)} KB)`,
    });
    return updated ?? def;
  });
  const { byName } = await counts(ctx, gameId);
  return toDef(row, byName.get(key) ?? 0);
}
