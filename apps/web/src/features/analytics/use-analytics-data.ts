import { useEffect, useEffectEvent, useState } from 'react';

export interface Loaded<T> {
  /** The last answer; kept on screen while the next one loads or after it fails. */
  data: T | null;
  error: string | null;
  isLoading: boolean;
}

/**
 * Loads `load` whenever `key` changes (the page's query string), aborting the call before; with
 * `intervalMs` it loads again on that interval while mounted. An answer for an older key never
 * replaces a newer one.
 */
export function useAnalyticsData<T>(
  key: string,
  load: (signal: AbortSignal) => Promise<T>,
  errorMessage: string,
  intervalMs?: number,
): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ data: null, error: null, isLoading: true });
  // the latest load function, so a new closure each render does not start a new request
  const loadLatest = useEffectEvent(load);

  useEffect(() => {
    const controller = new AbortController();
    const run = async () => {
      setState((previous) => ({ ...previous, isLoading: true }));
      try {
        const data = await loadLatest(controller.signal);
        if (!controller.signal.aborted) {
          setState({ data, error: null, isLoading: false });
        }
      } catch (error) {
        if (controller.signal.aborted) {
          return;
        }
        console.warn(errorMessage, error);
        setState((previous) => ({ ...previous, error: errorMessage, isLoading: false }));
      }
    };
    void run();
    const timer = intervalMs ? setInterval(() => void run(), intervalMs) : undefined;
    return () => {
      clearInterval(timer);
      controller.abort();
    };
  }, [key, errorMessage, intervalMs]);

  return state;
}
