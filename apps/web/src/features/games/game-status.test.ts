import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import {
  GAME_STATUS_POLL_MS,
  GAME_STATUS_TIMEOUT_MS,
  INITIAL_SERVER_STATUS,
  nextServerStatus,
  readCheck,
  type ServerStatus,
  startGameStatusPolling,
} from './game-status';

describe('nextServerStatus (spec section 4)', () => {
  it('starts Online and turns Offline only on the third failure in a row', () => {
    let status = INITIAL_SERVER_STATUS;
    expect(status.isOnline).toBe(true);
    status = nextServerStatus(status, false);
    expect(status).toEqual({ isOnline: true, failures: 1 });
    status = nextServerStatus(status, false);
    expect(status).toEqual({ isOnline: true, failures: 2 });
    status = nextServerStatus(status, false);
    expect(status).toEqual({ isOnline: false, failures: 3 });
    status = nextServerStatus(status, false);
    expect(status).toEqual({ isOnline: false, failures: 4 });
  });

  it('resets the counter on success, so two failures between successes never go Offline', () => {
    let status = INITIAL_SERVER_STATUS;
    for (const ok of [false, false, true, false, false, true, false, false]) {
      status = nextServerStatus(status, ok);
      expect(status.isOnline).toBe(true);
    }
  });

  it('comes back Online with the next success', () => {
    const offline: ServerStatus = { isOnline: false, failures: 5 };
    expect(nextServerStatus(offline, true)).toEqual({ isOnline: true, failures: 0 });
  });
});

describe('readCheck accepts a reading only when the value is boolean', () => {
  it.each([
    [{ wolfscape: true }, true],
    [{ wolfscape: false }, false],
    [{ wolfscape: 'true' }, false],
    [{ wolfscape: 1 }, false],
    [{ wolfscape: null }, false],
    [{ rocketGame: true }, false],
    [null, false],
    ['ok', false],
    [undefined, false],
  ])('%j → %s', (answer, expected) => {
    expect(readCheck(answer, 'wolfscape')).toBe(expected);
  });
});

describe('startGameStatusPolling with fake timers', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  /** A fetch whose answers are scripted per call; 'hang' waits until aborted. */
  function scriptedFetch(answers: unknown[]) {
    const signals: AbortSignal[] = [];
    const fetchStatus = vi.fn((signal: AbortSignal) => {
      signals.push(signal);
      const answer = answers.shift();
      if (answer === 'hang') {
        return new Promise<unknown>((_resolve, reject) => {
          signal.addEventListener('abort', () => reject(signal.reason as Error));
        });
      }
      return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
    });
    return { fetchStatus, signals };
  }

  it('checks at once and every 120 s; three time-outs turn a server Offline, a success back', async () => {
    const { fetchStatus, signals } = scriptedFetch([
      'hang',
      'hang',
      'hang',
      { wolfscape: true, rocketGame: true },
    ]);
    const changes: Record<string, ServerStatus>[] = [];
    const stop = startGameStatusPolling({
      serverTypes: ['wolfscape', 'rocketGame'],
      onChange: (statuses) => changes.push(statuses),
      fetchStatus,
    });
    expect(fetchStatus).toHaveBeenCalledTimes(1);

    // the first request is aborted at 20 s: one failure, still Online
    await vi.advanceTimersByTimeAsync(GAME_STATUS_TIMEOUT_MS - 1);
    expect(changes).toHaveLength(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(signals[0]?.aborted).toBe(true);
    expect(changes.at(-1)?.wolfscape).toEqual({ isOnline: true, failures: 1 });

    // no other request until 120 s after the first
    await vi.advanceTimersByTimeAsync(GAME_STATUS_POLL_MS - GAME_STATUS_TIMEOUT_MS - 1);
    expect(fetchStatus).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(fetchStatus).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(GAME_STATUS_TIMEOUT_MS);
    expect(changes.at(-1)?.wolfscape).toEqual({ isOnline: true, failures: 2 });

    await vi.advanceTimersByTimeAsync(GAME_STATUS_POLL_MS);
    expect(changes.at(-1)).toEqual({
      wolfscape: { isOnline: false, failures: 3 },
      rocketGame: { isOnline: false, failures: 3 },
    });

    await vi.advanceTimersByTimeAsync(GAME_STATUS_POLL_MS);
    expect(fetchStatus).toHaveBeenCalledTimes(4);
    expect(changes.at(-1)).toEqual({
      wolfscape: { isOnline: true, failures: 0 },
      rocketGame: { isOnline: true, failures: 0 },
    });
    stop();
  });

  it('counts non-boolean values, false and errors as failures, per server type', async () => {
    const { fetchStatus } = scriptedFetch([
      { wolfscape: 'up', rocketGame: true },
      { wolfscape: false, rocketGame: true },
      new Error('HTTP 503'),
    ]);
    const changes: Record<string, ServerStatus>[] = [];
    const stop = startGameStatusPolling({
      serverTypes: ['wolfscape', 'rocketGame'],
      onChange: (statuses) => changes.push(statuses),
      fetchStatus,
    });
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(GAME_STATUS_POLL_MS);
    await vi.advanceTimersByTimeAsync(GAME_STATUS_POLL_MS);
    expect(changes.map((c) => c.wolfscape?.isOnline)).toEqual([true, true, false]);
    expect(changes.map((c) => c.rocketGame)).toEqual([
      { isOnline: true, failures: 0 },
      { isOnline: true, failures: 0 },
      { isOnline: true, failures: 1 },
    ]);
    stop();
  });

  it('stops polling and aborts the request in flight when stopped', async () => {
    const { fetchStatus, signals } = scriptedFetch(['hang']);
    const onChange = vi.fn();
    const stop = startGameStatusPolling({ serverTypes: ['wolfscape'], onChange, fetchStatus });
    stop();
    expect(signals[0]?.aborted).toBe(true);
    await vi.advanceTimersByTimeAsync(GAME_STATUS_POLL_MS * 3);
    expect(fetchStatus).toHaveBeenCalledTimes(1);
    expect(onChange).not.toHaveBeenCalled();
  });
});
