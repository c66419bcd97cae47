import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { TestApp } from '../../test/harness.js';
import { scaled } from '../../test/slow-machine.js';
import { FairQueue } from './fair-queue.js';
import { fresh, HELLO, newAddress, postCode, startRunnerApp } from './test-support.js';

/** One address cannot lock everyone else out of the runner. */

const SLEEPER = `#include <cstdio>
#include <unistd.h>
int main() { std::puts("sleeping"); std::fflush(stdout); sleep(30); }`;

describe('the runner is shared fairly between addresses', () => {
  let app: TestApp;

  beforeAll(async () => {
    // one slot, so the flood and the other address compete for it
    ({ app } = await startRunnerApp({ concurrency: 1, maxWaiting: 8, slotSecondsPerMinute: 6 }));
  }, scaled(300_000));

  afterAll(async () => {
    await app?.stop();
  });

  it(
    'a flood of blocking runs from one address holds one slot; another address is served next',
    async () => {
      const flooder = newAddress();
      const settled: string[] = [];
      const track = <T>(name: string, promise: Promise<T>) =>
        promise.then((value) => {
          settled.push(name);
          return value;
        });
      const first = track('flood 1', postCode(app, fresh(SLEEPER), {}, flooder));
      await new Promise((resolve) => setTimeout(resolve, 300));
      const second = track('flood 2', postCode(app, fresh(SLEEPER), {}, flooder));
      await new Promise((resolve) => setTimeout(resolve, 300));
      // a third run of the same address is refused at once: one running, one waiting is its share
      const third = await postCode(app, fresh(SLEEPER), {}, flooder);
      expect(third.status).toBe(429);
      expect(third.body.error).toMatchObject({
        code: 'RUNS_IN_PROGRESS',
        message:
          'You already have a program running and one waiting. Please wait for them to finish.',
      });
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);

      // another address arrives after the flood's second run, and is served before it
      const other = await track('other', postCode(app, fresh(HELLO), {}, newAddress()));
      expect(other.status).toBe(200);
      expect(other.body.output).toBe('Hello, World!\n');
      expect(settled).toEqual(['flood 1', 'other']);

      const [firstDone, secondDone] = await Promise.all([first, second]);
      expect(firstDone.body.timedOut).toBe(true);
      expect(firstDone.body.output).toMatch(/^sleeping\n/);
      expect(secondDone.status).toBe(200);

      // two 5-second runs used the address's 6 slot-seconds a minute: it waits now, others do not
      const overBudget = await postCode(app, fresh(HELLO), {}, flooder);
      expect(overBudget.status).toBe(429);
      expect(overBudget.body.error.code).toBe('RUN_TIME_BUDGET');
      expect(overBudget.body.error.message).toMatch(
        /^Your programs have used the code runner for more than 6 s in the last minute\. Please try again in \d+ s\.$/,
      );
      expect(Number(overBudget.headers.get('retry-after'))).toBeGreaterThan(0);
      const stillServed = await postCode(app, fresh(HELLO), {}, newAddress());
      expect(stillServed.status).toBe(200);
    },
    scaled(300_000),
  );
});

describe('a compile is charged its own CPU time, not the wait for a compiler', () => {
  let app: TestApp;

  beforeAll(async () => {
    // two compilers, of which one is loaded at start: the other loads and warms up for the
    // first visitors who need it. 2 s of running a minute: far less than a cold compiler takes
    ({ app } = await startRunnerApp({
      backend: 'wasm',
      concurrency: 2,
      slotSecondsPerMinute: 2,
      compileSecondsPerMinute: 3,
    }));
  }, scaled(300_000));

  afterAll(async () => {
    await app?.stop();
  });

  it(
    'two visitors right after start are served, and served again at once',
    async () => {
      const visitors = [newAddress(), newAddress()];
      for (const round of [1, 2]) {
        const responses = await Promise.all(
          visitors.map((address) => postCode(app, fresh(HELLO), {}, address)),
        );
        for (const response of responses) {
          expect({ round, status: response.status, output: response.body.output }).toEqual({
            round,
            status: 200,
            output: 'Hello, World!\n',
          });
        }
      }
    },
    scaled(300_000),
  );
});

/** <iostream> without its precompiled header (a line comes first): a compile of some weight. */
const UNHEADED = `#define UNHEADED 1
#include <iostream>
int main() { std::cout << "compiled" << std::endl; }`;

describe('compiling and running draw from budgets of their own', () => {
  let app: TestApp;

  beforeAll(async () => {
    ({ app } = await startRunnerApp({ compileSecondsPerMinute: 1 }));
  }, scaled(300_000));

  afterAll(async () => {
    await app?.stop();
  });

  it(
    'a visitor whose compiles used up their budget is told it was compiling',
    async () => {
      const address = newAddress();
      let refusal: Awaited<ReturnType<typeof postCode>> | undefined;
      // each compile takes a fraction of a second of CPU: a few use up 1 s
      for (let attempt = 0; attempt < 8 && !refusal; attempt++) {
        const response = await postCode(app, fresh(UNHEADED), {}, address);
        if (response.status === 429) {
          refusal = response;
        } else {
          expect(response.body).toMatchObject({ output: 'compiled\n', exitCode: 0 });
        }
      }
      expect(refusal?.body.error.code).toBe('COMPILE_TIME_BUDGET');
      expect(refusal?.body.error.message).toMatch(
        /^Compiling your programs has used more than 1 s of CPU time in the last minute\. Please try again in \d+ s\.$/,
      );
      expect(Number(refusal?.headers.get('retry-after'))).toBeGreaterThan(0);
      const other = await postCode(app, fresh(HELLO), {}, newAddress());
      expect(other.body.output).toBe('Hello, World!\n');
    },
    scaled(300_000),
  );
});

describe('FairQueue', () => {
  it('serves the address served longest ago first, and counts slot time against the address', async () => {
    let now = 0;
    const queue = new FairQueue({
      slots: 1,
      maxWaiting: 10,
      slotSecondsPerMinute: 10,
      compileSecondsPerMinute: 10,
      now: () => now,
    });
    const a1 = await queue.acquire({ address: 'a' });
    const order: string[] = [];
    const a2 = queue.acquire({ address: 'a' }).then((slot) => {
      order.push('a');
      return slot;
    });
    const b1 = queue.acquire({ address: 'b' }).then((slot) => {
      order.push('b');
      return slot;
    });
    now += 4000;
    a1.release();
    (await b1).release();
    (await a2).release();
    expect(order).toEqual(['b', 'a']);
    // a used 4 s of its 10: still allowed; 9 more seconds overdraw it
    const a3 = await queue.acquire({ address: 'a' });
    now += 9000;
    a3.release();
    await expect(queue.acquire({ address: 'a' })).rejects.toMatchObject({
      status: 429,
      code: 'RUN_TIME_BUDGET',
    });
    // the budget refills with time (10 slot-seconds a minute)
    now += 60_000;
    (await queue.acquire({ address: 'a' })).release();
  });

  it('keeps the compile and run budgets apart, and its 429 says which one ran out', async () => {
    let now = 0;
    const queue = new FairQueue({
      slots: 1,
      maxWaiting: 10,
      slotSecondsPerMinute: 10,
      compileSecondsPerMinute: 5,
      now: () => now,
    });
    // 4 s of compiling and 9 s of running: 13 s in all, but within each budget
    now += 13_000;
    (await queue.acquire({ address: 'both' })).release({ compileMs: 4000, runMs: 9000 });
    (await queue.acquire({ address: 'both' })).release({ compileMs: 0, runMs: 0 });

    // a compile of 6 s CPU overdraws the compile budget only: the 429 says so
    (await queue.acquire({ address: 'compiler' })).release({ compileMs: 6000, runMs: 50 });
    await expect(queue.acquire({ address: 'compiler' })).rejects.toMatchObject({
      status: 429,
      code: 'COMPILE_TIME_BUDGET',
      message:
        'Compiling your programs has used more than 5 s of CPU time in the last minute. Please try again in 13 s.',
      headers: { 'Retry-After': '13' },
    });

    // a program that ran 11 s overdraws the run budget only
    (await queue.acquire({ address: 'runner' })).release({ compileMs: 100, runMs: 11_000 });
    await expect(queue.acquire({ address: 'runner' })).rejects.toMatchObject({
      status: 429,
      code: 'RUN_TIME_BUDGET',
      message:
        'Your programs have used the code runner for more than 10 s in the last minute. Please try again in 7 s.',
    });

    // each budget refills on its own: 13 s later the compiler may compile again
    now += 13_000;
    (await queue.acquire({ address: 'compiler' })).release({ compileMs: 100, runMs: 10 });
  });

  it('counts a signed-in user across addresses', async () => {
    const queue = new FairQueue({
      slots: 2,
      maxWaiting: 10,
      slotSecondsPerMinute: 60,
      compileSecondsPerMinute: 60,
    });
    const held = await queue.acquire({ address: 'x', userId: 'u' });
    const waiting = queue.acquire({ address: 'y', userId: 'u' });
    await expect(queue.acquire({ address: 'z', userId: 'u' })).rejects.toMatchObject({
      code: 'RUNS_IN_PROGRESS',
    });
    // one slot was free, but the user already had a run in one
    expect(queue.active).toBe(1);
    held.release();
    (await waiting).release();
  });
});
