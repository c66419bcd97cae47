// Bundles the server entry points into dist/. npm dependencies stay external (node_modules at run
// time); workspace packages (@portfolio/*, shipped as TypeScript source) are compiled in.
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';

import { build } from 'esbuild';

await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });
const entries = {
  main: 'src/main.ts',
  'cli/admin-create': 'src/cli/admin-create.ts',
  'cli/seed-demo': 'src/cli/seed-demo.ts',
  // npm run backup / restore, in the image: node apps/server/dist/cli/backup.js --out FILE
  'cli/backup': 'src/cli/backup.ts',
  'cli/restore': 'src/cli/restore.ts',
  'cli/storage-migrate': 'src/cli/storage-migrate.ts',
  // the child that starts the C++ sandboxes (src/modules/run-code/spawner.ts)
  'run-code-spawner': 'src/modules/run-code/spawner.ts',
  // the WebAssembly backend's worker threads (src/modules/run-code/wasm-backend.ts)
  'run-code-wasm-compile-worker': 'src/modules/run-code/wasm-compile-worker.ts',
  'run-code-wasm-run-worker': 'src/modules/run-code/wasm-run-worker.ts',
  // the devlog's markdown worker thread (src/modules/devlog/markdown-renderer.ts)
  'devlog-markdown-worker': 'src/modules/devlog/markdown-worker.ts',
};
await build({
  entryPoints: Object.fromEntries(Object.entries(entries).filter(([, file]) => existsSync(file))),
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'externalize-npm-packages',
      setup(pluginBuild) {
        pluginBuild.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@portfolio/') ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});
