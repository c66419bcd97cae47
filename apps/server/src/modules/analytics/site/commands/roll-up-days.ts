import { moduleLogger } from '../../../../lib/logger.js';
import { addDays, type Day, dayOf } from '../../days.js';
import { type QueryContext, readRolledThrough, ROLLUP_INTERVAL_MS } from '../queries/context.js';

const log = moduleLogger('analytics');

/** Days whose missing segment one maintenance run builds. */
const BACKFILL_DAYS_PER_RUN = 31;

/** An error as the admin reads it: the database's own words, not the statement drizzle ran. */
function describeError(error: unknown): string {
  let innermost = error;
  while (innermost instanceof Error && innermost.cause instanceof Error) {
    innermost = innermost.cause;
  }
  return innermost instanceof Error ? innermost.message : String(innermost);
}

/**
 * Rolls up every whole day not rolled up yet (and re-reads where rollups end). A day that fails is
 * logged and tried again at the next run; the days after it are rolled up anyway.
 */
export async function rollUpDays(ctx: QueryContext): Promise<number> {
  const today = dayOf(ctx.now());
  const days = await ctx.repo.listPartitionDays();
  const [first] = days;
  const rolledBefore = first === undefined ? new Set<Day>() : await ctx.repo.rolledUpDays(first);
  // every day not rolled up, in order; one that fails does not stop the ones after it
  let rolled = 0;
  for (const day of days) {
    if (rolledBefore.has(day)) {
      // rolled up since it failed here (by another process, or a later run)
      ctx.failures.delete(day);
      continue;
    }
    if (day >= today) {
      continue;
    }
    try {
      await ctx.repo.rollUp(day);
      ctx.failures.delete(day);
      rolled++;
    } catch (error) {
      const failure = {
        message: describeError(error),
        failedAt: ctx.now(),
        attempts: (ctx.failures.get(day)?.attempts ?? 0) + 1,
      };
      ctx.failures.set(day, failure);
      log.error(
        { err: error },
        `rollup of ${day} failed (attempt ${failure.attempts}); retried in ${ROLLUP_INTERVAL_MS / 60_000} minutes, read from raw events until then`,
      );
    }
  }
  // a day with no partition (no events) needs no rollup, but must not stop later ones
  const yesterday = addDays(today, -1);
  const last = await ctx.repo.lastRolledUpDay();
  if (last !== null && last < yesterday && !days.includes(yesterday)) {
    await ctx.repo.rollUp(yesterday);
  }
  ctx.rolledThrough = await readRolledThrough(ctx, today, days);
  // days rolled up before segments existed get theirs, the latest first and a month's worth
  // per run (a view asking for one first builds it then)
  const rolledUp = ctx.rolledThrough;
  if (first !== undefined && rolledUp !== null) {
    const stored = await ctx.repo.segmentStamps(first, rolledUp);
    const unbuilt = days
      .filter((day) => day <= rolledUp && !stored.has(day))
      .reverse()
      .slice(0, BACKFILL_DAYS_PER_RUN);
    for (const day of unbuilt) {
      await ctx.repo.buildSegment(day);
    }
  }
  return rolled;
}
