import { randomBytes } from 'node:crypto';

import yazl from 'yazl';

/*
 * Small zips for the game host's tests: fixture exports shaped like each engine's, and the bad
 * uploads (climbing and absolute paths, links, bombs) that a well-behaved zip writer refuses to
 * make, written by renaming a same-length placeholder in the finished bytes.
 */

export type ZipContent = string | Buffer | { symlinkTo: string };

/** A zip of `files` (path → content; `{ symlinkTo }` makes a symbolic link entry). */
export function makeZip(
  files: Record<string, ZipContent>,
  options: { compress?: boolean } = {},
): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, content] of Object.entries(files)) {
    if (typeof content === 'object' && !Buffer.isBuffer(content)) {
      zip.addBuffer(Buffer.from(content.symlinkTo), name, { mode: 0o120777, compress: false });
    } else {
      zip.addBuffer(Buffer.isBuffer(content) ? content : Buffer.from(content), name, {
        compress: options.compress ?? true,
      });
    }
  }
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

/** A zip whose entry named `placeholder` is renamed to `name` (same length) in the bytes. */
export async function makeZipWithRawName(
  files: Record<string, ZipContent>,
  placeholder: string,
  name: string,
): Promise<Buffer> {
  if (Buffer.byteLength(placeholder) !== Buffer.byteLength(name)) {
    throw new Error('placeholder and name must be as long');
  }
  const zip = await makeZip(files);
  const from = Buffer.from(placeholder);
  const to = Buffer.from(name);
  let at = zip.indexOf(from);
  while (at !== -1) {
    to.copy(zip, at);
    at = zip.indexOf(from, at + to.length);
  }
  return zip;
}

/** Text that compresses about 4:1 (four letters at random): not a bomb, but large unpacked. */
export function lowEntropyText(bytes: number): Buffer {
  const random = randomBytes(bytes);
  for (let index = 0; index < bytes; index++) {
    random[index] = 97 + ((random[index] ?? 0) & 3);
  }
  return random;
}

/** Some JavaScript over 1 KB (so the host makes .br/.gz siblings). */
export function someScript(label: string, kilobytes = 4): string {
  const line = `console.log(${JSON.stringify(label)}, Math.random());\n`;
  return line.repeat(Math.ceil((kilobytes * 1024) / line.length));
}

/** The smallest valid WebAssembly module (magic + version). */
export const EMPTY_WASM = Buffer.from([0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]);

const godotPage = (config: Record<string, unknown>, extra = '') => `<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Game</title></head>
<body><canvas id="canvas"></canvas>
<script src="index.js"></script>
<script>
const GODOT_CONFIG = ${JSON.stringify(config)};
${extra}
const engine = new Engine(GODOT_CONFIG);
engine.startGame();
</script></body></html>`;

const GODOT4_CONFIG = {
  args: [],
  canvasResizePolicy: 2,
  executable: 'index',
  experimentalVK: false,
  fileSizes: { 'index.pck': 4, 'index.wasm': 8 },
  focusCanvas: true,
  gdextensionLibs: [],
};

/** Fixture exports shaped like each engine's, with what the host should detect. */
export const ENGINE_FIXTURES: Record<
  string,
  { files: Record<string, ZipContent>; engine: string; needsThreads: boolean; entry: string }
> = {
  gamemaker: {
    files: {
      'index.html': `<!DOCTYPE html><html><body><canvas id="canvas"></canvas>
<script type="text/javascript" src="html5game/Game.js?cachebust=1"></script>
<script>window.onload = GameMaker_Init;</script></body></html>`,
      'html5game/Game.js': someScript('gamemaker'),
      'html5game/snd_jump.ogg': randomBytes(2048),
    },
    engine: 'gamemaker',
    needsThreads: false,
    entry: 'index.html',
  },
  godot4Threads: {
    files: {
      'index.html': godotPage(
        { ...GODOT4_CONFIG, ensureCrossOriginIsolationHeaders: true },
        'const GODOT_THREADS_ENABLED = true;',
      ),
      'index.js': someScript('godot engine'),
      'index.wasm': EMPTY_WASM,
      'index.pck': Buffer.from('GDPC'),
      'index.audio.worklet.js': someScript('worklet', 2),
    },
    engine: 'godot4',
    needsThreads: true,
    entry: 'index.html',
  },
  godot4SingleThread: {
    files: {
      'index.html': godotPage(
        { ...GODOT4_CONFIG, ensureCrossOriginIsolationHeaders: true },
        'const GODOT_THREADS_ENABLED = false;',
      ),
      'index.js': someScript('godot engine'),
      'index.wasm': EMPTY_WASM,
      'index.pck': Buffer.from('GDPC'),
    },
    engine: 'godot4',
    needsThreads: false,
    entry: 'index.html',
  },
  godot42Threads: {
    files: {
      'Game.html': godotPage({ ...GODOT4_CONFIG, executable: 'Game' }),
      'Game.js': someScript('godot engine'),
      'Game.worker.js': someScript('pthread worker', 2),
      'Game.wasm': EMPTY_WASM,
      'Game.pck': Buffer.from('GDPC'),
    },
    engine: 'godot4',
    needsThreads: true,
    entry: 'Game.html',
  },
  godot3: {
    files: {
      'index.html': godotPage({
        args: [],
        canvasResizePolicy: 2,
        executable: 'index',
        experimentalVK: false,
        fileSizes: { 'index.pck': 4, 'index.wasm': 8 },
        focusCanvas: true,
        gdnativeLibs: [],
      }),
      'index.js': someScript('godot 3 engine'),
      'index.wasm': EMPTY_WASM,
      'index.pck': Buffer.from('GDPC'),
    },
    engine: 'godot3',
    needsThreads: false,
    entry: 'index.html',
  },
  unity: {
    files: {
      'index.html': `<!DOCTYPE html><html><body><canvas id="unity-canvas"></canvas>
<script src="Build/WebGL.loader.js"></script>
<script>createUnityInstance(document.querySelector("#unity-canvas"), {
  dataUrl: "Build/WebGL.data.br", frameworkUrl: "Build/WebGL.framework.js.br",
  codeUrl: "Build/WebGL.wasm.br" });</script></body></html>`,
      'Build/WebGL.loader.js': someScript('unity loader'),
      'Build/WebGL.data.br': randomBytes(3000),
      'Build/WebGL.framework.js.br': randomBytes(3000),
      'Build/WebGL.wasm.br': randomBytes(3000),
    },
    engine: 'unity',
    needsThreads: false,
    entry: 'index.html',
  },
  html5InFolder: {
    files: {
      'MyGame/index.html':
        '<!DOCTYPE html><html><body><script src="game.js"></script></body></html>',
      'MyGame/game.js': someScript('plain html5'),
      'MyGame/assets/tiles.png': randomBytes(1500),
    },
    engine: 'html5',
    needsThreads: false,
    entry: 'MyGame/index.html',
  },
};
