import { HttpError } from '../../lib/errors.js';

/** Who asks for a run: the client's address and, when signed in, the user. */
export interface RunClient {
  address: string;
  userId?: string | undefined;
}

export interface FairQueueOptions {
  /** Runs at once. */
  slots: number;
  /** Runs allowed to wait for a slot in all; beyond, 429 RUNNER_BUSY. */
  maxWaiting: number;
  /** Slot-seconds one address (or user) may hold per minute; beyond, 429 until it recovers. */
  slotSecondsPerMinute: number;
  now?: () => number;
}

/** A held slot: `index` is 0 … slots-1 (the native sandbox gives each its own uid). */
export interface Slot {
  index: number;
  /** Gives the slot back and counts the time it was held against the client. */
  release(): void;
}

interface Waiter {
  keys: string[];
  resolve: (slot: Slot) => void;
}

interface KeyState {
  running: number;
  queued: number;
  /** Slot-milliseconds left in the bucket (may go below zero: a run is counted when it ends). */
  balanceMs: number;
  updatedAt: number;
  /** When this key last got a slot (-Infinity: never), for serving the waiting keys in turn. */
  servedAt: number;
}

const busy = (
  message: string,
  retryAfterSeconds: number,
  code: 'RUNNER_BUSY' | 'RUN_TIME_BUDGET' | 'RUNS_IN_PROGRESS' = 'RUNNER_BUSY',
) => new HttpError(code, { message, headers: { 'Retry-After': String(retryAfterSeconds) } });

/**
 * The runner's slots, shared fairly: each address and each user has at most one run holding a
 * slot and one waiting, the waiting runs are served round robin (the address served longest ago
 * first), and every run's time in a slot, blocked or busy, is drawn from its address's (and
 * user's) budget of slot-seconds per minute.
 */
export class FairQueue {
  private readonly free: number[];
  private readonly waiting: Waiter[] = [];
  private readonly keys = new Map<string, KeyState>();
  private readonly now: () => number;
  private readonly capacityMs: number;

  constructor(private readonly options: FairQueueOptions) {
    this.free = Array.from({ length: options.slots }, (_, index) => options.slots - 1 - index);
    this.now = options.now ?? Date.now;
    this.capacityMs = options.slotSecondsPerMinute * 1000;
  }

  get active(): number {
    return this.options.slots - this.free.length;
  }

  get queued(): number {
    return this.waiting.length;
  }

  /** Takes a slot for the client, waiting in turn; throws 429 when the client or the runner is full. */
  async acquire(client: RunClient): Promise<Slot> {
    const keys = [`ip:${client.address}`, ...(client.userId ? [`user:${client.userId}`] : [])];
    const states = keys.map((key) => this.state(key));
    const overdrawn = states.find((state) => state.balanceMs <= 0);
    if (overdrawn) {
      const refillPerMs = this.capacityMs / 60_000;
      const seconds = Math.max(1, Math.ceil((1 - overdrawn.balanceMs) / refillPerMs / 1000));
      throw busy(
        `Your programs have used the code runner for more than ${this.options.slotSecondsPerMinute} s in the last minute. Please try again in ${seconds} s.`,
        seconds,
        'RUN_TIME_BUDGET',
      );
    }
    if (states.some((state) => state.queued > 0)) {
      throw busy(
        'You already have a program running and one waiting. Please wait for them to finish.',
        5,
        'RUNS_IN_PROGRESS',
      );
    }
    const canStart = states.every((state) => state.running === 0);
    const index = canStart ? this.free.pop() : undefined;
    if (index !== undefined) {
      return this.grant(keys, index);
    }
    if (this.waiting.length >= this.options.maxWaiting) {
      throw busy(
        'The code runner is busy with other programs. Please try again in a few seconds.',
        5,
      );
    }
    for (const state of states) {
      state.queued += 1;
    }
    return new Promise((resolve) => this.waiting.push({ keys, resolve }));
  }

  private state(key: string): KeyState {
    const now = this.now();
    let state = this.keys.get(key);
    if (!state) {
      state = {
        running: 0,
        queued: 0,
        balanceMs: this.capacityMs,
        updatedAt: now,
        servedAt: Number.NEGATIVE_INFINITY,
      };
      this.keys.set(key, state);
    }
    const refill = ((now - state.updatedAt) * this.capacityMs) / 60_000;
    state.balanceMs = Math.min(this.capacityMs, state.balanceMs + refill);
    state.updatedAt = now;
    return state;
  }

  private grant(keys: string[], index: number): Slot {
    const startedAt = this.now();
    for (const key of keys) {
      const state = this.state(key);
      state.running += 1;
      state.servedAt = startedAt;
    }
    let isReleased = false;
    return {
      index,
      release: () => {
        if (isReleased) {
          return;
        }
        isReleased = true;
        const heldMs = this.now() - startedAt;
        for (const key of keys) {
          const state = this.state(key);
          state.running -= 1;
          state.balanceMs -= heldMs;
        }
        this.free.push(index);
        this.serveNext();
        this.forgetIdle();
      },
    };
  }

  /**
   * Round robin: of the waiting runs whose address and user have nothing running, the one whose
   * address (or user) was served longest ago takes the free slot; ties go by arrival.
   */
  private serveNext(): void {
    while (this.free.length > 0) {
      let position = -1;
      let oldest = Number.POSITIVE_INFINITY;
      this.waiting.forEach((waiter, index) => {
        const states = waiter.keys.map((key) => this.state(key));
        if (states.some((state) => state.running > 0)) {
          return;
        }
        const servedAt = Math.max(...states.map((state) => state.servedAt));
        if (servedAt < oldest) {
          oldest = servedAt;
          position = index;
        }
      });
      const waiter = position < 0 ? undefined : this.waiting.splice(position, 1)[0];
      const index = waiter ? this.free.pop() : undefined;
      if (!waiter || index === undefined) {
        return;
      }
      for (const key of waiter.keys) {
        this.state(key).queued -= 1;
      }
      waiter.resolve(this.grant(waiter.keys, index));
    }
  }

  /** Keys with nothing in progress and a full bucket carry no information: drop them. */
  private forgetIdle(): void {
    if (this.keys.size < 1000) {
      return;
    }
    for (const key of [...this.keys.keys()]) {
      const state = this.state(key);
      if (state.running === 0 && state.queued === 0 && state.balanceMs >= this.capacityMs) {
        this.keys.delete(key);
      }
    }
  }
}
