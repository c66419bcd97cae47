import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { constants, existsSync, lstatSync, readFileSync } from 'node:fs';
import { access, chmod, mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

import {
  type CppStandard,
  DEFAULT_CPP_STANDARD,
  DEFAULT_OPTIMIZATION,
  type OptimizationLevel,
} from '@portfolio/types';

import { BackendFailure, type RunOutcome } from './backend.js';
import { SOURCE_FILE } from './diagnostics.js';
import { HELPER_C_SOURCE } from './helper-source.js';
import { NOTICES, RUN_CODE_LIMITS, withNotice } from './limits.js';

/**
 * The flags of every compile besides the standard and optimisation (the sandbox script uses them
 * alone): warnings are on and diagnostics one line each with byte columns.
 */
const FIXED_COMPILE_FLAGS = [
  '-pipe',
  '-Wall',
  '-Wextra',
  '-fdiagnostics-color=never',
  '-fdiagnostics-column-unit=byte',
  '-fdiagnostics-urls=never',
] as const;

/**
 * The flags of a compile with this standard and optimisation; a precompiled header is only
 * valid for the same ones.
 */
export function compileFlags(standard: CppStandard, optimization: OptimizationLevel): string[] {
  return [`-std=${standard}`, `-${optimization}`, ...FIXED_COMPILE_FLAGS];
}

/** The flags of the default standard and optimisation (the prebuilt headers use them). */
export const COMPILE_FLAGS = compileFlags(DEFAULT_CPP_STANDARD, DEFAULT_OPTIMIZATION);

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
  /** The seccomp filter (BPF) bwrap applies to everything in the sandbox. */
  seccompPath?: string | undefined;
  /** The compile's wall-time limit; default RUN_CODE_LIMITS.compileWallSeconds. */
  compileWallSeconds?: number | undefined;
}

export interface SandboxJob {
  source: string;
  stdin: string;
  standard: CppStandard;
  optimization: OptimizationLevel;
  /** Unprivileged uid (and gid) the whole sandbox runs as; one per concurrent run. */
  uid: number;
  /** Host folder with `pch.h` and `pch.h.gch` whose includes match the source's first ones. */
  pchDir?: string | undefined;
}

/** A native run's outcome: the CPU time of the whole process tree is always measured. */
export interface SandboxOutcome extends RunOutcome {
  cpuMs: number;
}

/** The sandbox itself failed (not the submitted program): a server problem, never the user's. */
export class SandboxFailure extends BackendFailure {
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

export interface Captured {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs a trusted host command (the helper's compile, the precompiled header's build). */
export function runHostCommand(
  file: string,
  args: string[],
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
export async function buildHelper(
  dir: string,
  tools: SandboxTools,
  host: typeof runHostCommand = runHostCommand,
): Promise<Sandbox> {
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
      const result = await host(tools.gpp, ['-x', 'c', '-O2', '-Wall', '-o', output, sourceFile], {
        timeoutMs: 30_000,
      });
      if (result.code !== 0) {
        throw new SandboxFailure(`The runner helper did not compile: ${result.stderr.trim()}`);
      }
      // executable by the slots' uids whatever the server's umask (a careful owner's 077)
      await chmod(helperDir, 0o755);
      await chmod(output, 0o755);
      await rename(output, helperPath);
    } finally {
      await rm(sourceFile, { force: true });
      await rm(output, { force: true });
    }
  }
  // the slots' uids walk through these whatever the umask they were made under (a careful
  // owner's 077); a helper built before under such a umask is fixed too
  for (const folder of [dir, path.join(dir, 'bin'), helperDir]) {
    await chmod(folder, 0o755);
  }
  await chmod(helperPath, 0o755);
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
 * Everything it interpolates is a number or a constant; the variable inputs (standard,
 * optimisation, the optional precompiled header) arrive as "$1" "$2" "$3", from allow-lists.
 * fd 3 is the status channel to the supervising helper, fd 6 the compiler's messages.
 */
function sandboxScript(sandbox: Sandbox): string {
  const limits = RUN_CODE_LIMITS;
  const fixedFlags = [
    ...FIXED_COMPILE_FLAGS,
    ...(sandbox.tools.hasGold ? ['-fuse-ld=gold'] : []),
  ].join(' ');
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
    // the descriptors bwrap has used (the input, the filter) stay out of the program
    'exec 4<&- 5<&-',
    'cd /tmp || exit 125',
    'std=$1 opt=$2',
    'if [ -n "$3" ]; then set -- -include "$3"; else set --; fi',
    `prlimit ${compileLimits} -- g++ -std=$std -$opt ${fixedFlags} "$@" ${SOURCE_FILE} -o prog </dev/null >&6 2>&6 3>&-`,
    'status=$?',
    'exec 6>&-',
    'echo "@@compile $status" >&3',
    '[ "$status" -eq 0 ] || exit 0',
    'echo "@@start" >&3',
    `exec prlimit ${runLimits} -- ${SANDBOX_HELPER_DIR}/runner-helper report ./prog </stdin 2>&1`,
  ].join('\n');
}

/** Only devices that never block: no tty, ptmx or console for a compile or a program to hang on. */
const DEVICES = ['null', 'zero', 'full', 'random', 'urandom'];

/** bubblewrap's view: read-only system, private /tmp, no network, nothing of the server's. */
function bwrapArgs(sandbox: Sandbox, job: SandboxJob, fds: { seccomp?: number }): string[] {
  return [
    '--unshare-all',
    '--unshare-user',
    // no namespaces inside: nested user namespaces are the way in to most kernel exploits
    '--disable-userns',
    '--die-with-parent',
    '--new-session',
    '--hostname',
    'sandbox',
    '--ro-bind',
    '/usr',
    '/usr',
    ...systemRootArgs(),
    '--tmpfs',
    '/dev',
    ...DEVICES.flatMap((name) => ['--dev-bind', `/dev/${name}`, `/dev/${name}`]),
    '--remount-ro',
    '/dev',
    '--size',
    String(RUN_CODE_LIMITS.tmpBytes),
    '--tmpfs',
    '/tmp',
    // bwrap runs as the slot's uid: these folders are where it can reach them (see
    // native-backend.ts, sandboxFilesDir)
    '--ro-bind',
    sandbox.helperDir,
    SANDBOX_HELPER_DIR,
    ...(job.pchDir ? ['--ro-bind', job.pchDir, SANDBOX_PCH_DIR] : []),
    // the source and the input arrive on fds 0 and 4 and become files only inside the sandbox
    '--file',
    '0',
    `/tmp/${SOURCE_FILE}`,
    '--file',
    String(STDIN_FD),
    '/stdin',
    // the root itself is a tmpfs without a size limit: only /tmp stays writable
    '--remount-ro',
    '/',
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
    ...(fds.seccomp === undefined ? [] : ['--seccomp', String(fds.seccomp)]),
  ];
}

/**
 * The descriptors the sandbox's processes receive besides 0, 1 and 2 (3 is the helper's status
 * pipe, made by the helper itself).
 */
const STDIN_FD = 4;
const SECCOMP_FD = 5;
const COMPILER_FD = 6;

const SIGNAL_NAMES: Record<number, string> = {
  1: 'SIGHUP',
  2: 'SIGINT',
  3: 'SIGQUIT',
  4: 'SIGILL',
  5: 'SIGTRAP',
  6: 'SIGABRT',
  7: 'SIGBUS',
  8: 'SIGFPE',
  9: 'SIGKILL',
  10: 'SIGUSR1',
  11: 'SIGSEGV',
  12: 'SIGUSR2',
  13: 'SIGPIPE',
  14: 'SIGALRM',
  15: 'SIGTERM',
  24: 'SIGXCPU',
  25: 'SIGXFSZ',
  31: 'SIGSYS',
};
const SIGXCPU = 24;
const SIGKILL = 9;

const signalName = (signal: number) => SIGNAL_NAMES[signal] ?? `signal ${signal}`;

interface HelperResult {
  compile: number;
  started: boolean;
  exit: number;
  signal: number;
  limit: 'none' | 'compilecpu' | 'compilewall' | 'cpu' | 'wall' | 'stopped';
  status: number;
  cpuMs: number;
  runMs: number;
  compileCpuMs: number;
}

const RESULT_LINE =
  /^@@result compile=(-?\d+) started=([01]) exit=(-?\d+) signal=(-?\d+) limit=(\w+) status=(\d+) cpu_ms=(\d+) run_ms=(\d+) compile_cpu_ms=(\d+)$/m;

function parseResult(stderr: string): HelperResult | undefined {
  const match = RESULT_LINE.exec(stderr);
  if (!match) {
    return undefined;
  }
  return {
    compile: Number(match[1]),
    started: match[2] === '1',
    exit: Number(match[3]),
    signal: Number(match[4]),
    limit: match[5] as HelperResult['limit'],
    status: Number(match[6]),
    cpuMs: Number(match[7]),
    runMs: Number(match[8]),
    compileCpuMs: Number(match[9]),
  };
}

const filters = new Map<string, Buffer>();

/** The filter's bytes, read once per process. */
function seccompFilter(file: string): Buffer {
  let filter = filters.get(file);
  if (!filter) {
    filter = readFileSync(file);
    filters.set(file, filter);
  }
  return filter;
}

/** A capped text collector for one output stream. */
function collector(limit: number, onOverflow: () => void) {
  const chunks: Buffer[] = [];
  let size = 0;
  let isFull = false;
  return {
    push(chunk: Buffer) {
      if (isFull) {
        return;
      }
      const room = limit - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        size = limit;
        isFull = true;
        onOverflow();
        return;
      }
      chunks.push(chunk);
      size += chunk.length;
    },
    get isFull() {
      return isFull;
    },
    text: () => Buffer.concat(chunks).toString('utf8'),
  };
}

type Outcome = Omit<
  SandboxOutcome,
  'output' | 'truncated' | 'compilerOutput' | 'cpuMs' | 'compileCpuMs'
>;
type Verdict =
  { failure: string } | { outcome: Outcome; text: string; notice?: string | undefined };

const verdict = (outcome: Outcome, text: string, notice?: string): Verdict => ({
  outcome,
  text,
  notice,
});

/** What the helper's report means for the user: the outcome, the text shown and a notice. */
function verdictOf(
  result: HelperResult | undefined,
  stderr: string,
  output: ReturnType<typeof collector>,
  isCompilerFull: boolean,
  compilerOutput: string,
  compileWallSeconds: number,
): Verdict {
  const notRun = { exitCode: null, signal: null, compiled: false, durationMs: 0 };

  if (!result || (result.compile < 0 && result.limit === 'none')) {
    const detail =
      stderr.replace(RESULT_LINE, '').trim() || `exit status ${String(result?.status)}`;
    return { failure: `The sandbox failed: ${detail}` };
  }
  if (result.compile < 0) {
    if (isCompilerFull) {
      // compiler messages flooded the output: the compile was stopped there
      return verdict({ ...notRun, timedOut: false }, compilerOutput);
    }
    return verdict(
      { ...notRun, signal: 'SIGKILL', timedOut: true },
      compilerOutput,
      result.limit === 'compilecpu'
        ? NOTICES.compileCpuLimit
        : NOTICES.compileWallLimit(compileWallSeconds),
    );
  }
  if (result.compile !== 0) {
    return verdict({ ...notRun, timedOut: false }, compilerOutput || 'Compilation failed.\n');
  }
  const ran = { compiled: true, durationMs: result.runMs };
  const programOutput = output.text();
  if (result.limit === 'cpu' || result.signal === SIGXCPU) {
    return verdict(
      {
        ...ran,
        exitCode: null,
        signal: signalName(result.signal > 0 ? result.signal : SIGKILL),
        timedOut: true,
      },
      programOutput,
      NOTICES.cpuLimit,
    );
  }
  if (result.limit === 'wall') {
    return verdict(
      { ...ran, exitCode: null, signal: 'SIGKILL', timedOut: true },
      programOutput,
      NOTICES.wallLimit,
    );
  }
  if (result.exit >= 0) {
    return verdict({ ...ran, exitCode: result.exit, signal: null, timedOut: false }, programOutput);
  }
  if (output.isFull) {
    return verdict({ ...ran, exitCode: null, signal: 'SIGKILL', timedOut: false }, programOutput);
  }
  // killed by a signal: the program's own (reported), or its supervisor's (the program
  // killed its reporter, e.g. kill(-1, SIGKILL), and the sandbox went down with it)
  const signal =
    result.signal > 0 ? result.signal : result.status > 128 ? result.status - 128 : SIGKILL;
  const name = signalName(signal);
  return verdict(
    { ...ran, exitCode: null, signal: name, timedOut: false },
    programOutput,
    NOTICES.signal(name),
  );
}

/**
 * Compiles and runs one source in a fresh bubblewrap sandbox under the job's uid:
 *
 *   helper supervise (host: subreaper, CPU per run tree, wall limits, the verdict)
 *   → setpriv (uid, no caps, no new privileges)
 *   → bwrap (new user/pid/net/ipc/uts namespaces, seccomp filter, read-only /usr, private /tmp)
 *   → sh: prlimit g++ …; prlimit helper report ./prog
 *
 * Output beyond the limit ends the run at once. Resolves with what the user sees; rejects with
 * SandboxFailure only when the sandbox itself could not run.
 */
export function runInSandbox(sandbox: Sandbox, job: SandboxJob): Promise<SandboxOutcome> {
  const limits = RUN_CODE_LIMITS;
  const { tools } = sandbox;
  const compileWallSeconds = sandbox.compileWallSeconds ?? limits.compileWallSeconds;
  const totalSeconds = compileWallSeconds + limits.runWallSeconds + 2;
  const seccompFd = sandbox.seccompPath ? SECCOMP_FD : undefined;
  const args = [
    'supervise',
    String(limits.compileSeconds * 1000),
    String(compileWallSeconds * 1000),
    String(limits.runCpuSeconds * 1000),
    String(limits.runWallSeconds * 1000),
    tools.setpriv,
    `--reuid=${job.uid}`,
    `--regid=${job.uid}`,
    '--clear-groups',
    '--no-new-privs',
    '--bounding-set=-all',
    tools.bwrap,
    ...bwrapArgs(sandbox, job, { seccomp: seccompFd }),
    'sh',
    '-c',
    sandboxScript(sandbox),
    'sh',
    job.standard,
    job.optimization,
    job.pchDir ? `${SANDBOX_PCH_DIR}/pch.h` : '',
  ];
  return new Promise((resolve, reject) => {
    let filter: Buffer | undefined;
    try {
      filter = sandbox.seccompPath ? seccompFilter(sandbox.seccompPath) : undefined;
    } catch (error) {
      reject(new SandboxFailure(`The seccomp filter cannot be read: ${String(error)}`));
      return;
    }
    const child = spawn(sandbox.helperPath, args, {
      // 0 source, 1 output, 2 helper's verdict, 3 -, 4 stdin, 5 seccomp, 6 compiler
      stdio: ['pipe', 'pipe', 'pipe', 'ignore', 'pipe', 'pipe', 'pipe'],
      env: { PATH: '/usr/bin:/bin' },
    });
    let stderr = '';
    let isStopping = false;
    let killTimer: NodeJS.Timeout | undefined;

    // ask the helper to end the sandbox (it reports and reaps); force it if need be
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
    const output = collector(limits.outputBytes, stop);
    const compiler = collector(limits.outputBytes, stop);

    const feed = (fd: number, data: string | Uint8Array) => {
      const stream = (child.stdio as unknown as Array<NodeJS.WritableStream | null>)[fd];
      if (stream && 'write' in stream) {
        stream.on('error', () => {
          // the sandbox ended before reading it: its verdict says why
        });
        stream.end(data);
      }
    };
    feed(0, job.source);
    feed(STDIN_FD, job.stdin);
    feed(SECCOMP_FD, filter ?? '');
    child.stdout?.on('data', (chunk: Buffer) => output.push(chunk));
    const compilerStream = (child.stdio as unknown as Array<NodeJS.ReadableStream | null>)[
      COMPILER_FD
    ];
    compilerStream?.on('data', (chunk: Buffer) => compiler.push(chunk));
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      stderr = (stderr + text).slice(-16_384);
    });
    child.on('error', (error) => {
      clearTimeout(guard);
      reject(new SandboxFailure(`The sandbox could not start: ${error.message}`));
    });
    child.on('close', () => {
      clearTimeout(guard);
      if (killTimer) {
        clearTimeout(killTimer);
      }
      const result = parseResult(stderr);
      const compilerOutput = compiler.text();
      const finish = (outcome: Outcome, text: string, notice?: string) => {
        let shown = text;
        const truncated = output.isFull || (!outcome.compiled && compiler.isFull);
        if (truncated) {
          shown = withNotice(shown, NOTICES.truncated);
        }
        if (notice) {
          shown = withNotice(shown, notice);
        }
        resolve({
          ...outcome,
          output: shown,
          compilerOutput,
          truncated,
          cpuMs: result?.cpuMs ?? 0,
          compileCpuMs: result?.compileCpuMs ?? 0,
        });
      };
      const verdict = verdictOf(
        result,
        stderr,
        output,
        compiler.isFull,
        compilerOutput,
        compileWallSeconds,
      );
      if ('failure' in verdict) {
        reject(new SandboxFailure(verdict.failure));
        return;
      }
      finish(verdict.outcome, verdict.text, verdict.notice);
    });
  });
}
