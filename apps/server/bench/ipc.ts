/** Messages between a benchmark (parent) and bench/serve.ts (the server in a child process). */

/** Parent → child. */
export type ParentMessage =
  | {
      type: 'measure';
      id: number;
      /** Start a new window for CPU, event-loop utilisation and delay after this reading. */
      reset?: boolean;
    }
  | { type: 'stop' }
  /** Tick durations of an in-process game server since the previous request (bench:game-server). */
  | { type: 'game-ticks'; id: number; serverType: string };

export interface GameTickMeasurement {
  /** Each tick's duration in ms since the previous request. */
  durations: number[];
  /** Room id → players. */
  rooms: Record<string, number>;
  cpuMs: number;
  wallMs: number;
}

export interface ChildMeasurement {
  /** After two forced GCs (the child runs with --expose-gc). */
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  /** Engine.IO connections the server holds. */
  clients: number;
  /** Since the previous reset: CPU time (user+system) in ms, wall time in ms, event-loop use 0..1. */
  cpuMs: number;
  wallMs: number;
  eventLoopUtilization: number;
  /** Event-loop delay (lateness of a 10 ms timer) since the previous reset, ms. */
  loopDelayP50Ms: number;
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
}

/** Child → parent. */
export type ChildMessage =
  | { type: 'ready'; url: string; database: 'pglite' | 'postgres' }
  | { type: 'measure'; id: number; measurement: ChildMeasurement }
  | { type: 'game-ticks'; id: number; measurement: GameTickMeasurement }
  | { type: 'stopped' }
  | { type: 'failed'; error: string };
