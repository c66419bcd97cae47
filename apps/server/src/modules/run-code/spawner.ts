/**
 * The run-code spawner: a small child process that starts every sandbox and host command.
 *
 * Starting a process from Node forks the whole parent (libuv uses fork on Linux), and a fork
 * copies the page tables: measured here, ~9 ms from a 48 MB process and ~100 ms from a 360 MB
 * one, with the event loop blocked all that time. The server (PGlite, caches) is the large one,
 * so it forks once, this process, and sends it jobs over IPC; the forks happen here.
 *
 * Run as a script, this file is that child; imported, it gives the server a client for it.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';

import {
  type Captured,
  runHostCommand,
  runInSandbox,
  type Sandbox,
  SandboxFailure,
  type SandboxJob,
  type SandboxOutcome,
} from './sandbox.js';

type SpawnerRequest =
  | { id: number; kind: 'sandbox'; sandbox: Sandbox; job: SandboxJob }
  | {
      id: number;
      kind: 'host';
      file: string;
      args: string[];
      options: { timeoutMs: number; cwd?: string };
    };

type SpawnerReply =
  | { id: number; ok: true; result: SandboxOutcome | Captured }
  | { id: number; ok: false; message: string; isSandboxFailure: boolean };

/** Starts sandboxes and host commands; the server's one way to create processes for run-code. */
export interface ProcessLauncher {
  sandbox(sandbox: Sandbox, job: SandboxJob): Promise<SandboxOutcome>;
  host(
    file: string,
    args: string[],
    options: { timeoutMs: number; cwd?: string },
  ): Promise<Captured>;
  close(): void;
}

/** The same operations in this process (the spawner itself, and tools that fork nothing else). */
export const inProcessLauncher: ProcessLauncher = {
  sandbox: runInSandbox,
  host: runHostCommand,
  close: () => undefined,
};

function spawnerEntry(): { file: string; execArgv: string[] } {
  // from source (tsx, vitest) the spawner is this .ts file; in the bundle, its own entry in dist/
  const isSource = import.meta.url.endsWith('.ts');
  return isSource
    ? { file: fileURLToPath(import.meta.url), execArgv: ['--import', 'tsx'] }
    : { file: fileURLToPath(new URL('./run-code-spawner.js', import.meta.url)), execArgv: [] };
}

/** A client for the spawner child, started on first use and again if it ever exits. */
export function createSpawnerLauncher(): ProcessLauncher {
  let child: ChildProcess | undefined;
  let nextId = 1;
  const pending = new Map<
    number,
    { resolve: (value: SandboxOutcome | Captured) => void; reject: (error: Error) => void }
  >();

  const failAll = (message: string) => {
    for (const { reject } of pending.values()) {
      reject(new SandboxFailure(message));
    }
    pending.clear();
  };

  /** The IPC channel keeps the process alive exactly while an answer is awaited. */
  function holdWhilePending(spawner: ChildProcess) {
    if (pending.size > 0) {
      spawner.channel?.ref();
    } else {
      spawner.channel?.unref();
    }
  }

  function ensureChild(): ChildProcess {
    if (child?.connected) {
      return child;
    }
    const entry = spawnerEntry();
    const started = fork(entry.file, ['--run-code-spawner'], {
      execArgv: entry.execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    started.on('message', (reply: SpawnerReply) => {
      const waiter = pending.get(reply.id);
      if (!waiter) {
        return;
      }
      pending.delete(reply.id);
      if (reply.ok) {
        waiter.resolve(reply.result);
      } else {
        waiter.reject(
          reply.isSandboxFailure ? new SandboxFailure(reply.message) : new Error(reply.message),
        );
      }
    });
    started.on('exit', (code, signal) => {
      if (child === started) {
        child = undefined;
      }
      failAll(`the run-code spawner exited (${signal ?? String(code)})`);
    });
    started.on('error', (error) => failAll(`the run-code spawner failed: ${error.message}`));
    // only a pending job keeps the server's process alive (see holdWhilePending)
    started.unref();
    started.channel?.unref();
    child = started;
    return started;
  }

  function call<T extends SandboxOutcome | Captured>(
    request:
      | Omit<Extract<SpawnerRequest, { kind: 'sandbox' }>, 'id'>
      | Omit<Extract<SpawnerRequest, { kind: 'host' }>, 'id'>,
  ): Promise<T> {
    const id = nextId++;
    const spawner = ensureChild();
    const settled = new Promise<T>((resolve, reject) => {
      pending.set(id, { resolve: resolve as (value: SandboxOutcome | Captured) => void, reject });
      spawner.send({ ...request, id } satisfies SpawnerRequest);
    });
    holdWhilePending(spawner);
    return settled.finally(() => holdWhilePending(spawner));
  }

  return {
    sandbox: (sandbox, job) => call<SandboxOutcome>({ kind: 'sandbox', sandbox, job }),
    host: (file, args, options) => call<Captured>({ kind: 'host', file, args, options }),
    close() {
      child?.disconnect();
      child = undefined;
    },
  };
}

async function serveRequest(request: SpawnerRequest): Promise<SpawnerReply> {
  try {
    const result =
      request.kind === 'sandbox'
        ? await runInSandbox(request.sandbox, request.job)
        : await runHostCommand(request.file, request.args, request.options);
    return { id: request.id, ok: true, result };
  } catch (error) {
    return {
      id: request.id,
      ok: false,
      message: error instanceof Error ? error.message : String(error),
      isSandboxFailure: error instanceof SandboxFailure,
    };
  }
}

if (process.argv.includes('--run-code-spawner') && process.send) {
  process.on('message', (request: SpawnerRequest) => {
    void serveRequest(request).then((reply) => process.send?.(reply));
  });
  // the server went away: so do we (running sandboxes die with their helper's parent)
  process.on('disconnect', () => process.exit(0));
}
