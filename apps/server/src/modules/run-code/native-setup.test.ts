import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, describe, expect, it } from 'vitest';

import { scaled } from '../../test/slow-machine.js';
import { createNativeBackend, seccompFilterPath } from './native-backend.js';
import { HAS_NATIVE } from './test-support.js';

/** The native sandbox's files must be reachable whatever DATA_DIR's mode is. */
describe.runIf(HAS_NATIVE)('the native sandbox and its data folder', () => {
  const owner = mkdtempSync(path.join(tmpdir(), 'run-code-private-'));
  afterAll(() => {
    rmSync(owner, { recursive: true, force: true });
  });

  it(
    'works in a DATA_DIR of mode 700 (a careful owner) under a umask of 077',
    async () => {
      const dataDir = path.join(owner, 'data');
      const previousUmask = process.umask(0o077);
      let backend;
      try {
        chmodSync(owner, 0o700);
        backend = createNativeBackend({
          dir: path.join(dataDir, 'run-code'),
          uidBase: 61_300,
          log: () => undefined,
        });
        const status = await backend.detect();
        expect(status).toEqual({ ok: true, compiler: expect.any(String) as unknown });
        await backend.prebuild();
        const outcome = await backend.run({
          source: '#include <iostream>\nint main() { std::cout << "private ok" << std::endl; }\n',
          stdin: '',
          standard: 'c++17',
          optimization: 'O2',
          slot: 0,
        });
        expect(outcome).toMatchObject({ output: 'private ok\n', exitCode: 0 });
      } finally {
        process.umask(previousUmask);
        backend?.close();
      }
    },
    scaled(180_000),
  );

  it('refuses to run without the seccomp filter for this architecture, saying so', () => {
    const missing = seccompFilterPath(owner);
    expect(missing).toEqual({
      missing: expect.stringMatching(
        /^the seccomp filter .*run-code-\w+\.bpf is missing \(run seccomp\/generate\.py\)$/,
      ) as unknown,
    });
    expect(seccompFilterPath()).toEqual({
      path: expect.stringMatching(/run-code-\w+\.bpf$/) as unknown,
    });
  });
});
