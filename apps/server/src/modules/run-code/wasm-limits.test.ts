import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { TestApp } from '../../test/harness.js';
import { scaled } from '../../test/slow-machine.js';
import { NOTICES, RUN_CODE_LIMITS } from './limits.js';
import { fresh, HELLO, postCode, startRunnerApp } from './test-support.js';
import { capModuleMemory } from './wasm-memory-cap.js';

/**
 * The WebAssembly backend keeps the native backend's compile limits and says so in the same
 * words: a compile's memory is capped at 1 GB ("out of memory"), and compiler
 * messages past 64 KB are cut with the notice and `truncated`.
 */

let app: TestApp;

beforeAll(async () => {
  ({ app } = await startRunnerApp({ backend: 'wasm', maxWaiting: 8 }));
}, scaled(300_000));

afterAll(async () => {
  await app?.stop();
});

/**
 * A compile that asks for ~1.2 GB at once: 50 million template arguments (24 bytes each) from
 * Clang's integer-sequence builtin. Uncapped, Clang's memory grows to it and the compile runs
 * into its CPU limit instead.
 */
const MEMORY_BOMB = `template <class T, T... I> struct Seq {};
using Huge = __make_integer_seq<Seq, int, 50000000>;
Huge huge;
int main() {}
`;

describe('wasm: compile limits as native', () => {
  it(
    'stops a compile that needs more than 1 GB with an out-of-memory answer, and compiles on',
    { timeout: scaled(180_000) },
    async () => {
      const rssBefore = process.memoryUsage().rss;
      let rssPeak = rssBefore;
      const sampler = setInterval(() => {
        rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
      }, 20);
      const response = await postCode(app, fresh(MEMORY_BOMB)).finally(() =>
        clearInterval(sampler),
      );
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({
        compiled: false,
        exitCode: null,
        timedOut: false,
        backend: 'wasm',
      });
      expect(response.body.output).toMatch(/out of memory/);
      expect(response.body.output).toMatch(
        new RegExp(`${RUN_CODE_LIMITS.compileMemoryBytes / 1024 / 1024} MB`),
      );
      // the compile's memory stayed within its cap (plus the process's own churn)
      expect(rssPeak - rssBefore).toBeLessThan(RUN_CODE_LIMITS.compileMemoryBytes * 1.5);
      const hello = await postCode(app, fresh(HELLO));
      expect(hello.body).toMatchObject({ compiled: true, exitCode: 0 });
      expect(hello.body.output).toBe('Hello, World!\n');
    },
  );

  it(
    'cuts compiler messages past 64 KB with the notice and truncated, as native',
    { timeout: scaled(120_000) },
    async () => {
      // about 110 bytes of warning per unused variable: well past 64 KB
      const variables = Array.from({ length: 1200 }, (_, index) => `  int unused${index};`);
      const response = await postCode(app, fresh(`int main() {\n${variables.join('\n')}\n}\n`));
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ compiled: false, truncated: true, backend: 'wasm' });
      expect(response.body.output).toMatch(/warning: unused variable 'unused0'/);
      expect(response.body.output.endsWith(`[${NOTICES.truncated}]\n`)).toBe(true);
      const shown = response.body.output.slice(0, -`[${NOTICES.truncated}]\n`.length);
      expect(Buffer.byteLength(shown)).toBeLessThanOrEqual(RUN_CODE_LIMITS.outputBytes + 1);
    },
  );
});

describe('capModuleMemory', () => {
  const leb = (value: number): number[] =>
    value < 0x80 ? [value] : [0x80 | (value & 0x7f), ...leb(value >> 7)];

  /** A module that defines and exports one memory of `minimum` (and `maximum`) pages. */
  function moduleWithMemory(minimum: number, maximum?: number): Uint8Array {
    const limits =
      maximum === undefined ? [0x00, ...leb(minimum)] : [0x01, ...leb(minimum), ...leb(maximum)];
    const memories = [0x01, ...limits];
    const name = [...Buffer.from('memory')];
    const exports = [0x01, name.length, ...name, 0x02, 0x00];
    return Uint8Array.from([
      ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
      ...[0x05, ...leb(memories.length), ...memories],
      ...[0x07, ...leb(exports.length), ...exports],
    ]);
  }

  interface Memory {
    grow(pages: number): number;
  }
  const wasm = (
    globalThis as unknown as {
      WebAssembly: {
        instantiate(bytes: Uint8Array): Promise<{ instance: { exports: { memory: Memory } } }>;
      };
    }
  ).WebAssembly;

  /** How many pages the module's memory grows to, one at a time, up to 100. */
  async function pagesReached(bytes: Uint8Array): Promise<number> {
    const { instance } = await wasm.instantiate(bytes);
    let pages = 1;
    try {
      while (pages < 100) {
        instance.exports.memory.grow(1);
        pages++;
      }
    } catch {
      // past its maximum
    }
    return pages;
  }

  const PAGE = 65_536;

  it('lowers a larger maximum, adds a missing one and keeps a smaller one', async () => {
    expect(await pagesReached(capModuleMemory(moduleWithMemory(1, 65_536), 10 * PAGE))).toBe(10);
    expect(await pagesReached(capModuleMemory(moduleWithMemory(1), 10 * PAGE))).toBe(10);
    expect(await pagesReached(capModuleMemory(moduleWithMemory(1, 5), 10 * PAGE))).toBe(5);
    // uncapped, the same module grows as far as the test lets it
    expect(await pagesReached(moduleWithMemory(1, 65_536))).toBe(100);
  });
});
