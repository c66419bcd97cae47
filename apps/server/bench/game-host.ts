/**
 * Game host benchmark. Run: npm run bench:game-host -w @portfolio/server
 *
 * Serving: a 40 MB .wasm with its brotli sibling (as the publisher leaves a build), downloaded
 * by 50 concurrent clients sending `Accept-Encoding: br`, from the games origin of the real
 * server vs a bare node:http server that pipes fs.createReadStream of the same .br file. The two
 * alternate in short rounds in the same run (the machine's speed drifts; other work shares its
 * cores) and the figure is the median of the per-round ratios (goal >= 0.8).
 *
 * Publishing: a 300 MB build zip (a 40 MB .wasm and 260 MB of already-compressed assets, as
 * .ogg/.png files, stored) streamed to PUT /api/admin/games/<id>/build as `npm run
 * games:publish` does: time from the first byte sent to the answer (the version is live), and
 * the server's peak RSS over its RSS before (sampled from /proc every 20 ms): streamed, it must
 * grow by far less than the build; and the most GAMES_DIR/.incoming held at once (into a
 * bucket: the zip only, its entries stream from it).
 *
 * Each server runs in a child process, so the load generator does not share its event loop.
 *
 * BENCH_STORAGE=s3: the build lives in a bucket of a moto_server the bench starts (the bare
 * server still reads the local file), the real server reads it through its disk cache
 * (STORAGE_CACHE_DIR in the bench's folder); the first download (cold: fetched from the bucket
 * into the cache) is timed against a second (warm), and the publish goes into the bucket.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  createReadStream,
  createWriteStream,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants as zlibConstants } from 'node:zlib';

import { ZipFile } from 'yazl';

import { startS3Server, type TestS3Server } from '../src/test/s3-server.js';
import { createS3Client, createS3Storage } from '../src/lib/storage/s3-storage.js';
import { int, login, mib, ms, printTable, startBenchServer } from './lib.js';

const WASM_BYTES = Number(process.env.BENCH_WASM_MB ?? 40) * 1024 * 1024;
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const ROUND_SECONDS = Number(process.env.BENCH_ROUND_SECONDS ?? 5);
const GAME = 'BenchGame';
const PUBLISH_MB = Number(process.env.BENCH_PUBLISH_MB ?? 300);
const ADMIN = { username: 'bench_admin', password: 'bench-admin-password-1' };
const WASM_PATH = `/${GAME}/1/game.wasm`;
const IS_S3 = process.env.BENCH_STORAGE === 's3';

type ChildMessage = { type: 'ready'; url: string; siteUrl?: string; bareUrl?: string };

// ---------------------------------------------------------------- children
/** The baseline: node:http piping fs.createReadStream of the .br file; answers its URL. */
async function listenBare(gamesDir: string): Promise<string> {
  const file = path.join(gamesDir, GAME, '1', 'game.wasm.br');
  const size = statSync(file).size;
  const server = createServer((_req, res) => {
    res.writeHead(200, {
      'Content-Type': 'application/wasm',
      'Content-Encoding': 'br',
      'Content-Length': size,
    });
    createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function serveBare(gamesDir: string) {
  process.send?.({ type: 'ready', url: await listenBare(gamesDir) } satisfies ChildMessage);
}

async function serveReal(gamesDir: string) {
  const dataDir = path.join(gamesDir, '..', 'data');
  const running = await startBenchServer(
    {
      DATA_DIR: dataDir,
      GAMES_DIR: gamesDir,
      // the load generator holds 50 connections from one address
      CONNECTIONS_PER_ADDRESS: '1000',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
    },
    {
      // the served build is laid on disk by the bench; everything else is the database's
      gameHostCatalogue: {
        find: (id) =>
          id === GAME
            ? { access: 'public', liveVersion: 1, versions: [1], needsThreads: false, engines: {} }
            : undefined,
      },
    },
  );
  process.once('SIGTERM', () => {
    void running.stop().then(() => process.exit(0));
  });
  // the same baseline inside the real server's process (its heap, timers and thread pool)
  const bareUrl = await listenBare(gamesDir);
  process.send?.({
    type: 'ready',
    url: running.gamesUrl,
    siteUrl: running.url,
    bareUrl,
  } satisfies ChildMessage);
}

// ---------------------------------------------------------------- parent
function startChild(
  role: 'bare' | 'real',
  gamesDir: string,
): Promise<{ child: ChildProcess; url: string; siteUrl: string; bareUrl: string }> {
  const child = fork(fileURLToPath(import.meta.url), [role, gamesDir], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`${role} server exited with ${code}`)));
    child.once('message', (message: ChildMessage) => {
      if (message.type === 'ready') {
        resolve({
          child,
          url: message.url,
          siteUrl: message.siteUrl ?? '',
          bareUrl: message.bareUrl ?? '',
        });
      }
    });
  });
}

/** CLIENTS concurrent download loops for `seconds`: bytes received and downloads completed. */
async function load(
  url: string,
  seconds: number,
): Promise<{ bytes: number; downloads: number; elapsedMs: number }> {
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  const target = new URL(url + WASM_PATH);
  const started = performance.now();
  const until = Date.now() + seconds * 1000;
  let bytes = 0;
  let downloads = 0;
  const once = () =>
    new Promise<void>((resolve, reject) => {
      const req = request(
        {
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          agent,
          headers: { 'accept-encoding': 'gzip, deflate, br' },
        },
        (res) => {
          if (res.statusCode !== 200 || res.headers['content-encoding'] !== 'br') {
            reject(
              new Error(`unexpected answer ${res.statusCode} ${res.headers['content-encoding']}`),
            );
            res.resume();
            return;
          }
          res.on('data', (chunk: Buffer) => {
            bytes += chunk.length;
          });
          res.on('end', () => {
            downloads += 1;
            resolve();
          });
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end();
    });
  const client = async () => {
    while (Date.now() < until) {
      await once();
    }
  };
  await Promise.all(Array.from({ length: CLIENTS }, client));
  agent.destroy();
  // every client finishes the download it has started: the rate is over the real time taken
  return { bytes, downloads, elapsedMs: performance.now() - started };
}

/** Writes a build zip of about `megabytes` to `file`, streamed (never whole in memory). */
async function writeBuildZip(file: string, megabytes: number): Promise<number> {
  const zip = new ZipFile();
  const done = new Promise<void>((resolve, reject) => {
    const out = createWriteStream(file);
    out.on('close', resolve);
    out.on('error', reject);
    zip.outputStream.pipe(out);
  });
  zip.addBuffer(
    Buffer.from('<!DOCTYPE html><title>bench</title><script src="game.js"></script>'),
    'index.html',
  );
  zip.addBuffer(Buffer.from('// game\n'.repeat(20_000)), 'game.js');
  zip.addBuffer(wasmLikeBytes(40 * 1024 * 1024), 'game.wasm');
  const assetBytes = 2 * 1024 * 1024;
  const assets = Math.max(0, Math.round(((megabytes - 40) * 1024 * 1024) / assetBytes));
  for (let i = 0; i < assets; i += 1) {
    // already compressed (audio, images): stored, as zip tools do for such files
    zip.addBuffer(
      randomBytes(assetBytes),
      `assets/${i % 2 ? 'music' : 'atlas'}-${i}.${i % 2 ? 'ogg' : 'png'}`,
      {
        compress: false,
      },
    );
  }
  zip.end();
  await done;
  return statSync(file).size;
}

/** A process's CPU time (user + system) in seconds, from /proc (0 where it cannot be read). */
function cpuSecondsOf(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11] ?? 0) + Number(fields[12] ?? 0)) / 100;
  } catch {
    return 0;
  }
}

/** A process's resident set size, from /proc (0 where it cannot be read). */
function rssOf(pid: number): number {
  try {
    const kb = /^VmRSS:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return Number(kb ?? 0) * 1024;
  } catch {
    return 0;
  }
}

/** The bytes of the regular files under `dir` (0 when it is missing or changes under us). */
function bytesUnder(dir: string): number {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .reduce((sum, entry) => {
        try {
          return sum + statSync(path.join(entry.parentPath, entry.name)).size;
        } catch {
          return sum;
        }
      }, 0);
  } catch {
    return 0;
  }
}

/**
 * Publishes the zip through the admin API: time to live, the server's peak RSS growth and the
 * most `incoming` (GAMES_DIR/.incoming) held at once.
 */
async function publish(siteUrl: string, pid: number, zipFile: string, incoming: string) {
  const cookie = await login(siteUrl, ADMIN.username, ADMIN.password);
  const created = await fetch(`${siteUrl}/api/admin/games`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({
      id: 'BenchPublish',
      title: 'Bench publish',
      description: '',
      instructions: '',
      section: 'html5',
      access: 'public',
    }),
  });
  if (created.status !== 201) {
    throw new Error(`create game: ${created.status} ${await created.text()}`);
  }
  const size = statSync(zipFile).size;
  const before = rssOf(pid);
  let peak = before;
  let diskPeak = 0;
  let samples = 0;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssOf(pid));
    // the folder walk costs more than a /proc read: every fifth sample (100 ms)
    if (samples++ % 5 === 0) {
      diskPeak = Math.max(diskPeak, bytesUnder(incoming));
    }
  }, 20);
  const started = performance.now();
  const url = new URL(`${siteUrl}/api/admin/games/BenchPublish/build`);
  const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'PUT',
        headers: { 'content-type': 'application/zip', 'content-length': size, cookie },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    createReadStream(zipFile).pipe(req);
  });
  const elapsedMs = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, rssOf(pid));
  if (answer.status !== 201) {
    throw new Error(`publish: ${answer.status} ${answer.body.slice(0, 300)}`);
  }
  const build = (JSON.parse(answer.body) as { build: { version: number; files: number } }).build;
  return {
    size,
    elapsedMs,
    before,
    peak,
    diskPeak,
    version: build.version,
    files: build.files,
  };
}

/** Bytes that compress about as a real .wasm does (~3:1 with brotli). */
function wasmLikeBytes(size: number): Buffer {
  const out = Buffer.alloc(size);
  const random = randomBytes(size / 4);
  for (let i = 0; i < size; i += 1) {
    out[i] = i % 4 === 0 ? (random[i >> 2] ?? 0) : (i * 7) & 0x3f;
  }
  return out;
}

/**
 * Starts moto_server with a bucket, copies the build's files into its games/ prefix and points
 * the children's environment at it (the real server reads STORAGE=s3 from it).
 */
async function startBucket(root: string, versionDir: string): Promise<TestS3Server> {
  const s3 = await startS3Server();
  const settings = await s3.bucket('bench-game-host');
  const games = createS3Storage(createS3Client(settings), settings).scoped('games/');
  for (const file of ['game.wasm', 'game.wasm.br']) {
    await games.put(`${GAME}/1/${file}`, createReadStream(path.join(versionDir, file)));
  }
  Object.assign(process.env, {
    STORAGE: 's3',
    S3_BUCKET: settings.bucket,
    S3_REGION: settings.region,
    S3_ENDPOINT: s3.endpoint,
    S3_FORCE_PATH_STYLE: 'true',
    STORAGE_CACHE_DIR: path.join(root, 'storage-cache'),
  });
  console.log(`bucket ${settings.bucket} on moto_server at ${s3.endpoint}`);
  return s3;
}

/** One download's time to its last byte (ms). */
async function timeOneDownload(url: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(url + WASM_PATH, { headers: { 'accept-encoding': 'br' } });
  await response.arrayBuffer();
  if (response.status !== 200) {
    throw new Error(`download: ${response.status}`);
  }
  return performance.now() - started;
}

/** The first download through the disk cache (from the bucket) against the next ones. */
async function coldAndWarm(url: string, bareUrl: string) {
  const cold = await timeOneDownload(url);
  const warm: number[] = [];
  const bare: number[] = [];
  for (let i = 0; i < 3; i += 1) {
    warm.push(await timeOneDownload(url));
    bare.push(await timeOneDownload(bareUrl));
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[1] ?? 0;
  console.log('\nOne download of game.wasm (br) alone, through the disk cache:\n');
  printTable([
    ['cold (from the bucket)', 'warm (median of 3)', 'added by the cold fetch', 'bare node:http'],
    [ms(cold), ms(median(warm)), ms(cold - median(warm)), ms(median(bare))],
  ]);
}

async function main() {
  const root = mkdtempSync(path.join(tmpdir(), 'bench-game-host-'));
  const children: ChildProcess[] = [];
  let stopBucket: () => unknown = () => undefined;
  const cleanUp = () => {
    void stopBucket();
    children.forEach((child) => child.kill('SIGTERM'));
    rmSync(root, { recursive: true, force: true });
  };
  process.once('SIGINT', () => {
    cleanUp();
    process.exit(130);
  });
  try {
    const gamesDir = path.join(root, 'games');
    const versionDir = path.join(gamesDir, GAME, '1');
    mkdirSync(versionDir, { recursive: true });
    const wasm = wasmLikeBytes(WASM_BYTES);
    writeFileSync(path.join(versionDir, 'game.wasm'), wasm);
    const started = Date.now();
    const br = brotliCompressSync(wasm, {
      params: {
        [zlibConstants.BROTLI_PARAM_QUALITY]: 5,
        [zlibConstants.BROTLI_PARAM_SIZE_HINT]: wasm.length,
      },
    });
    writeFileSync(path.join(versionDir, 'game.wasm.br'), br);
    console.log(
      `game.wasm ${mib(wasm.length)}, brotli sibling ${mib(br.length)} (quality 5, ${Date.now() - started} ms)`,
    );

    const s3 = IS_S3 ? await startBucket(root, versionDir) : undefined;
    stopBucket = () => s3?.stop();
    const real = await startChild('real', gamesDir);
    children.push(real.child);
    const bare = await startChild('bare', gamesDir);
    children.push(bare.child);
    if (IS_S3) {
      await coldAndWarm(real.url, bare.url);
    }
    // warm both (page cache, JIT)
    await load(real.url, 1);
    await load(bare.url, 1);

    const rows: string[][] = [
      [
        'round',
        'games origin',
        'bare node:http',
        'ratio',
        'CPU s/GiB origin',
        'CPU s/GiB bare',
        'bare in server process',
      ],
    ];
    const cpuPerGiB: Record<string, number> = {};
    const ratios: number[] = [];
    type Result = Awaited<ReturnType<typeof load>>;
    const perSecond = (result: Result | undefined) =>
      result ? result.bytes / (result.elapsedMs / 1000) : 0;
    for (let round = 1; round <= ROUNDS; round += 1) {
      // alternate which goes first
      const order = round % 2 === 1 ? ['real', 'bare'] : ['bare', 'real'];
      const results: Record<string, Result> = {};
      for (const role of order) {
        const pid = (role === 'real' ? real.child.pid : bare.child.pid) ?? 0;
        const cpuBefore = cpuSecondsOf(pid);
        const result = await load(role === 'real' ? real.url : bare.url, ROUND_SECONDS);
        results[role] = result;
        cpuPerGiB[role] = (cpuSecondsOf(pid) - cpuBefore) / (result.bytes / 1024 ** 3);
      }
      results.inProcess = await load(real.bareUrl, ROUND_SECONDS);
      const ratio = perSecond(results.real) / perSecond(results.bare);
      ratios.push(ratio);
      rows.push([
        String(round),
        `${mib(perSecond(results.real))}/s (${int(results.real?.downloads ?? 0)})`,
        `${mib(perSecond(results.bare))}/s (${int(results.bare?.downloads ?? 0)})`,
        ratio.toFixed(2),
        (cpuPerGiB.real ?? 0).toFixed(2),
        (cpuPerGiB.bare ?? 0).toFixed(2),
        `${mib(perSecond(results.inProcess))}/s`,
      ]);
    }
    console.log(
      `\n${CLIENTS} concurrent clients, Accept-Encoding: br, ${ROUNDS} rounds of ${ROUND_SECONDS} s each (downloads in brackets)\n`,
    );
    printTable(rows);
    const median = [...ratios].sort((a, b) => a - b)[Math.floor(ratios.length / 2)] ?? 0;
    console.log(`\nmedian ratio games origin / bare: ${median.toFixed(2)} (goal >= 0.8)`);

    if (PUBLISH_MB <= 0) {
      return;
    }
    const zipFile = path.join(root, 'build.zip');
    const zipSize = await writeBuildZip(zipFile, PUBLISH_MB);
    console.log(`\nPublishing a ${mib(zipSize)} build zip through PUT /api/admin/games/<id>/build`);
    const incoming = path.join(gamesDir, '.incoming');
    const published = await publish(real.siteUrl, real.child.pid ?? 0, zipFile, incoming);
    printTable([
      ['zip', 'files', 'time to live', 'RSS before', 'peak RSS', 'growth', 'peak .incoming'],
      [
        mib(published.size),
        int(published.files),
        `${(published.elapsedMs / 1000).toFixed(1)} s`,
        mib(published.before),
        mib(published.peak),
        mib(published.peak - published.before),
        mib(published.diskPeak),
      ],
    ]);
  } finally {
    cleanUp();
  }
}

const [role, dir] = process.argv.slice(2);
if (role === 'bare' && dir) {
  void serveBare(dir);
} else if (role === 'real' && dir) {
  void serveReal(dir);
} else {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
