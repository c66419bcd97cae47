import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { TestApp } from '../../test/harness.js';
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
  }, 300_000);

  afterAll(async () => {
    await app.stop();
  });

  it('a flood of blocking runs from one address holds one slot; another address is served next', async () => {
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
  }, 300_000);
});

describe('FairQueue', () => {
  it('serves the address served longest ago first, and counts slot time against the address', async () => {
    let now = 0;
    const queue = new FairQueue({
      slots: 1,
      maxWaiting: 10,
      slotSecondsPerMinute: 10,
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

  it('counts a signed-in user across addresses', async () => {
    const queue = new FairQueue({ slots: 2, maxWaiting: 10, slotSecondsPerMinute: 60 });
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
