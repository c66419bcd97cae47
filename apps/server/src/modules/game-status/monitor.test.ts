import { describe, expect, it } from 'vitest';

import type { GameStatusResponse } from '@portfolio/types';

import { createAdminNotifier } from '../../lib/admin-notifier.js';
import { createGameServerMonitor } from './monitor.js';

/** A notifier that records what it would push to admins. */
function recordingNotifier() {
  const notifier = createAdminNotifier();
  const pushed: GameStatusResponse[] = [];
  notifier.toAdmins = (event, ...args) => {
    if (event === 'game-status:update') {
      const [status] = args;
      pushed.push(status as GameStatusResponse);
    }
  };
  return { notifier, pushed };
}

describe('game server monitor', () => {
  it('reports the built-in demo servers as up without checking anything', async () => {
    const { notifier, pushed } = recordingNotifier();
    const monitor = createGameServerMonitor({
      healthUrls: {},
      notifier,
      fetch: () => Promise.reject(new Error('no network calls expected')),
    });
    await monitor.check();
    expect(monitor.getStatus()).toEqual({ wolfscape: true, rocketGame: true });
    expect(pushed).toEqual([]);
  });

  it('follows a configured health URL and tells admins about changes only', async () => {
    const { notifier, pushed } = recordingNotifier();
    let answer: 'ok' | 'error' | 'unreachable' = 'ok';
    const requested: string[] = [];
    const monitor = createGameServerMonitor({
      healthUrls: { wolfscape: 'http://wolfscape.internal/health' },
      notifier,
      fetch: (input) => {
        requested.push(input instanceof Request ? input.url : input.toString());
        if (answer === 'unreachable') {
          return Promise.reject(new TypeError('fetch failed'));
        }
        return Promise.resolve(new Response('', { status: answer === 'ok' ? 200 : 503 }));
      },
    });
    await monitor.check();
    expect(pushed).toEqual([]);
    answer = 'error';
    await monitor.check();
    expect(monitor.getStatus()).toEqual({ wolfscape: false, rocketGame: true });
    answer = 'unreachable';
    await monitor.check();
    answer = 'ok';
    await monitor.check();
    expect(pushed).toEqual([
      { wolfscape: false, rocketGame: true },
      { wolfscape: true, rocketGame: true },
    ]);
    expect(requested).toEqual(Array(4).fill('http://wolfscape.internal/health'));
  });

  it('reads the in-process servers through localHealth, keeping the reading while it has none', async () => {
    const { notifier, pushed } = recordingNotifier();
    const health: Record<string, boolean | undefined> = { wolfscape: undefined, rocketGame: true };
    const monitor = createGameServerMonitor({
      healthUrls: {},
      notifier,
      localHealth: (type) => health[type],
      fetch: () => Promise.reject(new Error('no network calls expected')),
    });
    await monitor.check();
    expect(monitor.getStatus()).toEqual({ wolfscape: true, rocketGame: true });
    health.rocketGame = false;
    await monitor.check();
    health.wolfscape = true;
    health.rocketGame = true;
    await monitor.check();
    expect(pushed).toEqual([
      { wolfscape: true, rocketGame: false },
      { wolfscape: true, rocketGame: true },
    ]);
  });
});
