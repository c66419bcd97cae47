/** Small helpers shared by the benchmarks: percentiles, formatting, signing in over HTTP. */

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
