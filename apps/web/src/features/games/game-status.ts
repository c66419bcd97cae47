import { useEffect, useState } from 'react';
import { z } from 'zod';

import { http } from '../../lib/http';

/** Spec section 9: the status is polled every 120 s, each request aborted after 20 s. */
export const GAME_STATUS_POLL_MS = 120_000;
export const GAME_STATUS_TIMEOUT_MS = 20_000;

/** One multiplayer server's state (spec section 4). */
export interface ServerStatus {
  isOnline: boolean;
  /** Consecutive failed checks. */
  failures: number;
}

export const INITIAL_SERVER_STATUS: ServerStatus = { isOnline: true, failures: 0 };

/**
 * The spec's rule: an Online reading resets the failure counter (and restores Online); a failed
 * check adds one, and turns the server Offline when the counter was already 2 or more (the third
 * failure in a row).
 */
export function nextServerStatus(status: ServerStatus, isCheckOk: boolean): ServerStatus {
  if (isCheckOk) {
    return INITIAL_SERVER_STATUS;
  }
  return {
    isOnline: status.failures >= 2 ? false : status.isOnline,
    failures: status.failures + 1,
  };
}

/**
 * What one check says about a server type: OK only when the request succeeded and its value is
 * the boolean true. A non-OK answer, a time-out, a network error, false, or any value that is
 * not a boolean (the reading is not accepted) is a failed check.
 */
export function readCheck(answer: unknown, serverType: string): boolean {
  if (typeof answer !== 'object' || answer === null) {
    return false;
  }
  const value = (answer as Record<string, unknown>)[serverType];
  return typeof value === 'boolean' ? value : false;
}

type FetchStatus = (signal: AbortSignal) => Promise<unknown>;

const fetchGameStatus: FetchStatus = (signal) =>
  // each server type's value is checked on its own by readCheck, not the answer as a whole
  http.get('/api/game-status', z.unknown(), signal);

/**
 * Polls the game status now and every GAME_STATUS_POLL_MS, aborting each request after
 * GAME_STATUS_TIMEOUT_MS, and tells `onChange` the state of every server type after each check.
 * Returns a function that stops polling (and aborts a request in flight).
 */
export function startGameStatusPolling(options: {
  serverTypes: readonly string[];
  onChange: (statuses: Record<string, ServerStatus>) => void;
  fetchStatus?: FetchStatus;
}): () => void {
  const fetchStatus = options.fetchStatus ?? fetchGameStatus;
  let statuses: Record<string, ServerStatus> = Object.fromEntries(
    options.serverTypes.map((type) => [type, INITIAL_SERVER_STATUS]),
  );
  let isStopped = false;
  let inFlight: AbortController | undefined;

  const check = async () => {
    const controller = new AbortController();
    inFlight = controller;
    const timer = setTimeout(
      () => controller.abort(new Error('Request timed out')),
      GAME_STATUS_TIMEOUT_MS,
    );
    let answer: unknown;
    try {
      answer = await fetchStatus(controller.signal);
    } catch (error) {
      if (isStopped) {
        return;
      }
      console.warn('Game status check failed', error);
      answer = undefined;
    } finally {
      clearTimeout(timer);
      if (inFlight === controller) {
        inFlight = undefined;
      }
    }
    if (isStopped) {
      return;
    }
    statuses = Object.fromEntries(
      options.serverTypes.map((type) => [
        type,
        nextServerStatus(statuses[type] ?? INITIAL_SERVER_STATUS, readCheck(answer, type)),
      ]),
    );
    options.onChange(statuses);
  };

  void check();
  const interval = setInterval(() => void check(), GAME_STATUS_POLL_MS);
  return () => {
    isStopped = true;
    clearInterval(interval);
    inFlight?.abort();
  };
}

/** Online (true) or Offline (false) per server type, polled while the component is mounted. */
export function useGameServerStatus(serverTypes: readonly string[]): Record<string, boolean> {
  const key = serverTypes.join(',');
  const [online, setOnline] = useState<Record<string, boolean>>({});
  useEffect(() => {
    const types = key ? key.split(',') : [];
    if (types.length === 0) {
      return undefined;
    }
    return startGameStatusPolling({
      serverTypes: types,
      onChange: (statuses) =>
        setOnline(
          Object.fromEntries(Object.entries(statuses).map(([type, s]) => [type, s.isOnline])),
        ),
    });
  }, [key]);
  // every server starts Online
  return Object.fromEntries(serverTypes.map((type) => [type, online[type] ?? true]));
}
