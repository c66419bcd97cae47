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
  /**
   * Seconds one address's (or user's) programs may run per minute, sleeping included (a slot is
   * theirs while they do); beyond, 429 RUN_TIME_BUDGET until it recovers.
   */
  slotSecondsPerMinute: number;
  /** CPU seconds one address's (or user's) compiles may use per minute; beyond, 429 COMPILE_TIME_BUDGET. */
  compileSecondsPerMinute: number;
  now?: () => number;
}

/** What a run spent, each drawn from its own budget. */
export interface RunSpending {
  /** The compile's CPU time (not the wait for a free or warming compiler). */
  compileMs: number;
  /** How long the program ran. */
  runMs: number;
}

/** A held slot: `index` is 0 … slots-1 (the native sandbox gives each its own uid). */
export interface Slot {
  index: number;
  /**
   * Gives the slot back and draws what the run spent from the client's budgets; without
   * `spent` (the backend failed), the whole time the slot was held counts as running.
   */
  release(spent?: RunSpending): void;
}

interface Waiter {
  keys: string[];
  resolve: (slot: Slot) => void;
}

type Budget = 'run' | 'compile';

interface KeyState {
  running: number;
  queued: number;
  /** Milliseconds left in each bucket (may go below zero: a run is counted when it ends). */
  balanceMs: Record<Budget, number>;
  updatedAt: number;
  /** When this key last got a slot (-Infinity: never), for serving the waiting keys in turn. */
  servedAt: number;
}

const busy = (
  message: string,
  retryAfterSeconds: number,
  code:
    'RUNNER_BUSY' | 'RUN_TIME_BUDGET' | 'COMPILE_TIME_BUDGET' | 'RUNS_IN_PROGRESS' = 'RUNNER_BUSY',
) => new HttpError(code, { message, headers: { 'Retry-After': String(retryAfterSeconds) } });

/**
 * The runner's slots, shared fairly: each address and each user has at most one run holding a
 * slot and one waiting, the waiting runs are served round robin (the address served longest ago
 * first), and each run draws from its address's (and user's) two budgets per minute: its
 * program's time in the slot, blocked or busy, and its compile's CPU time. They are kept apart
 * so that a slow compile on a busy machine is not taken for a program that ran too long, and
 * the 429 says which one ran out.
 */
export class FairQueue {
  private readonly free: number[];
  private readonly waiting: Waiter[] = [];
  private readonly keys = new Map<string, KeyState>();
  private readonly now: () => number;
  private readonly capacityMs: Record<Budget, number>;

  constructor(private readonly options: FairQueueOptions) {
    this.free = Array.from({ length: options.slots }, (_, index) => options.slots - 1 - index);
    this.now = options.now ?? Date.now;
    this.capacityMs = {
      run: options.slotSecondsPerMinute * 1000,
      compile: options.compileSecondsPerMinute * 1000,
    };
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
    const overdrawn = this.overdrawn(states);
    if (overdrawn) {
      throw overdrawn;
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

  /** The 429 for the budget that recovers last, if any of the client's is used up. */
  private overdrawn(states: KeyState[]): HttpError | undefined {
    let worst: { budget: Budget; seconds: number } | undefined;
    for (const state of states) {
      for (const budget of ['run', 'compile'] as const) {
        const balance = state.balanceMs[budget];
        if (balance > 0) {
          continue;
        }
        const refillPerMs = this.capacityMs[budget] / 60_000;
        const seconds = Math.max(1, Math.ceil((1 - balance) / refillPerMs / 1000));
        if (!worst || seconds > worst.seconds) {
          worst = { budget, seconds };
        }
      }
    }
    if (!worst) {
      return undefined;
    }
    const { seconds } = worst;
    return worst.budget === 'run'
      ? busy(
          `Your programs have used the code runner for more than ${this.options.slotSecondsPerMinute} s in the last minute. Please try again in ${seconds} s.`,
          seconds,
          'RUN_TIME_BUDGET',
        )
      : busy(
          `Compiling your programs has used more than ${this.options.compileSecondsPerMinute} s of CPU time in the last minute. Please try again in ${seconds} s.`,
          seconds,
          'COMPILE_TIME_BUDGET',
        );
  }

  private state(key: string): KeyState {
    const now = this.now();
    let state = this.keys.get(key);
    if (!state) {
      state = {
        running: 0,
        queued: 0,
        balanceMs: { ...this.capacityMs },
        updatedAt: now,
        servedAt: Number.NEGATIVE_INFINITY,
      };
      this.keys.set(key, state);
    }
    for (const budget of ['run', 'compile'] as const) {
      const capacity = this.capacityMs[budget];
      const refill = ((now - state.updatedAt) * capacity) / 60_000;
      state.balanceMs[budget] = Math.min(capacity, state.balanceMs[budget] + refill);
    }
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
      release: (spent) => {
        if (isReleased) {
          return;
        }
        isReleased = true;
        const { compileMs, runMs } = spent ?? { compileMs: 0, runMs: this.now() - startedAt };
        for (const key of keys) {
          const state = this.state(key);
          state.running -= 1;
          state.balanceMs.run -= runMs;
          state.balanceMs.compile -= compileMs;
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
      const isFull =
        state.balanceMs.run >= this.capacityMs.run &&
        state.balanceMs.compile >= this.capacityMs.compile;
      if (state.running === 0 && state.queued === 0 && isFull) {
        this.keys.delete(key);
      }
    }
  }
}
