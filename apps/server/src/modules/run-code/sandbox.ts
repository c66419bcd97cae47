import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { constants, existsSync, lstatSync } from 'node:fs';
import { access, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import { HELPER_C_SOURCE } from './helper-source.js';

const MiB = 1024 * 1024;

/** What one submission may use. The figures are the issue's; tests exercise each of them. */
export const RUN_CODE_LIMITS = {
  compileSeconds: 10,
  /** cc1plus maps the precompiled header (up to ~100 MB) and needs room for templates. */
  compileMemoryBytes: 1024 * MiB,
  compileProcesses: 64,
  runCpuSeconds: 2,
  runWallSeconds: 5,
  runMemoryBytes: 256 * MiB,
  /** Counted per uid: the sandbox's own processes (bwrap, sh, timeout, helper) are 5 of them. */
  runProcesses: 32,
  /** Program output (stdout and stderr together) and compiler messages. */
  outputBytes: 64 * 1024,
  /** Largest single file a compile or the program may write (inside the private /tmp). */
  fileBytes: 32 * MiB,
  /** The private /tmp (a tmpfs in memory) as a whole. */
  tmpBytes: 64 * MiB,
} as const;

/** Every compile uses these flags; a precompiled header is only valid for the same ones. */
export const COMPILE_FLAGS = ['-std=c++17', '-O2', '-pipe', '-fdiagnostics-color=never'];

/** Where the precompiled header folder appears inside the sandbox (read-only). */
export const SANDBOX_PCH_DIR = '/pch';
const SANDBOX_HELPER_DIR = '/opt/runner';

export interface SandboxTools {
  bwrap: string;
  gpp: string;
  setpriv: string;
  prlimit: string;
  timeout: string;
  /** gold links a small program several times faster than the default ld.bfd. */
  hasGold: boolean;
}

/** A sandbox ready to use: the tools and the compiled helper. */
export interface Sandbox {
  tools: SandboxTools;
  /** Host folder holding the helper binary (bound read-only into the sandbox). */
  helperDir: string;
  helperPath: string;
}

export interface SandboxJob {
  source: string;
  /** Unprivileged uid (and gid) the whole sandbox runs as; one per concurrent run. */
  uid: number;
  /** Host folder with `pch.h` and `pch.h.gch` whose includes match the source's first ones. */
  pchDir?: string | undefined;
}

export interface SandboxOutcome {
  output: string;
  exitCode: number | null;
  timedOut: boolean;
  truncated: boolean;
  /** Whether the program compiled and was started. */
  ran: boolean;
}

/** The sandbox itself failed (not the submitted program): a server problem, never the user's. */
export class SandboxFailure extends Error {
  override name = 'SandboxFailure';
}

const SEARCH_PATH = ['/usr/local/sbin', '/usr/local/bin', '/usr/sbin', '/usr/bin', '/sbin', '/bin'];

async function findExecutable(name: string): Promise<string | undefined> {
  for (const dir of SEARCH_PATH) {
    const candidate = path.join(dir, name);
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return undefined;
}

/** Finds the programs the sandbox needs; a readable reason when one is missing. */
export async function findTools(): Promise<SandboxTools | { missing: string[] }> {
  const names = {
    bwrap: 'bwrap',
    gpp: 'g++',
    setpriv: 'setpriv',
    prlimit: 'prlimit',
    timeout: 'timeout',
  };
  const found = await Promise.all(
    Object.entries(names).map(
      async ([key, name]) => [key, name, await findExecutable(name)] as const,
    ),
  );
  const missing = found.filter(([, , file]) => file === undefined).map(([, name]) => name);
  const byKey = Object.fromEntries(found.map(([key, , file]) => [key, file ?? '']));
  if (
    missing.length > 0 ||
    !byKey.bwrap ||
    !byKey.gpp ||
    !byKey.setpriv ||
    !byKey.prlimit ||
    !byKey.timeout
  ) {
    return { missing };
  }
  return {
    bwrap: byKey.bwrap,
    gpp: byKey.gpp,
    setpriv: byKey.setpriv,
    prlimit: byKey.prlimit,
    timeout: byKey.timeout,
    hasGold: (await findExecutable('ld.gold')) !== undefined,
  };
}

interface Captured {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a trusted host command (the helper's compile, the precompiled header's build). */
export function runHostCommand(
  file: string,
  args: readonly string[],
  options: { timeoutMs: number; cwd?: string },
): Promise<Captured> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, {
      cwd: options.cwd,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8' },
      timeout: options.timeoutMs,
      killSignal: 'SIGKILL',
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      stdout = (stdout + text).slice(-16_384);
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      stderr = (stderr + text).slice(-16_384);
    });
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/**
 * Compiles the helper into `dir/bin` once (the file name carries a hash of its source, so a new
 * version is built beside an old one and a half-written file is never used).
 */
export async function buildHelper(dir: string, tools: SandboxTools): Promise<Sandbox> {
  const hash = createHash('sha256').update(HELPER_C_SOURCE).digest('hex').slice(0, 12);
  const helperDir = path.join(dir, 'bin', hash);
  const helperPath = path.join(helperDir, 'runner-helper');
  if (!existsSync(helperPath)) {
    await mkdir(helperDir, { recursive: true, mode: 0o755 });
    const suffix = randomBytes(6).toString('hex');
    const sourceFile = path.join(helperDir, `runner-helper-${suffix}.c`);
    const output = `${helperPath}.${suffix}`;
    await writeFile(sourceFile, HELPER_C_SOURCE);
    try {
      const result = await runHostCommand(
        tools.gpp,
        ['-x', 'c', '-O2', '-Wall', '-o', output, sourceFile],
        { timeoutMs: 30_000 },
      );
      if (result.code !== 0) {
        throw new SandboxFailure(`The runner helper did not compile: ${result.stderr.trim()}`);
      }
      await rename(output, helperPath);
    } finally {
      await rm(sourceFile, { force: true });
      await rm(output, { force: true });
    }
  }
  return { tools, helperDir, helperPath };
}

/** /bin, /lib, /lib64, /sbin: symlinks into /usr on merged-/usr systems, real folders elsewhere. */
function systemRootArgs(): string[] {
  const args: string[] = [];
  for (const name of ['bin', 'sbin', 'lib', 'lib64', 'lib32', 'libx32']) {
    const hostPath = `/${name}`;
    let stat;
    try {
      stat = lstatSync(hostPath);
    } catch {
      continue;
    }
    if (stat.isSymbolicLink()) {
      args.push('--symlink', `usr/${name}`, hostPath);
    } else if (stat.isDirectory()) {
      args.push('--ro-bind', hostPath, hostPath);
    }
  }
  return args;
}

/**
 * The script the sandbox runs: compile, report, run the program under the reporting helper.
 * Everything it interpolates is a number or a constant; the one variable input (the optional
 * precompiled header path) arrives as "$1".
 */
function sandboxScript(sandbox: Sandbox): string {
  const limits = RUN_CODE_LIMITS;
  const flags = [...COMPILE_FLAGS, ...(sandbox.tools.hasGold ? ['-fuse-ld=gold'] : [])].join(' ');
  const compileLimits = [
    `--as=${limits.compileMemoryBytes}`,
    `--fsize=${limits.fileBytes}`,
    `--nproc=${limits.compileProcesses}`,
    `--cpu=${limits.compileSeconds}`,
    '--nofile=256',
    '--core=0',
  ].join(' ');
  const runLimits = [
    `--cpu=${limits.runCpuSeconds}:${limits.runCpuSeconds + 1}`,
    `--as=${limits.runMemoryBytes}`,
    `--fsize=${limits.fileBytes}`,
    `--nproc=${limits.runProcesses}`,
    '--nofile=64',
    '--core=0',
  ].join(' ');
  return [
    'cd /tmp || exit 125',
    'if [ -n "$1" ]; then set -- -include "$1"; else set --; fi',
    `timeout -s KILL ${limits.compileSeconds} prlimit ${compileLimits} -- g++ ${flags} "$@" main.cpp -o prog </dev/null 2>&1`,
    'status=$?',
    'echo "@@compile $status" >&2',
    '[ "$status" -eq 0 ] || exit 0',
    'echo "@@start" >&2',
    // exec: the shell would otherwise print "Killed" after a timeout
    `exec timeout -s KILL ${limits.runWallSeconds} prlimit ${runLimits} -- ${SANDBOX_HELPER_DIR}/runner-helper report ./prog </dev/null 3>&2 2>&1`,
  ].join('\n');
}

/** bubblewrap's view: read-only system, private /tmp, no network, nothing of the server's. */
function bwrapArgs(sandbox: Sandbox, job: SandboxJob): string[] {
  return [
    '--unshare-all',
    '--die-with-parent',
    '--new-session',
    '--hostname',
    'sandbox',
    '--ro-bind',
    '/usr',
    '/usr',
    ...systemRootArgs(),
    '--dev',
    '/dev',
    // /dev is a writable tmpfs without a size limit: only its device nodes are needed
    '--remount-ro',
    '/dev',
    '--size',
    String(RUN_CODE_LIMITS.tmpBytes),
    '--tmpfs',
    '/tmp',
    '--ro-bind',
    sandbox.helperDir,
    SANDBOX_HELPER_DIR,
    ...(job.pchDir ? ['--ro-bind', job.pchDir, SANDBOX_PCH_DIR] : []),
    // the source arrives on standard input and becomes a file only inside the sandbox
    '--file',
    '0',
    '/tmp/main.cpp',
    '--chdir',
    '/tmp',
    '--clearenv',
    '--setenv',
    'PATH',
    '/usr/bin:/bin',
    '--setenv',
    'LANG',
    'C.UTF-8',
    '--setenv',
    'HOME',
    '/tmp',
  ];
}

const SIGNAL_NAMES: Record<number, string> = {
  1: 'SIGHUP',
  2: 'SIGINT',
  4: 'SIGILL',
  5: 'SIGTRAP',
  6: 'SIGABRT',
  7: 'SIGBUS',
  8: 'SIGFPE',
  9: 'SIGKILL',
  11: 'SIGSEGV',
  13: 'SIGPIPE',
  15: 'SIGTERM',
  24: 'SIGXCPU',
  25: 'SIGXFSZ',
  31: 'SIGSYS',
};
const SIGXCPU = 24;
const SIGKILL = 9;

interface StatusLines {
  compile?: number;
  startedAt?: number;
  exit?: number;
  signal?: number;
  other: string[];
}

function parseStatus(stderr: string, startedAt: number | undefined): StatusLines {
  const status: StatusLines = { other: [], ...(startedAt === undefined ? {} : { startedAt }) };
  for (const line of stderr.split('\n')) {
    const match = /^@@(compile|exit|signal) (\d+)$/.exec(line);
    const kind = match?.[1];
    if (kind === 'compile' || kind === 'exit' || kind === 'signal') {
      status[kind] = Number(match?.[2]);
    } else if (line.trim() && line !== '@@start') {
      status.other.push(line);
    }
  }
  return status;
}

function withNotice(output: string, notice: string): string {
  const separator = output === '' || output.endsWith('\n') ? '' : '\n';
  return `${output}${separator}[${notice}]\n`;
}

/**
 * Compiles and runs one source in a fresh bubblewrap sandbox under the job's uid:
 *
 *   helper reap (subreaper, host) → timeout -s KILL → setpriv (uid, no caps, no new privileges)
 *   → bwrap (new user/pid/net/ipc/uts namespaces, read-only /usr, private /tmp)
 *   → sh: timeout + prlimit g++ …; timeout + prlimit helper report ./prog
 *
 * Output beyond the limit ends the run at once. Resolves with what the user sees; rejects with
 * SandboxFailure only when the sandbox itself could not run.
 */
export function runInSandbox(sandbox: Sandbox, job: SandboxJob): Promise<SandboxOutcome> {
  const limits = RUN_CODE_LIMITS;
  const { tools } = sandbox;
  const totalSeconds = limits.compileSeconds + limits.runWallSeconds + 2;
  const args = [
    'reap',
    tools.timeout,
    '-s',
    'KILL',
    String(totalSeconds),
    tools.setpriv,
    `--reuid=${job.uid}`,
    `--regid=${job.uid}`,
    '--clear-groups',
    '--no-new-privs',
    '--bounding-set=-all',
    tools.bwrap,
    ...bwrapArgs(sandbox, job),
    'sh',
    '-c',
    sandboxScript(sandbox),
    'sh',
    job.pchDir ? `${SANDBOX_PCH_DIR}/pch.h` : '',
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(sandbox.helperPath, args, {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { PATH: '/usr/bin:/bin' },
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let truncated = false;
    let stderr = '';
    let startedAt: number | undefined;
    let isStopping = false;
    let killTimer: NodeJS.Timeout | undefined;

    // ask the helper to kill the sandbox's process group (it keeps reaping); force it if need be
    const stop = () => {
      if (isStopping) {
        return;
      }
      isStopping = true;
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), 3000);
      killTimer.unref();
    };
    const guard = setTimeout(stop, (totalSeconds + 2) * 1000);
    guard.unref();

    child.stdin.on('error', () => {
      // the sandbox ended before reading the source: its status says why
    });
    child.stdin.end(job.source);
    child.stdout.on('data', (chunk: Buffer) => {
      if (truncated) {
        return;
      }
      const room = limits.outputBytes - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        size = limits.outputBytes;
        truncated = true;
        stop();
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => {
      if (startedAt === undefined && (stderr + text).includes('@@start\n')) {
        startedAt = performance.now();
      }
      stderr = (stderr + text).slice(-16_384);
    });
    child.on('error', (error) => {
      clearTimeout(guard);
      reject(new SandboxFailure(`The sandbox could not start: ${error.message}`));
    });
    child.on('close', (code) => {
      clearTimeout(guard);
      if (killTimer) {
        clearTimeout(killTimer);
      }
      const endedAt = performance.now();
      const status = parseStatus(stderr, startedAt);
      let output = Buffer.concat(chunks).toString('utf8');
      const finish = (outcome: Omit<SandboxOutcome, 'output' | 'truncated'>, notice?: string) => {
        let text = output;
        if (truncated) {
          text = withNotice(text, `Output truncated: more than ${limits.outputBytes / 1024} KB`);
        }
        if (notice) {
          text = withNotice(text, notice);
        }
        resolve({ ...outcome, output: text, truncated });
      };

      if (status.compile === undefined) {
        if (truncated) {
          // compiler messages flooded the output: the compile was stopped there
          finish({ exitCode: null, timedOut: false, ran: false });
          return;
        }
        if (isStopping) {
          finish({ exitCode: null, timedOut: true, ran: false }, 'Stopped: the run took too long');
          return;
        }
        const detail = status.other.join('\n').trim() || `exit status ${String(code)}`;
        reject(new SandboxFailure(`The sandbox failed: ${detail}`));
        return;
      }
      if (status.compile !== 0) {
        if (status.compile === 128 + SIGKILL) {
          finish(
            { exitCode: null, timedOut: true, ran: false },
            `Compilation stopped: it took longer than ${limits.compileSeconds} s`,
          );
          return;
        }
        output = output || 'Compilation failed.\n';
        finish({ exitCode: null, timedOut: false, ran: false });
        return;
      }
      if (status.exit !== undefined) {
        finish({ exitCode: status.exit, timedOut: false, ran: true });
        return;
      }
      const elapsedMs = status.startedAt === undefined ? 0 : endedAt - status.startedAt;
      if (status.signal !== undefined) {
        const isCpuLimit =
          status.signal === SIGXCPU ||
          (status.signal === SIGKILL && elapsedMs >= limits.runCpuSeconds * 1000);
        if (isCpuLimit) {
          finish(
            { exitCode: null, timedOut: true, ran: true },
            `Program stopped: it used more than ${limits.runCpuSeconds} s of CPU time`,
          );
          return;
        }
        const name = SIGNAL_NAMES[status.signal] ?? `signal ${status.signal}`;
        finish({ exitCode: null, timedOut: false, ran: true }, `Program terminated by ${name}`);
        return;
      }
      if (truncated) {
        finish({ exitCode: null, timedOut: false, ran: true });
        return;
      }
      // no report from the helper: timeout killed the program (and the helper with it)
      finish(
        { exitCode: null, timedOut: true, ran: true },
        `Program stopped: it ran longer than ${limits.runWallSeconds} s`,
      );
    });
  });
}
