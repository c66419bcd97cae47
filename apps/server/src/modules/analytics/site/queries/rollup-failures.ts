import type { AnalyticsRollupFailure } from '@portfolio/types/analytics';

import { type QueryContext, ROLLUP_INTERVAL_MS } from './context.js';

/** The days whose last rollup attempt in this process failed, oldest first. */
export function listRollupFailures(ctx: QueryContext): AnalyticsRollupFailure[] {
  return [...ctx.failures]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([day, failure]) => ({
      day,
      message: failure.message,
      failedAt: new Date(failure.failedAt).toISOString(),
      attempts: failure.attempts,
      retryAt: new Date(failure.failedAt + ROLLUP_INTERVAL_MS).toISOString(),
    }));
}
