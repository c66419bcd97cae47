import type { AnalyticsRollupFailure } from '@portfolio/types/analytics';

const timeOf = (iso: string) => new Date(iso).toISOString().slice(11, 16);

/**
 * Days whose rollup failed: the figures are still right (read from raw events), but
 * the admin should know which day failed, why, and when it is tried again.
 */
export function RollupFailures({ failures }: { failures: readonly AnalyticsRollupFailure[] }) {
  if (failures.length === 0) {
    return null;
  }
  return (
    <div className="notice" role="status">
      {failures.map((failure) => (
        <p key={failure.day}>
          The summary of {failure.day} failed at {timeOf(failure.failedAt)} UTC
          {failure.attempts > 1 ? ` (${failure.attempts} attempts)` : ''}: {failure.message}. It is
          tried again at {timeOf(failure.retryAt)} UTC; until then that day and the days after it
          are counted from raw events, which is slower.
        </p>
      ))}
    </div>
  );
}
