import { useCallback, useEffect, useRef } from 'react';

import { useResource, warnOnFailure } from '../../ui/use-resource';

export interface Loaded<T> {
  /** The last answer; kept on screen while the next one loads or after it fails. */
  data: T | null;
  error: string | null;
  isLoading: boolean;
}

/**
 * useResource keyed by `key` (the page's query string) rather than by the load function, which
 * callers make afresh each render: loads whenever `key` changes, aborting the call before, and
 * with `intervalMs` again on that interval while mounted. The error is always `errorMessage`.
 */
export function useAnalyticsData<T>(
  key: string,
  load: (signal: AbortSignal) => Promise<T>,
  errorMessage: string,
  intervalMs?: number,
): Loaded<T> {
  // the latest load function, so a new closure each render does not start a new request
  const latest = useRef(load);
  useEffect(() => {
    latest.current = load;
  });
  const loadLatest = useCallback(
    (signal: AbortSignal) => warnOnFailure(latest.current(signal), errorMessage, signal),
    [errorMessage],
  );
  const { data, error, isLoading } = useResource(loadLatest, errorMessage, {
    reloadKey: key,
    isKeptWhileLoading: true,
    pollMs: intervalMs,
  });
  return { data: data ?? null, error: error === null ? null : errorMessage, isLoading };
}
