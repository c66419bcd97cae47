import { eq } from 'drizzle-orm';

import { posts } from '../../../db/schema.js';
import type { Actor } from '../../../access/audit.js';
import { recordPostAudit } from '../audit.js';
import { changed, type DevlogContext, findRow } from '../context.js';

/** Deletes a post with its audit entry. */
export async function deletePost(ctx: DevlogContext, id: string, actor: Actor): Promise<void> {
  const before = await findRow(ctx, id);
  await ctx.db.transaction(async (tx) => {
    await tx.delete(posts).where(eq(posts.id, id));
    await recordPostAudit(tx, {
      action: 'delete',
      actor,
      postId: id,
      postTitle: before.title,
      detail: `slug ${before.slug}`,
    });
  });
  changed(ctx);
}
