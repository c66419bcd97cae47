import { useCallback, useEffect, useState } from 'react';

import { serverMessageOr } from '../../lib/server-message';

/** A section's items as the admin API lists them, with a way to read them again. */
export function useContentItems<T>(load: (signal?: AbortSignal) => Promise<T[]>, what: string) {
  const [items, setItems] = useState<T[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    try {
      setItems(await load());
      setError(null);
    } catch (failure) {
      setError(serverMessageOr(failure, `Failed to load the ${what}`));
    }
  }, [load, what]);

  useEffect(() => {
    const controller = new AbortController();
    load(controller.signal).then(
      (loaded) => {
        setItems(loaded);
        setError(null);
      },
      (failure: unknown) => {
        if (!controller.signal.aborted) {
          setError(serverMessageOr(failure, `Failed to load the ${what}`));
        }
      },
    );
    return () => controller.abort();
  }, [load, what]);

  return { items, setItems, error, setError, reload };
}
