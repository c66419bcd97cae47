import { moduleLogger } from '../../lib/logger.js';
import type { PresenceStore } from './presence-store.js';

/**
 * Serves from `primary` (Redis) and, while it fails, from `fallback` (this process's memory), so
 * heartbeats and the dashboard keep working through a Redis outage with a per-process view.
 */
export function withFallback(
  primary: PresenceStore,
  fallback: PresenceStore,
  label = 'presence',
): PresenceStore {
  let isDown = false;
  async function attempt<T>(run: (store: PresenceStore) => Promise<T>): Promise<T> {
    try {
      const result = await run(primary);
      if (isDown) {
        moduleLogger(label).info('shared store is back');
        isDown = false;
      }
      return result;
    } catch (error) {
      if (!isDown) {
        moduleLogger(label).warn(
          { reason: error instanceof Error ? error.message : error },
          "shared store failed, serving this process's view",
        );
        isDown = true;
      }
      return run(fallback);
    }
  }
  return {
    touch: (entry) => attempt((store) => store.touch(entry)),
    listActive: (now) => attempt((store) => store.listActive(now)),
    countActive: (now) => attempt((store) => store.countActive(now)),
    remove: async (key, tab) => {
      await fallback.remove(key, tab);
      await attempt((store) => store.remove(key, tab));
    },
  };
}
