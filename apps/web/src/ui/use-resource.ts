import { useCallback, useEffect, useRef, useState } from 'react';

import { serverMessageOr } from '../lib/server-message';

/** What a screen loads, as useResource keeps it. */
export interface Resource<T> {
  /** The loaded value; undefined until the first answer of the current `load`. */
  data: T | undefined;
  /** The failure's message (the server's, else the fallback), or null. */
  error: string | null;
  isLoading: boolean;
  /** Loads again (after a change); an error lands in `error`, as on the first load. */
  reload: () => Promise<void>;
  /** Changes the held value in place (an optimistic update, a value a command answered). */
  setData: (update: (current: T | undefined) => T | undefined) => void;
  setError: (error: string | null) => void;
}

interface ResourceOptions {
  /**
   * Keep showing the last answer while a changed `load` runs and when it fails (a table paged
   * or searched stays on screen), instead of starting empty.
   */
  isKeptWhileLoading?: boolean;
}

interface Held<T> {
  /** The `load` this value answers: a new one means a new resource. */
  source: unknown;
  data: T | undefined;
  error: string | null;
}

/**
 * The one way a screen loads data: calls `load` (keep it stable with useCallback: a new
 * function is a new resource, loaded afresh) with a signal aborted on unmount or change, and
 * holds the answer, the error message (`fallback` unless the server said why) and whether it is
 * still loading. A null `load` loads nothing.
 */
export function useResource<T>(
  load: ((signal: AbortSignal) => Promise<T>) | null,
  fallback: string,
  options: ResourceOptions = {},
): Resource<T> {
  const { isKeptWhileLoading = false } = options;
  const [held, setHeld] = useState<Held<T>>({ source: null, data: undefined, error: null });
  // reload's requests are aborted when the component goes away, as the first load's are
  const unmounted = useRef(new AbortController());

  useEffect(() => {
    const controller = unmounted.current.signal.aborted
      ? (unmounted.current = new AbortController())
      : unmounted.current;
    return () => controller.abort();
  }, []);

  useEffect(() => {
    if (!load) {
      return undefined;
    }
    const controller = new AbortController();
    load(controller.signal).then(
      (data) => setHeld({ source: load, data, error: null }),
      (failure: unknown) => {
        if (!controller.signal.aborted) {
          setHeld((current) => ({
            source: load,
            data: isKeptWhileLoading ? current.data : undefined,
            error: serverMessageOr(failure, fallback),
          }));
        }
      },
    );
    return () => controller.abort();
  }, [load, fallback, isKeptWhileLoading]);

  const reload = useCallback(async () => {
    if (!load) {
      return;
    }
    const signal = unmounted.current.signal;
    try {
      const data = await load(signal);
      setHeld({ source: load, data, error: null });
    } catch (failure) {
      if (!signal.aborted) {
        setHeld((current) => ({
          ...current,
          source: load,
          error: serverMessageOr(failure, fallback),
        }));
      }
    }
  }, [load, fallback]);

  const setData = useCallback(
    (update: (current: T | undefined) => T | undefined) =>
      setHeld((current) => ({ ...current, source: load, data: update(current.data) })),
    [load],
  );
  const setError = useCallback(
    (error: string | null) => setHeld((current) => ({ ...current, error })),
    [],
  );

  const isCurrent = held.source === load;
  return {
    data: isCurrent || isKeptWhileLoading ? held.data : undefined,
    error: isCurrent ? held.error : null,
    isLoading: load !== null && !isCurrent,
    reload,
    setData,
    setError,
  };
}
