import { addDays, dayOf } from '../../days.js';
import type { QueryContext } from '../queries/context.js';

/** Drops partitions older than the retention, and what is known of their days. */
export async function applyRetention(ctx: QueryContext, retentionDays: number): Promise<number> {
  const keepFrom = addDays(dayOf(ctx.now()), -(retentionDays - 1));
  const dropped = await ctx.repo.dropBefore(keepFrom, await ctx.repo.listPartitionDays());
  ctx.rolledThrough = undefined;
  for (const day of ctx.failures.keys()) {
    if (day < keepFrom) {
      ctx.failures.delete(day);
    }
  }
  ctx.store.forgetBefore(keepFrom);
  return dropped;
}
