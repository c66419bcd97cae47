import { createElement, lazy, type ComponentType } from 'react';

/** Spec section 9: script chunk load time-out. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

export interface LazyPage {
  Page: ComponentType;
  /** Starts downloading the page's code (the first call does; later ones share it). */
  preload: () => Promise<unknown>;
}

/**
 * A page whose code is its own chunk, loaded when the page is first rendered (or preloaded). A
 * failed or timed-out download is reported as 'Loading chunk failed' on the error page (reloading
 * the page tries again).
 */
export function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType): LazyPage {
  let loading: Promise<ComponentType> | undefined;
  let loaded: ComponentType | undefined;
  const preload = () => {
    loading ??= withTimeout(load()).then(
      (module) => (loaded = pick(module)),
      (error: unknown) => {
        throw new Error('Loading chunk failed', { cause: error });
      },
    );
    return loading;
  };
  const Suspending = lazy(async () => ({ default: await preload() }));
  // React.lazy suspends on its first render even when the code is already here (the page would
  // flash its loading state, and the footer jump): a preloaded page renders at once
  const Page = () => createElement(loaded ?? Suspending);
  return { Page, preload };
}

async function withTimeout<T>(promise: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timed out')), CHUNK_LOAD_TIMEOUT_MS);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
