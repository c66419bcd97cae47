import { GAME_CATALOGUE, type GameStatusResponse } from '@portfolio/types';

import type { AdminNotifier } from '../../realtime/admin-notifier.js';

export const GAME_STATUS_CHECK_INTERVAL_MS = 60_000;
const CHECK_TIMEOUT_MS = 5000;

/** The multiplayer server types of the catalogue (wolfscape, rocketGame). */
export const SERVER_TYPES: readonly string[] = [
  ...new Set(GAME_CATALOGUE.flatMap((game) => (game.serverType ? [game.serverType] : []))),
];

export interface GameServerMonitor {
  getStatus(): GameStatusResponse;
  /** Checks every configured server once; admins hear about changes. */
  check(): Promise<void>;
  start(): void;
  stop(): void;
}

/**
 * Health of the multiplayer game servers. A server type with a health URL is up while its URL
 * answers 2xx within 5 s; one without a URL is the built-in demo (it runs in the browser) and is
 * always up.
 */
export function createGameServerMonitor(deps: {
  healthUrls: Readonly<Record<string, string | undefined>>;
  notifier: AdminNotifier;
  fetch?: typeof fetch;
  intervalMs?: number;
}): GameServerMonitor {
  const doFetch = deps.fetch ?? fetch;
  const status: GameStatusResponse = Object.fromEntries(SERVER_TYPES.map((type) => [type, true]));
  let timer: NodeJS.Timeout | undefined;

  async function isUp(url: string): Promise<boolean> {
    try {
      const response = await doFetch(url, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
      await response.body?.cancel();
      return response.ok;
    } catch {
      return false;
    }
  }

  const monitor: GameServerMonitor = {
    getStatus: () => ({ ...status }),
    async check() {
      let hasChanged = false;
      await Promise.all(
        SERVER_TYPES.map(async (type) => {
          const url = deps.healthUrls[type];
          if (!url) {
            return;
          }
          const next = await isUp(url);
          if (status[type] !== next) {
            status[type] = next;
            hasChanged = true;
          }
        }),
      );
      if (hasChanged) {
        deps.notifier.toAdmins('game-status:update', { ...status });
      }
    },
    start() {
      const hasUrls = SERVER_TYPES.some((type) => deps.healthUrls[type]);
      if (!hasUrls || timer) {
        return;
      }
      void monitor.check();
      timer = setInterval(
        () => void monitor.check(),
        deps.intervalMs ?? GAME_STATUS_CHECK_INTERVAL_MS,
      );
      timer.unref();
    },
    stop() {
      clearInterval(timer);
      timer = undefined;
    },
  };
  return monitor;
}
