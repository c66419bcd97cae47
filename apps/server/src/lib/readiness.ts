import { sql } from 'drizzle-orm';
import type { Redis } from 'ioredis';

import type { Database } from '../db/client.js';

export type ReadinessAnswer = { ready: true } | { ready: false; reason: string };

export interface Readiness {
  /** Whether this process should get traffic now: migrated, database and Redis answering. */
  check(): Promise<ReadinessAnswer>;
  /** From shutdown on: not ready, so the proxy sends new requests elsewhere. */
  markStopping(): void;
}

const CHECK_TIMEOUT_MS = 2000;

/** Rejects after `ms` (a check must answer a probe within its interval). */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * GET /api/ready: 200 while a query and a Redis PING (when REDIS_URL is set) succeed; 503 with
 * the reason otherwise, and from shutdown on. Before the migrations ran there is no app yet:
 * server.ts answers 503 "migrations running" itself (answerWhileStarting).
 */
export function createReadiness(deps: { database: Database; redis: Redis | undefined }): Readiness {
  let isStopping = false;
  return {
    markStopping() {
      isStopping = true;
    },
    async check() {
      if (isStopping) {
        return { ready: false, reason: 'shutting down' };
      }
      try {
        await within(deps.database.db.execute(sql`select 1`), CHECK_TIMEOUT_MS, 'the database');
      } catch (error) {
        return {
          ready: false,
          reason: `database unreachable: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
      if (deps.redis) {
        try {
          await within(deps.redis.ping(), CHECK_TIMEOUT_MS, 'Redis');
        } catch (error) {
          return {
            ready: false,
            reason: `Redis unreachable: ${error instanceof Error ? error.message : String(error)}`,
          };
        }
      }
      return { ready: true };
    },
  };
}
