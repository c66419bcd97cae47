import { useCallback, useEffect, useState } from 'react';

import { initialPageData, markPageDataUsed } from '../lib/page-data';
import { useResource, warnOnFailure } from './use-resource';

export type ContentState<T> =
  { kind: 'loading' } | { kind: 'loaded'; value: T } | { kind: 'failed'; retry: () => void };

/**
 * The page's content: the data the server wrote into the page when it is there and valid, else
 * what `load` (a stable function) answers: shown as loading until then, failed with a retry on
 * an error.
 */
export function usePageContent<T>(
  key: string,
  isValid: (value: unknown) => value is T,
  load: (signal: AbortSignal) => Promise<T>,
): ContentState<T> {
  const [initial] = useState(() => {
    const value = initialPageData(key);
    return isValid(value) ? value : undefined;
  });
  // a retry is a new attempt: shown as loading again
  const [attempt, setAttempt] = useState(0);
  const loadWarned = useCallback(
    (signal: AbortSignal) => warnOnFailure(load(signal), `Could not load the ${key}`, signal),
    [load, key],
  );
  const { data, error } = useResource(loadWarned, `Could not load the ${key}`, {
    initialData: initial,
    reloadKey: attempt,
  });

  useEffect(() => {
    markPageDataUsed(key);
  }, [key]);

  if (error) {
    return { kind: 'failed', retry: () => setAttempt((count) => count + 1) };
  }
  return data === undefined ? { kind: 'loading' } : { kind: 'loaded', value: data };
}
