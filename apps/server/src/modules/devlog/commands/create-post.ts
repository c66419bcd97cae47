import type { AdminPost, CreatePostRequest } from '@portfolio/types/devlog';

import { posts } from '../../../db/schema.js';
import type { Actor } from '../../../access/audit.js';
import { recordPostAudit } from '../audit.js';
import {
  changed,
  checkGame,
  type DevlogContext,
  freeSlugFor,
  slugConflict,
  slugTaken,
  toAdmin,
  withSlugConflict,
} from '../context.js';

/** Writes a new post with its audit entry. */
export async function createPost(
  ctx: DevlogContext,
  input: CreatePostRequest,
  actor: Actor,
): Promise<AdminPost> {
  checkGame(ctx, input.gameId);
  if (input.slug && (await slugTaken(ctx, input.slug))) {
    throw slugConflict(input.slug);
  }
  const slug = input.slug ?? (await freeSlugFor(ctx, input.title));
  // before the transaction: a body that cannot render is refused (422) with nothing written
  const described = await ctx.markdown.describe(input.body);
  const publishedAt = input.publishedAt
    ? new Date(input.publishedAt)
    : input.published
      ? ctx.now()
      : null;
  const row = await withSlugConflict(slug, () =>
    ctx.db.transaction(async (tx) => {
      const [inserted] = await tx
        .insert(posts)
        .values({
          slug,
          title: input.title,
          body: input.body,
          summary: input.summary || null,
          excerpt: described.excerpt,
          bodyImage: described.image,
          coverImage: input.coverImage ?? null,
          gameId: input.gameId ?? null,
          published: input.published,
          publishedAt,
        })
        .returning();
      if (!inserted) {
        throw new Error('insert returned no row');
      }
      await recordPostAudit(tx, {
        action: 'create',
        actor,
        postId: inserted.id,
        postTitle: inserted.title,
        detail: `slug ${slug}${input.published ? ', published' : ', draft'}`,
      });
      return inserted;
    }),
  );
  changed(ctx);
  return toAdmin(ctx, row);
}
