/**
 * Small helpers shared by the benchmarks: percentiles, formatting, signing in over HTTP, the real
 * server for a child process.
 */
import { randomBytes } from 'node:crypto';

import type { startServer as StartServer } from '../src/server.js';

export interface Summary {
  count: number;
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  min: number;
  max: number;
}

/** Nearest-rank percentiles of a sample. */
export function summarize(samples: readonly number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (p: number) =>
    sorted.length === 0
      ? Number.NaN
      : (sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN);
  return {
    count: sorted.length,
    mean:
      sorted.length === 0
        ? Number.NaN
        : sorted.reduce((sum, value) => sum + value, 0) / sorted.length,
    p50: at(50),
    p95: at(95),
    p99: at(99),
    min: sorted[0] ?? Number.NaN,
    max: sorted.at(-1) ?? Number.NaN,
  };
}

export const ms = (value: number, digits = 1) => `${value.toFixed(digits)} ms`;
export const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
export const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
export const int = (value: number) => Math.round(value).toLocaleString('en-US');

/** Prints rows as an aligned plain-text table (first row = header). */
export function printTable(rows: ReadonlyArray<readonly string[]>): void {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, index) => {
      widths[index] = Math.max(widths[index] ?? 0, cell.length);
    });
  }
  const line = (row: readonly string[]) =>
    row
      .map((cell, index) =>
        index === 0 ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0),
      )
      .join('  ');
  const [header, ...body] = rows;
  if (header) {
    console.log(line(header));
    console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  }
  body.forEach((row) => console.log(line(row)));
}

/** Signs in over HTTP and returns the Cookie header to send (the session cookie). */
export async function login(baseUrl: string, username: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ username, password }),
  });
  if (response.status !== 200) {
    throw new Error(`login failed: ${response.status} ${await response.text()}`);
  }
  await response.arrayBuffer();
  const cookies = response.headers
    .getSetCookie()
    .map((line) => line.split(';')[0]?.trim() ?? '')
    .filter((pair) => pair && !pair.endsWith('='));
  if (cookies.length === 0) {
    throw new Error('login set no cookie');
  }
  return cookies.join('; ');
}

export { type ScratchDatabase, createScratchDatabase } from '../src/test/scratch-database.js';

/**
 * The real server for a benchmark's child process, configured as the tests run it: NODE_ENV test
 * (production needs PUBLIC_ORIGIN, unknown before listening on port 0, and differs only by its
 * HSTS header), a random secret, port 0 on loopback, no web build, no logs. `env` adds to that.
 * The server's modules load here, not where lib.ts is imported.
 */
export async function startBenchServer(
  env: Record<string, string>,
  options?: Parameters<typeof StartServer>[1],
) {
  const { loadConfig } = await import('../src/config.js');
  const { startServer } = await import('../src/server.js');
  return startServer(
    loadConfig({
      ...process.env,
      NODE_ENV: 'test',
      SESSION_SECRET: randomBytes(32).toString('hex'),
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      WEB_DIST_DIR: '/nonexistent',
      ...env,
    }),
    options,
  );
}
