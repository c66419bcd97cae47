// npm run lighthouse (tsx e2e/scripts/lighthouse.ts): Lighthouse (mobile emulation, its default) in Debian's Chromium on the home
// page, /games, /Gallery, /Tutorials and a devlog post of the built site, which this script starts on its own port with a
// fresh embedded database. Each page runs LIGHTHOUSE_RUNS times (default 3) and the run with the
// median performance score counts, as Lighthouse advises for noisy machines. Prints each page's
// scores against the targets (performance 95, accessibility, best practices and SEO 100); fails
// only below clearly bad floors (FAIL_BELOW): a miss of a target is printed, not failed.
// Build first (npm run build). LIGHTHOUSE_PORT picks the port (default 4351).
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import * as chromeLauncher from 'chrome-launcher';
import lighthouse, { type Result } from 'lighthouse';

import { CHROMIUM_FLAGS, makeDataDir } from '../fixtures/constants';

// a devlog post: the welcome post every new site starts with
const PAGES = (
  process.env.LIGHTHOUSE_PAGES ?? '/,/games,/Gallery,/Tutorials,/devlog/welcome-to-the-devlog'
).split(',');
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];
const TARGETS: Record<Category, number> = {
  performance: 95,
  accessibility: 100,
  'best-practices': 100,
  seo: 100,
};
// performance on a shared machine swings by 40 points from one run to the next (CPU taken by
// other jobs inflates blocking time): only a broken page falls below 50 on the median
const FAIL_BELOW: Record<Category, number> = {
  performance: 50,
  accessibility: 90,
  'best-practices': 90,
  seo: 90,
};

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const port = Number(process.env.LIGHTHOUSE_PORT ?? 4351);
const runs = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));
const origin = `http://127.0.0.1:${port}`;
const dataDir = makeDataDir('lighthouse-data-');

function startSite() {
  const server = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PUBLIC_ORIGIN: origin,
      SESSION_SECRET: randomBytes(32).toString('hex'),
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      LOG_LEVEL: 'warn',
    },
  });
  return server;
}

async function waitForSite(server: ChildProcess) {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) {
      throw new Error(`the server exited with ${server.exitCode}`);
    }
    try {
      if ((await fetch(`${origin}/api/health`)).ok) {
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the site did not answer on ${origin} within 60 s`);
}

const server = startSite();
let chrome: chromeLauncher.LaunchedChrome | undefined;
let failed = false;
try {
  await waitForSite(server);
  chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    chromeFlags: ['--headless=new', ...CHROMIUM_FLAGS],
  });
  const rows = [];
  for (const page of PAGES) {
    const results: Result[] = [];
    for (let run = 0; run < runs; run++) {
      const result = await lighthouse(`${origin}${page}`, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: [...CATEGORIES],
      });
      if (!result) {
        throw new Error(`Lighthouse gave no result for ${page}`);
      }
      results.push(result.lhr);
    }
    const performance = (lhr: Result) => lhr.categories.performance?.score ?? 0;
    results.sort((a, b) => performance(a) - performance(b));
    const median = results[Math.floor(results.length / 2)];
    if (!median) {
      throw new Error(`Lighthouse gave no result for ${page}`);
    }
    const { categories, audits } = median;
    const scores = {} as Record<Category, number>;
    for (const id of CATEGORIES) {
      scores[id] = Math.round((categories[id]?.score ?? 0) * 100);
    }
    const misses = CATEGORIES.flatMap((id) =>
      (categories[id]?.auditRefs ?? [])
        .filter((ref) => ref.weight > 0 && audits[ref.id]?.score !== null)
        .filter((ref) => (audits[ref.id]?.score ?? 1) < 1)
        .map((ref) => {
          const audit = audits[ref.id];
          // outside performance a miss is a fault to fix: say what Lighthouse found
          const found =
            id !== 'performance' && audit?.details && 'items' in audit.details
              ? ` ${JSON.stringify(audit.details.items).slice(0, 400)}`
              : '';
          return `${id}: ${ref.id} (${audit?.displayValue ?? audit?.score})${found}`;
        }),
    );
    rows.push({ page, scores, misses, metrics: audits });
  }

  const header = ['page', ...CATEGORIES].map((cell) => cell.padEnd(16)).join('');
  console.log(`\nLighthouse (mobile, median of ${runs}) on ${origin}\n${header}`);
  for (const { page, scores } of rows) {
    console.log(
      [page, ...CATEGORIES.map((id) => String(scores[id]))].map((c) => c.padEnd(16)).join(''),
    );
  }
  console.log(`targets         ${CATEGORIES.map((id) => String(TARGETS[id]).padEnd(16)).join('')}`);
  for (const { page, misses, metrics } of rows) {
    const timing = [
      'first-contentful-paint',
      'largest-contentful-paint',
      'total-blocking-time',
      'speed-index',
    ]
      .map((id) => `${id} ${metrics[id]?.displayValue ?? '?'}`)
      .join(', ');
    console.log(`\n${page}: ${timing}`);
    for (const miss of misses) {
      console.log(`  below 100: ${miss}`);
    }
  }
  for (const { page, scores } of rows) {
    for (const id of CATEGORIES) {
      if (scores[id] < FAIL_BELOW[id]) {
        failed = true;
        console.error(`${page}: ${id} ${scores[id]} is below the floor ${FAIL_BELOW[id]}`);
      } else if (scores[id] < TARGETS[id]) {
        console.warn(`${page}: ${id} ${scores[id]} misses the target ${TARGETS[id]}`);
      }
    }
  }
} finally {
  chrome?.kill();
  server.kill('SIGTERM');
  await new Promise((resolve) => server.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);
