import { eq } from 'drizzle-orm';

import type { AdminPost, UpdatePostRequest } from '@portfolio/types/devlog';

import { posts } from '../../../db/schema.js';
import { notFound } from '../../../lib/errors.js';
import type { Actor } from '../../../access/audit.js';
import { recordPostAudit } from '../audit.js';
import {
  changed,
  checkGame,
  type DevlogContext,
  findRow,
  slugConflict,
  slugTaken,
  toAdmin,
  withSlugConflict,
} from '../context.js';

/** Changes the fields `input` gives that differ from the post's; no change writes nothing. */
export async function updatePost(
  ctx: DevlogContext,
  id: string,
  input: UpdatePostRequest,
  actor: Actor,
): Promise<AdminPost> {
  const before = await findRow(ctx, id);
  checkGame(ctx, input.gameId);
  if (input.slug && input.slug !== before.slug && (await slugTaken(ctx, input.slug, id))) {
    throw slugConflict(input.slug);
  }
  const values: Partial<typeof posts.$inferInsert> = { updatedAt: ctx.now() };
  const fields: string[] = [];
  const set = <K extends keyof typeof posts.$inferInsert>(
    key: K,
    value: (typeof posts.$inferInsert)[K] | undefined,
    current: unknown,
  ) => {
    const same =
      value instanceof Date && current instanceof Date
        ? value.getTime() === current.getTime()
        : value === current;
    if (value !== undefined && !same) {
      values[key] = value;
      fields.push(key);
    }
  };
  set('title', input.title, before.title);
  set('slug', input.slug, before.slug);
  set('body', input.body, before.body);
  set('summary', input.summary === undefined ? undefined : input.summary || null, before.summary);
  set('gameId', input.gameId, before.gameId);
  set('coverImage', input.coverImage, before.coverImage);
  set(
    'publishedAt',
    input.publishedAt === undefined
      ? undefined
      : input.publishedAt === null
        ? null
        : new Date(input.publishedAt),
    before.publishedAt,
  );
  set('published', input.published, before.published);
  const isPublishing = input.published === true && !before.published;
  // a post published without a date is dated now
  if (input.published === true && (values.publishedAt ?? before.publishedAt) === null) {
    values.publishedAt = ctx.now();
  }
  if (input.body !== undefined && input.body !== before.body) {
    const described = await ctx.markdown.describe(input.body);
    values.excerpt = described.excerpt;
    values.bodyImage = described.image;
  }
  if (fields.length === 0) {
    return toAdmin(ctx, before);
  }
  const action = isPublishing
    ? 'publish'
    : input.published === false && before.published
      ? 'unpublish'
      : 'update';
  const slug = values.slug ?? before.slug;
  const row = await withSlugConflict(slug, () =>
    ctx.db.transaction(async (tx) => {
      const [updated] = await tx.update(posts).set(values).where(eq(posts.id, id)).returning();
      if (!updated) {
        throw notFound(`No post with the id '${id}'`);
      }
      await recordPostAudit(tx, {
        action,
        actor,
        postId: id,
        postTitle: updated.title,
        detail: `changed ${fields.join(', ')}`,
      });
      return updated;
    }),
  );
  changed(ctx);
  return toAdmin(ctx, row);
}
