import { useCallback, useEffect, useRef, useState } from 'react';

import { hasErrorCode } from '../lib/http';
import { serverMessageOr } from '../lib/server-message';

/** What a screen loads, as useResource keeps it. */
export interface Resource<T> {
  /** The loaded value; undefined until the first answer of the current `load`. */
  data: T | undefined;
  /** The failure's message (the server's, else the fallback), or null. */
  error: string | null;
  isLoading: boolean;
  /**
   * Loads again (after a change), keeping the value on screen meanwhile; an error lands in
   * `error`, as on the first load, and the value stays.
   */
  reload: () => Promise<void>;
  /** Changes the held value in place (an optimistic update, a value a command answered). */
  setData: (update: (current: T | undefined) => T | undefined) => void;
  setError: (error: string | null) => void;
}

export interface ResourceOptions<T> {
  /**
   * Keep showing the last answer while a changed `load` runs and when it fails (a table paged
   * or searched stays on screen), instead of starting empty.
   */
  isKeptWhileLoading?: boolean;
  /**
   * Part of what is loaded, beside `load`: a change loads again as a new `load` would (a
   * revision a parent bumps after each save, a query string). With isKeptWhileLoading the last
   * answer stays on screen meanwhile.
   */
  reloadKey?: string | number | undefined;
  /** Loads again every this many ms while mounted, as `reload` does (a screen that polls). */
  pollMs?: number | undefined;
  /**
   * The first `load`'s answer when it is already at hand (the data the server wrote into the
   * page): shown at once, without a request.
   */
  initialData?: T | undefined;
}

interface Held<T> {
  /** The `load` and `reloadKey` this value answers: a new one means a new resource. */
  source: unknown;
  key: string | number | undefined;
  data: T | undefined;
  error: string | null;
}

/**
 * The one way a screen loads data: calls `load` (keep it stable with useCallback: a new
 * function is a new resource, loaded afresh) with a signal, and holds the answer, the error
 * message (`fallback` unless the server said why) and whether it is still loading. A null `load`
 * loads nothing. Only the newest request counts: each one aborts the one before, and a change
 * of resource or unmount aborts the one in flight.
 */
export function useResource<T>(
  load: ((signal: AbortSignal) => Promise<T>) | null,
  fallback: string,
  options: ResourceOptions<T> = {},
): Resource<T> {
  const { isKeptWhileLoading = false, reloadKey, pollMs } = options;
  const [held, setHeld] = useState<Held<T>>(() => ({
    source: options.initialData === undefined ? null : load,
    key: reloadKey,
    data: options.initialData,
    error: null,
  }));
  const inFlight = useRef<AbortController | null>(null);
  const abortInFlight = useCallback(() => inFlight.current?.abort(), []);

  const fetchNow = useCallback(async () => {
    if (!load) {
      return;
    }
    abortInFlight();
    const controller = new AbortController();
    inFlight.current = controller;
    try {
      const data = await load(controller.signal);
      if (!controller.signal.aborted) {
        setHeld({ source: load, key: reloadKey, data, error: null });
      }
    } catch (failure) {
      if (!controller.signal.aborted) {
        setHeld((current) => ({
          source: load,
          key: reloadKey,
          // a reload keeps its value; a new resource only when asked to
          data:
            isKeptWhileLoading || (current.source === load && current.key === reloadKey)
              ? current.data
              : undefined,
          error: serverMessageOr(failure, fallback),
        }));
      }
    }
  }, [load, reloadKey, fallback, isKeptWhileLoading, abortInFlight]);

  const isAnswered = held.source === load && held.key === reloadKey;

  // a new resource (or unmount) aborts the request in flight
  useEffect(() => abortInFlight, [load, reloadKey, abortInFlight]);
  useEffect(() => {
    if (!isAnswered) {
      void fetchNow();
    }
  }, [isAnswered, fetchNow]);
  useEffect(() => {
    if (!load || !pollMs) {
      return undefined;
    }
    const timer = setInterval(() => void fetchNow(), pollMs);
    return () => clearInterval(timer);
  }, [load, pollMs, fetchNow]);

  const setData = useCallback(
    (update: (current: T | undefined) => T | undefined) =>
      setHeld((current) => ({
        ...current,
        source: load,
        key: reloadKey,
        data: update(current.data),
      })),
    [load, reloadKey],
  );
  const setError = useCallback(
    (error: string | null) => setHeld((current) => ({ ...current, error })),
    [],
  );

  return {
    data: isAnswered || isKeptWhileLoading ? held.data : undefined,
    error: isAnswered ? held.error : null,
    isLoading: load !== null && !isAnswered,
    reload: fetchNow,
    setData,
    setError,
  };
}

/**
 * A request whose 'not found' is an answer, not a failure: null (the screen shows its 404 or
 * 'no such' text), any other failure as it was.
 */
export async function nullIfNotFound<T>(request: Promise<T>): Promise<T | null> {
  try {
    return await request;
  } catch (error) {
    if (hasErrorCode(error, 'NOT_FOUND')) {
      return null;
    }
    throw error;
  }
}

/** A request whose failure is also logged (console.warn with `message`), unless it was aborted. */
export async function warnOnFailure<T>(
  request: Promise<T>,
  message: string,
  signal: AbortSignal,
): Promise<T> {
  try {
    return await request;
  } catch (error) {
    if (!signal.aborted) {
      console.warn(message, error);
    }
    throw error;
  }
}

/**
 * Waits `ms` before a load asks (a debounce, or the game's files first); rejects at once when the
 * load is aborted meanwhile, so nothing is asked.
 */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clearTimeout(timer);
      reject(new DOMException('Aborted', 'AbortError'));
    };
    signal.addEventListener('abort', stop, { once: true });
  });
}
