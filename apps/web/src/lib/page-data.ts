import { PAGE_DATA_ELEMENT_ID } from '@portfolio/types/site';
import { useEffect, useState } from 'react';

/*
 * A page's initial data: the server writes the published gallery into /Gallery's
 * HTML and the tutorials into /Tutorials', so the page shows them without a request after its
 * script. The data serves the first view only; a later visit in the same tab asks the API.
 */

let parsed: Record<string, unknown> | undefined;
const used = new Set<string>();

function readPageData(doc: Document): Record<string, unknown> {
  if (parsed) {
    return parsed;
  }
  parsed = {};
  const text = doc.getElementById(PAGE_DATA_ELEMENT_ID)?.textContent;
  if (text) {
    try {
      const value: unknown = JSON.parse(text);
      if (typeof value === 'object' && value !== null) {
        parsed = Object.fromEntries(Object.entries(value));
      }
    } catch {
      // unreadable: the page asks the API
    }
  }
  return parsed;
}

/** The data the server wrote under `key`, unless a view has used it already. */
export function initialPageData(key: string, doc: Document = document): unknown {
  return used.has(key) ? undefined : readPageData(doc)[key];
}

export type ContentState<T> =
  { kind: 'loading' } | { kind: 'loaded'; value: T } | { kind: 'failed'; retry: () => void };

/**
 * The page's content: the data the server wrote into the page when it is there and valid, else
 * what `load` answers (shown as loading until then, failed with a retry on an error).
 */
export function usePageContent<T>(
  key: string,
  isValid: (value: unknown) => value is T,
  load: (signal: AbortSignal) => Promise<T>,
): ContentState<T> {
  const [state, setState] = useState<{ value: T } | 'loading' | 'failed'>(() => {
    const initial = initialPageData(key);
    return isValid(initial) ? { value: initial } : 'loading';
  });
  const [attempt, setAttempt] = useState(0);
  const isLoading = state === 'loading';

  useEffect(() => {
    used.add(key);
  }, [key]);

  useEffect(() => {
    if (!isLoading) {
      return undefined;
    }
    const controller = new AbortController();
    load(controller.signal).then(
      (value) => setState({ value }),
      (error: unknown) => {
        if (!controller.signal.aborted) {
          console.warn(`Could not load the ${key}`, error);
          setState('failed');
        }
      },
    );
    return () => controller.abort();
    // `load` is the page's own API call: the same function for the page's life
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [isLoading, key, attempt]);

  if (state === 'loading') {
    return { kind: 'loading' };
  }
  if (state === 'failed') {
    return {
      kind: 'failed',
      retry: () => {
        setState('loading');
        setAttempt((count) => count + 1);
      },
    };
  }
  return { kind: 'loaded', value: state.value };
}
