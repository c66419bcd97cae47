import { GAME_CATALOGUE, type GameStatusResponse } from '@portfolio/types';

import type { AdminNotifier } from '../../lib/admin-notifier.js';

export const GAME_STATUS_CHECK_INTERVAL_MS = 60_000;
/** In-process servers cost nothing to ask, so they are asked more often. */
export const LOCAL_CHECK_INTERVAL_MS = 5000;
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
 * answers 2xx within 5 s; one without a URL is the in-process server, up while its tick loop runs
 * and ticked recently (`localHealth`; undefined = not started yet, the reading is kept).
 */
export function createGameServerMonitor(deps: {
  healthUrls: Readonly<Record<string, string | undefined>>;
  notifier: AdminNotifier;
  localHealth?: (serverType: string) => boolean | undefined;
  fetch?: typeof fetch;
  intervalMs?: number;
  localIntervalMs?: number;
}): GameServerMonitor {
  const doFetch = deps.fetch ?? fetch;
  const status: GameStatusResponse = Object.fromEntries(SERVER_TYPES.map((type) => [type, true]));
  let timer: NodeJS.Timeout | undefined;
  let localTimer: NodeJS.Timeout | undefined;
  const localTypes = SERVER_TYPES.filter((type) => !deps.healthUrls[type]);
  const remoteTypes = SERVER_TYPES.filter((type) => deps.healthUrls[type]);

  async function isUp(url: string): Promise<boolean> {
    try {
      const response = await doFetch(url, { signal: AbortSignal.timeout(CHECK_TIMEOUT_MS) });
      await response.body?.cancel();
      return response.ok;
    } catch {
      return false;
    }
  }

  function readLocal(): Array<readonly [string, boolean]> {
    return localTypes.flatMap((type) => {
      const reading = deps.localHealth?.(type);
      return reading === undefined ? [] : [[type, reading] as const];
    });
  }

  /** Records readings; admins hear about a change. */
  function apply(readings: ReadonlyArray<readonly [string, boolean]>) {
    let hasChanged = false;
    for (const [type, next] of readings) {
      if (status[type] !== next) {
        status[type] = next;
        hasChanged = true;
      }
    }
    if (hasChanged) {
      deps.notifier.toAdmins('game-status:update', { ...status });
    }
  }

  const monitor: GameServerMonitor = {
    getStatus: () => ({ ...status }),
    async check() {
      const readings = await Promise.all(
        remoteTypes.map(async (type) => [type, await isUp(deps.healthUrls[type] ?? '')] as const),
      );
      apply([...readings, ...readLocal()]);
    },
    start() {
      if (timer || localTimer) {
        return;
      }
      if (remoteTypes.length > 0) {
        void monitor.check();
        timer = setInterval(
          () => void monitor.check(),
          deps.intervalMs ?? GAME_STATUS_CHECK_INTERVAL_MS,
        );
        timer.unref();
      }
      if (localTypes.length > 0 && deps.localHealth) {
        localTimer = setInterval(
          () => apply(readLocal()),
          deps.localIntervalMs ?? LOCAL_CHECK_INTERVAL_MS,
        );
        localTimer.unref();
      }
    },
    stop() {
      clearInterval(timer);
      clearInterval(localTimer);
      timer = undefined;
      localTimer = undefined;
    },
  };
  return monitor;
}
