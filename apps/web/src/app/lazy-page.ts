import type { ComponentType } from 'react';

/** Spec section 9: script chunk load time-out. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/**
 * A route `lazy` function for a page module: a failed or timed-out download is reported as
 * 'Loading chunk failed' on the error page.
 */
export function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return async (): Promise<{ Component: ComponentType }> => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), CHUNK_LOAD_TIMEOUT_MS);
    });
    try {
      const module = await Promise.race([load(), timeout]);
      return { Component: pick(module) };
    } catch (error) {
      throw new Error('Loading chunk failed', { cause: error });
    } finally {
      clearTimeout(timer);
    }
  };
}
