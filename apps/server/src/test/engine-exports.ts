import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';

import { ZipFile } from 'yazl';

/*
 * Small fixture exports shaped like each engine's web export, shared by the server's
 * and the browser's tests. Each start page reports what happened in `#status` (JSON) and in
 * document.title (`key=value …`), so a browser test can read, from the frame:
 *
 *   inline=ok          the inline start-up script ran (the games origin's CSP allows it)
 *   script=ok          the export's own script files ran
 *   wasm=42            a real .wasm was instantiated with WebAssembly.instantiateStreaming
 *   isolated=true      crossOriginIsolated (threaded Godot)
 *   sab=ok             a SharedArrayBuffer was made and a worker wrote into it with Atomics
 *   data=ok            the .pck / .data file arrived intact
 *   storage=<n>        the save survived n visits (localStorage, or IndexedDB for Godot)
 *   done=1             every step finished (errors: error=<message>)
 *
 * The Godot and Unity shapes follow those engines' templates (inline GODOT_CONFIG and
 * GODOT_THREADS_ENABLED, index.pck/index.wasm/index.js; Unity's Build/*.loader.js with prebuilt
 * .br/.gz files), so the catalogue's engine detection can be tested on them too.
 */

export type EngineExportKind = 'gamemaker' | 'godot4-threads' | 'godot4' | 'unity' | 'html5';

export const ENGINE_EXPORT_KINDS: readonly EngineExportKind[] = [
  'gamemaker',
  'godot4-threads',
  'godot4',
  'unity',
  'html5',
];

export interface EngineExport {
  kind: EngineExportKind;
  /** The engine the catalogue should detect (packages/types BuildEngine). */
  engine: 'gamemaker' | 'godot4' | 'unity' | 'html5';
  /** The start page, relative to the export's root. */
  entry: string;
  needsThreads: boolean;
  /** Every file of the export: path (forward slashes) → bytes. */
  files: Record<string, Buffer>;
  /** What the start page reports once done (subset of its status), storage on a first visit. */
  expected: Record<string, string>;
}

/**
 * A real WebAssembly module (hand-assembled): exports `answer() → 42`. Valid for
 * WebAssembly.instantiateStreaming when served as application/wasm.
 */
export const ANSWER_WASM = Buffer.from([
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // magic, version 1
  0x01, 0x05, 0x01, 0x60, 0x00, 0x01, 0x7f, // type section: () -> i32
  0x03, 0x02, 0x01, 0x00, // function section: one function of type 0
  0x07, 0x0a, 0x01, 0x06, 0x61, 0x6e, 0x73, 0x77, 0x65, 0x72, 0x00, 0x00, // export "answer"
  0x0a, 0x06, 0x01, 0x04, 0x00, 0x41, 0x2a, 0x0b, // code: i32.const 42, end
]); // prettier-ignore

/** The reporting helper every start page defines inline (it is the inline script that runs). */
const REPORTER = `
window.fixture = {
  state: {},
  set: function (key, value) {
    this.state[key] = String(value);
    this.show();
  },
  // the page's head reports before <pre id="status"> exists: shown again once it does
  show: function () {
    var status = document.getElementById('status');
    if (status) { status.textContent = JSON.stringify(this.state); }
    document.title = Object.keys(this.state).map(function (k) { return k + '=' + this.state[k]; }, this).join(' ');
  },
  fail: function (error) { this.set('error', error && error.message ? error.message : error); },
};
document.addEventListener('DOMContentLoaded', function () { fixture.show(); });
fixture.set('inline', 'ok');
`;

function page(title: string, head: string, body: string): Buffer {
  return Buffer.from(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
${head}
</head>
<body>
<canvas id="canvas" width="64" height="64"></canvas>
<pre id="status"></pre>
${body}
</body>
</html>
`);
}

/** Counts visits in localStorage under `key` and reports storage=<visits>. */
const LOCAL_STORAGE_SAVE = (key: string) => `
  var visits = Number(localStorage.getItem(${JSON.stringify(key)}) || '0') + 1;
  localStorage.setItem(${JSON.stringify(key)}, String(visits));
  fixture.set('storage', visits);
`;

/** Counts visits in IndexedDB (as Godot's user:// file system does) and reports storage=<visits>. */
const INDEXED_DB_SAVE = `
function saveInIndexedDb() {
  return new Promise(function (resolve, reject) {
    var open = indexedDB.open('/userfs', 1);
    open.onupgradeneeded = function () { open.result.createObjectStore('FILE_DATA'); };
    open.onerror = function () { reject(open.error); };
    open.onsuccess = function () {
      var db = open.result;
      var tx = db.transaction('FILE_DATA', 'readwrite');
      var store = tx.objectStore('FILE_DATA');
      var get = store.get('/userfs/save.dat');
      get.onsuccess = function () {
        var visits = (get.result || 0) + 1;
        store.put(visits, '/userfs/save.dat');
        tx.oncomplete = function () { db.close(); resolve(visits); };
      };
      tx.onerror = function () { reject(tx.error); };
    };
  });
}
`;

function gameMaker(): EngineExport {
  const name = 'FixtureGame';
  return {
    kind: 'gamemaker',
    engine: 'gamemaker',
    entry: 'index.html',
    needsThreads: false,
    expected: { inline: 'ok', script: 'ok', storage: '1', done: '1' },
    files: {
      'index.html': page(
        name,
        `<style>body { background: #000; color: #fff; } canvas { image-rendering: pixelated; }</style>
<script>${REPORTER}</script>`,
        `<script type="text/javascript" src="html5game/${name}.js?cachebust=123456"></script>
<script>window.onload = GameMaker_Init;</script>`,
      ),
      [`html5game/${name}.js`]: Buffer.from(
        `// GameMaker HTML5 runner (fixture)
var g_pAddedPages = [];
function GameMaker_Init() {
  try {
    fixture.set('script', 'ok');
    var ctx = document.getElementById('canvas').getContext('2d');
    ctx.fillStyle = '#3c3';
    ctx.fillRect(0, 0, 64, 64);
    ${LOCAL_STORAGE_SAVE(`${name}.save`)}
    fixture.set('done', 1);
  } catch (error) { fixture.fail(error); }
}
` + '/* padding so the file is worth compressing */\n'.repeat(64),
      ),
      [`html5game/${name}_texture_0.png`]: tinyPng(),
      'options.ini': Buffer.from('[Html5]\nOutputFolder=html5game\n'),
    },
  };
}

function godot(threads: boolean): EngineExport {
  const pck = Buffer.concat([Buffer.from('GDPC'), Buffer.alloc(2044, 7)]);
  const config = {
    args: [],
    canvasResizePolicy: 2,
    ensureCrossOriginIsolationHeaders: true,
    executable: 'index',
    experimentalVK: false,
    fileSizes: { 'index.pck': pck.length, 'index.wasm': ANSWER_WASM.length },
    focusCanvas: true,
    gdextensionLibs: [],
  };
  const engineJs = `// Godot Engine (fixture) — the real one is emscripten's output
var Engine = (function () {
  function Engine(config) { this.config = config; }
  Engine.isWebGLAvailable = function () { return true; };
  Engine.prototype.startGame = function () {
    var config = this.config;
    fixture.set('script', 'ok');
    var steps = [
      WebAssembly.instantiateStreaming(fetch(config.executable + '.wasm')).then(function (result) {
        fixture.set('wasm', result.instance.exports.answer());
      }),
      fetch(config.executable + '.pck').then(function (response) { return response.arrayBuffer(); })
        .then(function (buffer) {
          var magic = new TextDecoder().decode(new Uint8Array(buffer, 0, 4));
          fixture.set('data', magic === 'GDPC' && buffer.byteLength === config.fileSizes['index.pck'] ? 'ok' : 'bad');
        }),
      saveInIndexedDb().then(function (visits) { fixture.set('storage', visits); }),
    ];
    fixture.set('isolated', String(self.crossOriginIsolated === true));
    if (GODOT_THREADS_ENABLED) {
      steps.push(new Promise(function (resolve, reject) {
        var shared = new SharedArrayBuffer(8);
        var worker = new Worker(config.executable + '.worker.js');
        worker.onmessage = function () {
          fixture.set('sab', Atomics.load(new Int32Array(shared), 0) === 42 ? 'ok' : 'bad');
          worker.terminate();
          resolve();
        };
        worker.onerror = function (event) { reject(new Error('worker: ' + event.message)); };
        worker.postMessage(shared);
      }));
    }
    return Promise.all(steps).then(function () { fixture.set('done', 1); });
  };
  return Engine;
})();
${INDEXED_DB_SAVE}
`;
  const files: Record<string, Buffer> = {
    'index.html': page(
      'Godot fixture',
      `<style>body { background: #333; }</style>
<script>${REPORTER}</script>`,
      `<script src="index.js"></script>
<script>
const GODOT_CONFIG = ${JSON.stringify(config)};
const GODOT_THREADS_ENABLED = ${String(threads)};
const engine = new Engine(GODOT_CONFIG);
(function () {
  const missing = Engine.getMissingFeatures ? Engine.getMissingFeatures({ threads: GODOT_THREADS_ENABLED }) : [];
  if (missing.length !== 0) { fixture.fail('missing ' + missing.join(', ')); return; }
  engine.startGame().catch(function (error) { fixture.fail(error); });
}());
</script>`,
    ),
    'index.js': Buffer.from(engineJs + '/* emscripten runtime would be here */\n'.repeat(64)),
    'index.wasm': ANSWER_WASM,
    'index.pck': pck,
    'index.audio.worklet.js': Buffer.from(
      'class GodotProcessor extends AudioWorkletProcessor { process() { return true; } }\n' +
        "registerProcessor('godot-processor', GodotProcessor);\n",
    ),
    'index.icon.png': tinyPng(),
    'index.png': tinyPng(),
  };
  if (threads) {
    files['index.worker.js'] = Buffer.from(
      'self.onmessage = function (event) {\n' +
        '  Atomics.store(new Int32Array(event.data), 0, 42);\n' +
        "  self.postMessage('done');\n" +
        '};\n',
    );
  }
  return {
    kind: threads ? 'godot4-threads' : 'godot4',
    engine: 'godot4',
    entry: 'index.html',
    needsThreads: threads,
    expected: threads
      ? { inline: 'ok', script: 'ok', wasm: '42', data: 'ok', isolated: 'true', sab: 'ok', storage: '1', done: '1' } // prettier-ignore
      : { inline: 'ok', script: 'ok', wasm: '42', data: 'ok', storage: '1', done: '1' },
    files,
  };
}

function unity(): EngineExport {
  const name = 'fixture';
  const data = Buffer.from('UnityFS fixture data '.repeat(200));
  const framework = Buffer.from(
    `// Unity framework (fixture)
function unityFramework(Module) {
  fixture.set('framework', 'ok');
  return Module;
}
` + '/* the emscripten glue would be here */\n'.repeat(64),
  );
  const loader = `// Unity loader (fixture)
function createUnityInstance(canvas, config) {
  fixture.set('script', 'ok');
  function loadScript(url) {
    return new Promise(function (resolve, reject) {
      var script = document.createElement('script');
      script.src = url;
      script.onload = resolve;
      script.onerror = function () { reject(new Error('could not load ' + url)); };
      document.body.appendChild(script);
    });
  }
  return Promise.all([
    loadScript(config.frameworkUrl).then(function () { unityFramework({}); }),
    WebAssembly.instantiateStreaming(fetch(config.codeUrl)).then(function (result) {
      fixture.set('wasm', result.instance.exports.answer());
    }),
    fetch(config.dataUrl).then(function (response) { return response.text(); }).then(function (text) {
      fixture.set('data', text === ${JSON.stringify(data.toString())} ? 'ok' : 'bad');
    }),
  ]).then(function () {
    ${LOCAL_STORAGE_SAVE('unity.fixture.save')}
    fixture.set('done', 1);
  });
}
`;
  return {
    kind: 'unity',
    engine: 'unity',
    entry: 'index.html',
    needsThreads: false,
    expected: {
      inline: 'ok',
      script: 'ok',
      framework: 'ok',
      wasm: '42',
      data: 'ok',
      storage: '1',
      done: '1',
    },
    files: {
      'index.html': page(
        'Unity WebGL Player | fixture',
        `<link rel="stylesheet" href="TemplateData/style.css">
<script>${REPORTER}</script>`,
        `<script src="Build/${name}.loader.js"></script>
<script>
var buildUrl = 'Build';
var config = {
  dataUrl: buildUrl + '/${name}.data.gz',
  frameworkUrl: buildUrl + '/${name}.framework.js.gz',
  codeUrl: buildUrl + '/${name}.wasm.br',
  streamingAssetsUrl: 'StreamingAssets',
  companyName: 'Fixture',
  productName: 'fixture',
  productVersion: '1.0',
};
createUnityInstance(document.querySelector('#canvas'), config).catch(function (error) { fixture.fail(error); });
</script>`,
      ),
      [`Build/${name}.loader.js`]: Buffer.from(loader),
      [`Build/${name}.framework.js.gz`]: gzipSync(framework),
      [`Build/${name}.wasm.br`]: brotliCompressSync(ANSWER_WASM),
      [`Build/${name}.data.gz`]: gzipSync(data),
      'TemplateData/style.css': Buffer.from('body { margin: 0; background: #231F20; }\n'),
      'TemplateData/favicon.ico': tinyPng(),
    },
  };
}

function html5(): EngineExport {
  return {
    kind: 'html5',
    engine: 'html5',
    entry: 'index.html',
    needsThreads: false,
    expected: { inline: 'ok', script: 'ok', style: 'ok', image: 'ok', storage: '1', done: '1' },
    files: {
      'index.html': page(
        'Plain HTML5 fixture',
        `<link rel="stylesheet" href="css/style.css">
<script>${REPORTER}</script>`,
        `<img id="sprite" src="assets/sprite.png" alt="">
<script src="js/game.js"></script>`,
      ),
      'css/style.css': Buffer.from('#status { color: rgb(1, 2, 3); }\n'),
      'js/game.js': Buffer.from(`(function () {
  fixture.set('script', 'ok');
  var color = getComputedStyle(document.getElementById('status')).color;
  fixture.set('style', color === 'rgb(1, 2, 3)' ? 'ok' : 'bad');
  var sprite = document.getElementById('sprite');
  function finish() {
    fixture.set('image', sprite.naturalWidth === 1 ? 'ok' : 'bad');
    ${LOCAL_STORAGE_SAVE('html5.fixture.save')}
    fixture.set('done', 1);
  }
  if (sprite.complete) { finish(); } else { sprite.onload = finish; sprite.onerror = finish; }
})();
`),
      'assets/sprite.png': tinyPng(),
    },
  };
}

/** A valid 1×1 PNG. */
function tinyPng(): Buffer {
  return Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
    'base64',
  );
}

/** The fixture export of one engine (fresh buffers each call). */
export function engineExport(kind: EngineExportKind): EngineExport {
  switch (kind) {
    case 'gamemaker':
      return gameMaker();
    case 'godot4-threads':
      return godot(true);
    case 'godot4':
      return godot(false);
    case 'unity':
      return unity();
    case 'html5':
      return html5();
  }
}

/** Every fixture export. */
export function allEngineExports(): EngineExport[] {
  return ENGINE_EXPORT_KINDS.map(engineExport);
}

/** Writes an export's files under `dir` (created as needed). */
export async function writeExport(files: Record<string, Buffer>, dir: string): Promise<void> {
  for (const [name, bytes] of Object.entries(files)) {
    const target = path.join(dir, ...name.split('/'));
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, bytes);
  }
}

/**
 * Zips an export as an engine's "export to zip" does (optionally inside a top folder, as when
 * someone zips the export's folder itself).
 */
export function zipExport(
  files: Record<string, Buffer>,
  options: { folder?: string } = {},
): Promise<Buffer> {
  const zip = new ZipFile();
  for (const [name, bytes] of Object.entries(files)) {
    zip.addBuffer(bytes, options.folder ? `${options.folder}/${name}` : name, {
      mtime: new Date('2026-01-01T00:00:00Z'),
    });
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('error', reject);
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
  });
}

/**
 * The brotli and gzip siblings the publisher makes (<file>.br, <file>.gz) for compressible
 * files of at least 1 KB, for tests that lay a build on disk without the publish path.
 */
export function withPrecompressedSiblings(files: Record<string, Buffer>): Record<string, Buffer> {
  const out: Record<string, Buffer> = { ...files };
  for (const [name, bytes] of Object.entries(files)) {
    if (bytes.length >= 1024 && /\.(html|js|css|json|wasm|pck|data|svg|txt)$/i.test(name)) {
      out[`${name}.br`] = brotliCompressSync(bytes);
      out[`${name}.gz`] = gzipSync(bytes);
    }
  }
  return out;
}
