// The JavaScript budget (npm run size, after the build): prints every chunk's gzip size and fails
// when the home page's initial JavaScript (the entry and its static imports, which hold the home
// page itself: what / loads before it is interactive) or any chunk passes its
// budget. Budgets go by chunk name, so new routes' chunks are covered without editing this file:
// a chunk whose name matches a named budget gets that one, every other chunk the default.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const KB = 1000;

/** What / may load before it is interactive (gzip); see README "Benchmarks". */
export const HOME_INITIAL_BUDGET = 90 * KB;

/** Any other chunk (a route, a shared piece). */
export const DEFAULT_CHUNK_BUDGET = 50 * KB;

/** Heavy things that load only on their own routes, by the chunk file's name. */
export const NAMED_BUDGETS = [
  // Monaco's C++-only editor bundle is ~1 MB gzip (NOTES.md); its workers alike
  { name: 'editor / monaco', pattern: /(monaco|editor|worker)/i, budget: 1200 * KB },
  { name: 'markdown', pattern: /(markdown|remark|rehype|micromark|mdast|hast)/i, budget: 80 * KB },
  { name: 'stripe / checkout', pattern: /(stripe|checkout)/i, budget: 40 * KB },
  { name: 'games', pattern: /(^|[-_/])games?([-_.]|$)/i, budget: 100 * KB },
  { name: 'admin (charts)', pattern: /^admin/i, budget: 60 * KB },
];

const webRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(webRoot, 'dist');

function readManifest() {
  try {
    return JSON.parse(readFileSync(path.join(dist, '.vite', 'manifest.json'), 'utf8'));
  } catch {
    console.error('No dist/.vite/manifest.json: build the web app first (npm run build).');
    process.exit(1);
  }
}

const gzipSize = (file) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;
const format = (bytes) => `${(bytes / KB).toFixed(2)} KB`;

/** A manifest entry's file and the files of everything it imports statically, recursively. */
function staticClosure(manifest, key, seen = new Set()) {
  const chunk = manifest[key];
  if (!chunk || seen.has(chunk.file)) {
    return seen;
  }
  seen.add(chunk.file);
  for (const imported of chunk.imports ?? []) {
    staticClosure(manifest, imported, seen);
  }
  return seen;
}

function budgetFor(file) {
  const base = path.basename(file);
  const named = NAMED_BUDGETS.find(({ pattern }) => pattern.test(base));
  return named
    ? { name: named.name, budget: named.budget }
    : { name: 'default', budget: DEFAULT_CHUNK_BUDGET };
}

const manifest = readManifest();
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) {
  console.error('The manifest names no entry chunk.');
  process.exit(1);
}
// the home page is part of the entry (a chunk of its own would be one more round trip)
const homeInitial = staticClosure(manifest, entryKey);

const files = [
  ...new Set(Object.values(manifest).flatMap((chunk) => [chunk.file, ...(chunk.css ?? [])])),
].filter((file) => /\.(js|css)$/.test(file));
const rows = files
  .map((file) => {
    const isScript = file.endsWith('.js');
    const { name, budget } = budgetFor(file);
    const gzip = gzipSize(file);
    // the entry and what it needs are held to the home page's budget as a whole
    const isHome = homeInitial.has(file);
    const isOver = isScript && !isHome && gzip > budget;
    return { file, gzip, isHome, isScript, name, budget, isOver };
  })
  .sort((a, b) => b.gzip - a.gzip);

const homeTotal = rows.filter((row) => row.isHome).reduce((sum, row) => sum + row.gzip, 0);
const width = Math.max(...rows.map((row) => row.file.length));
console.log(`${'chunk'.padEnd(width)}  ${'gzip'.padStart(10)}  budget`);
for (const row of rows) {
  const budget = !row.isScript
    ? 'css'
    : row.isHome
      ? 'home page (initial)'
      : `${row.name} ${format(row.budget)}${row.isOver ? '  OVER' : ''}`;
  console.log(`${row.file.padEnd(width)}  ${format(row.gzip).padStart(10)}  ${budget}`);
}
console.log(
  `\nHome page initial JavaScript (${homeInitial.size} files): ${format(homeTotal)} of ${format(HOME_INITIAL_BUDGET)}`,
);

const failures = rows
  .filter((row) => row.isOver)
  .map((row) => `${row.file} is over its ${row.name} budget`);
if (homeTotal > HOME_INITIAL_BUDGET) {
  failures.push(`the home page's initial JavaScript is over ${format(HOME_INITIAL_BUDGET)}`);
}
if (failures.length > 0) {
  console.error(`\nSize budget failed:\n  ${failures.join('\n  ')}`);
  process.exit(1);
}
console.log('Size budget: all chunks within budget.');
