import { accessSync, chmodSync, constants, existsSync, mkdirSync, statSync } from 'node:fs';
import { arch, tmpdir } from 'node:os';
import path from 'node:path';

import { DEFAULT_CPP_STANDARD, DEFAULT_OPTIMIZATION } from '@portfolio/types';

import { SECCOMP_DIR } from '../../lib/paths.js';
import type { BackendStatus, RunBackend, RunOutcome } from './backend.js';
import { createPchStore, type PchStore } from './pch.js';
import { buildHelper, findTools, type Sandbox, SandboxFailure } from './sandbox.js';
import { createSpawnerLauncher, type ProcessLauncher } from './spawner.js';

/** Well above Debian's dynamic ranges and below nobody (65534); no account needs to exist. */
export const DEFAULT_UID_BASE = 61_000;

const SELF_TEST_OUTPUT = 'sandbox self-test ok';

/** A program that passes only inside a working sandbox: not root, host folder out of sight. */
function selfTestSource(hiddenDir: string): string {
  return `#include <cstdio>
#include <unistd.h>
int main() {
  if (getuid() == 0) { std::puts("running as root"); return 1; }
  if (access(${JSON.stringify(hiddenDir)}, F_OK) == 0) { std::puts("host folder visible"); return 1; }
  std::puts(${JSON.stringify(SELF_TEST_OUTPUT)});
  return 0;
}
`;
}

/** Node's names for the architectures the committed filters cover, as libseccomp names them. */
const SECCOMP_ARCHES: Record<string, string> = { x64: 'x86_64', arm64: 'aarch64' };

/** The committed seccomp filter for this machine's architecture, or why there is none. */
export function seccompFilterPath(dir = SECCOMP_DIR): { path: string } | { missing: string } {
  const name = SECCOMP_ARCHES[arch()];
  if (!name) {
    return { missing: `there is no seccomp filter for this architecture (${arch()})` };
  }
  const file = path.join(dir, `run-code-${name}.bpf`);
  return existsSync(file)
    ? { path: file }
    : { missing: `the seccomp filter ${file} is missing (run seccomp/generate.py)` };
}

/** Whether a user with no relation to the folder's owners can walk into it (o+x all the way). */
function isReachableByOthers(dir: string): boolean {
  let current = path.resolve(dir);
  for (;;) {
    try {
      // folders still to be made are made world-readable (see buildHelper, the header store)
      if ((statSync(current).mode & 0o001) === 0) {
        return false;
      }
    } catch {
      // not made yet
    }
    const parent = path.dirname(current);
    if (parent === current) {
      return true;
    }
    current = parent;
  }
}

/** Folders outside DATA_DIR for the sandbox's files, most lasting first. */
const FALLBACK_DIRS = ['/var/cache/portfolio-run-code', path.join(tmpdir(), 'portfolio-run-code')];

/**
 * Where the helper and the precompiled headers live: `<DATA_DIR>/run-code` when the slots' uids
 * (which bwrap runs as) can walk into it, else a root-owned folder they can reach, since a
 * careful owner's DATA_DIR is mode 700.
 */
function sandboxFilesDir(dir: string, fallbacks = FALLBACK_DIRS): string {
  if (isReachableByOthers(dir)) {
    return path.resolve(dir);
  }
  for (const fallback of fallbacks) {
    try {
      mkdirSync(fallback, { recursive: true, mode: 0o755 });
      // whatever the umask (a careful owner's 077): the slots' uids must walk into it
      chmodSync(fallback, 0o755);
      accessSync(fallback, constants.W_OK);
      if (isReachableByOthers(fallback)) {
        return fallback;
      }
    } catch {
      // not writable here: try the next one
    }
  }
  return path.resolve(dir);
}

/** Says why the sandbox failed in words an owner can act on, keeping bwrap's own message. */
function explainSandboxFailure(message: string, dir: string): string {
  const detail = message.replace(/^The sandbox failed: /, '').trim();
  if (/Permission denied|EACCES/i.test(detail)) {
    return `the sandbox's uid cannot reach its files in ${dir} (${detail}).`;
  }
  if (/namespace|uid map|setting up uid|No permissions to create/i.test(detail)) {
    return `the sandbox cannot create its namespaces: user namespaces may be disabled or restricted here (${detail}).`;
  }
  return `the sandbox self-test failed (${detail}).`;
}

/**
 * The native backend: g++ and the program in a bubblewrap sandbox on the host (see sandbox.ts),
 * with precompiled headers. Needs root, bubblewrap, g++ and util-linux.
 */
export function createNativeBackend(options: {
  dir: string;
  uidBase: number;
  launcher?: ProcessLauncher;
  prebuiltIncludeSets?: readonly (readonly string[])[];
  compileWallSeconds?: number | undefined;
  log: (message: string) => void;
}): RunBackend {
  const launcher = options.launcher ?? createSpawnerLauncher();
  let dir = path.resolve(options.dir);
  let sandbox: Sandbox | undefined;
  let pch: PchStore | undefined;

  async function detect(): Promise<BackendStatus> {
    if (process.platform !== 'linux') {
      return { ok: false, reason: `the native sandbox needs Linux (this is ${process.platform}).` };
    }
    if (process.getuid?.() !== 0) {
      return {
        ok: false,
        reason: 'the native sandbox needs the server to start as root (each run gets its own uid).',
      };
    }
    const tools = await findTools();
    if ('missing' in tools) {
      return {
        ok: false,
        reason: `the native sandbox needs ${tools.missing.join(', ')}, which ${tools.missing.length === 1 ? 'is' : 'are'} not installed.`,
      };
    }
    const filter = seccompFilterPath();
    if ('missing' in filter) {
      return { ok: false, reason: `the native sandbox refuses to run: ${filter.missing}.` };
    }
    dir = sandboxFilesDir(options.dir);
    if (dir !== path.resolve(options.dir)) {
      options.log(
        `${path.resolve(options.dir)} is not reachable by the sandbox's uids (a folder on its path is not o+x): the helper and precompiled headers live in ${dir}`,
      );
    }
    const built = await buildHelper(dir, tools, (file, args, hostOptions) =>
      launcher.host(file, args, hostOptions),
    );
    const ready: Sandbox = {
      ...built,
      seccompPath: filter.path,
      compileWallSeconds: options.compileWallSeconds,
    };
    const [version, machine] = await Promise.all(
      ['-dumpfullversion', '-dumpmachine'].map((flag) =>
        launcher.host(tools.gpp, [flag], { timeoutMs: 10_000 }),
      ),
    );
    let outcome;
    try {
      outcome = await launcher.sandbox(ready, {
        source: selfTestSource(dir),
        stdin: '',
        standard: DEFAULT_CPP_STANDARD,
        optimization: DEFAULT_OPTIMIZATION,
        uid: options.uidBase,
      });
    } catch (error) {
      if (error instanceof SandboxFailure) {
        options.log(error.message);
        return { ok: false, reason: explainSandboxFailure(error.message, dir) };
      }
      throw error;
    }
    if (outcome.exitCode !== 0 || outcome.output.trim() !== SELF_TEST_OUTPUT) {
      const said = (outcome.output.trim() || outcome.compilerOutput.trim()).slice(0, 300);
      return { ok: false, reason: `the sandbox self-test failed (${said || 'no output'}).` };
    }
    sandbox = ready;
    const compilerVersion = `${tools.gpp} ${version?.stdout.trim()} ${machine?.stdout.trim()}`;
    pch = createPchStore({
      dir: path.join(dir, 'pch'),
      tools,
      launcher,
      compilerVersion,
      log: options.log,
      ...(options.prebuiltIncludeSets ? { prebuilt: options.prebuiltIncludeSets } : {}),
    });
    return {
      ok: true,
      compiler: `g++ ${version?.stdout.trim() ?? ''} (${machine?.stdout.trim() ?? ''})`,
    };
  }

  return {
    name: 'native',
    detect,

    async run(job): Promise<RunOutcome> {
      if (!sandbox || !pch) {
        throw new SandboxFailure('the native sandbox is not ready');
      }
      const pchDir = pch.lookup(job.source, job.standard, job.optimization);
      const outcome = await launcher.sandbox(sandbox, {
        source: job.source,
        stdin: job.stdin,
        standard: job.standard,
        optimization: job.optimization,
        uid: options.uidBase + job.slot,
        pchDir,
      });
      return {
        output: outcome.output,
        compilerOutput: outcome.compilerOutput,
        exitCode: outcome.exitCode,
        signal: outcome.signal,
        timedOut: outcome.timedOut,
        truncated: outcome.truncated,
        compiled: outcome.compiled,
        durationMs: outcome.durationMs,
        compileCpuMs: outcome.compileCpuMs,
        cpuMs: outcome.cpuMs,
      };
    },

    async prebuild() {
      await pch?.prebuild();
    },

    close() {
      launcher.close();
    },
  };
}
