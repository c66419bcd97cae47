/**
 * Runs one compiled WASI program in this worker thread: no preopened folders (so no files), no
 * sockets, the memory the program was linked with (capped), standard input from a buffer and
 * output into a shared buffer up to the limit. Time limits are the parent's: it ends this worker.
 */
import { WASI } from 'node:wasi';
import { parentPort } from 'node:worker_threads';

import {
  currentThreadId,
  OUTPUT_HEADER_BYTES,
  STOP_INDEX,
  type RunWorkerData,
  type RunWorkerMessage,
} from './wasm-protocol.js';

/** The part of the WebAssembly API used here (the server's TypeScript has no DOM library). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
interface WasmInstance {
  readonly exports: Record<string, unknown>;
}
interface WasmApi {
  compile(bytes: Uint8Array): Promise<object>;
  instantiate(module: object, imports: Record<string, object>): Promise<WasmInstance>;
  Memory: abstract new (...args: never[]) => WasmMemory;
  RuntimeError: abstract new (...args: never[]) => Error;
}
const Wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

const ERRNO_SUCCESS = 0;
const ERRNO_BADF = 8;

class OutputLimitReached extends Error {}
/** The parent asked this worker to stop while the program slept. */
class Stopped extends Error {}

const EVENTTYPE_CLOCK = 0;
const EVENTTYPE_FD_READ = 1;
const SUBSCRIPTION_BYTES = 48;
const EVENT_BYTES = 32;
const SUBCLOCKFLAG_ABSOLUTE = 1;
const CLOCK_REALTIME = 0;

function post(message: RunWorkerMessage) {
  parentPort?.postMessage(message);
}

/** How a trap would have ended a native program. */
function trapSignal(message: string): string {
  if (/unreachable/i.test(message)) {
    return 'SIGABRT';
  }
  if (/divide by zero|integer overflow|remainder by zero/i.test(message)) {
    return 'SIGFPE';
  }
  return 'SIGSEGV';
}

/**
 * The program arrives in the first message: a run worker is started ahead of its run (its start-up
 * is the slow part) and each one runs a single program, then ends.
 */
function nextProgram(): Promise<RunWorkerData> {
  return new Promise((resolve) => parentPort?.once('message', resolve));
}

/**
 * Sleeping (clock subscriptions) waits on the shared buffer, so the parent can wake this
 * thread to end it: a sleep in the host's poll could not be interrupted. Standard input and
 * output are always ready; other descriptors do not exist.
 */
function pollOneoff(
  memoryView: DataView,
  header: Int32Array,
  subscriptions: number,
  events: number,
  count: number,
  neventsPointer: number,
): number {
  let timeoutMs = Number.POSITIVE_INFINITY;
  let clockUserdata: bigint | undefined;
  let written = 0;
  const writeEvent = (userdata: bigint, type: number, error: number) => {
    const at = events + written * EVENT_BYTES;
    new Uint8Array(memoryView.buffer, at, EVENT_BYTES).fill(0);
    memoryView.setBigUint64(at, userdata, true);
    memoryView.setUint16(at + 8, error, true);
    memoryView.setUint8(at + 10, type);
    written += 1;
  };
  for (let index = 0; index < count; index++) {
    const at = subscriptions + index * SUBSCRIPTION_BYTES;
    const userdata = memoryView.getBigUint64(at, true);
    const type = memoryView.getUint8(at + 8);
    if (type === EVENTTYPE_CLOCK) {
      const clock = memoryView.getUint32(at + 16, true);
      const timeout = Number(memoryView.getBigUint64(at + 24, true)) / 1e6;
      const flags = memoryView.getUint16(at + 40, true);
      const now = clock === CLOCK_REALTIME ? Date.now() : performance.now();
      const relative = flags & SUBCLOCKFLAG_ABSOLUTE ? timeout - now : timeout;
      if (relative < timeoutMs) {
        timeoutMs = Math.max(0, relative);
        clockUserdata = userdata;
      }
    } else {
      const fd = memoryView.getUint32(at + 16, true);
      const isReady = type === EVENTTYPE_FD_READ ? fd === 0 : fd === 1 || fd === 2;
      writeEvent(userdata, type, isReady ? ERRNO_SUCCESS : ERRNO_BADF);
    }
  }
  if (written === 0 && clockUserdata !== undefined) {
    if (Atomics.wait(header, STOP_INDEX, 0, timeoutMs) !== 'timed-out') {
      throw new Stopped();
    }
    writeEvent(clockUserdata, EVENTTYPE_CLOCK, ERRNO_SUCCESS);
  }
  memoryView.setUint32(neventsPointer, written, true);
  return ERRNO_SUCCESS;
}

async function main() {
  const data = await nextProgram();
  const header = new Int32Array(data.shared, 0, OUTPUT_HEADER_BYTES / 4);
  const output = new Uint8Array(data.shared, OUTPUT_HEADER_BYTES, data.outputLimit);
  const tid = (await currentThreadId()) || -1;
  const module = await Wasm.compile(data.program);

  // WASI's own descriptors 0-2 are the null device (the parent's, never closed); reads and
  // writes of them are ours
  const nullFd = data.nullFd;
  const wasi = new WASI({
    version: 'preview1',
    args: ['prog'],
    env: { LANG: 'C.UTF-8', HOME: '/' },
    preopens: {},
    stdin: nullFd,
    stdout: nullFd,
    stderr: nullFd,
    returnOnExit: true,
  });
  let memory: WasmMemory | undefined;
  let stdinOffset = 0;
  const view = () => new DataView((memory as WasmMemory).buffer);
  const base = wasi.wasiImport as Record<string, (...args: number[]) => number>;

  const iovecs = (pointer: number, count: number) => {
    const memoryView = view();
    return Array.from({ length: count }, (_, index) => ({
      buffer: memoryView.getUint32(pointer + index * 8, true),
      length: memoryView.getUint32(pointer + index * 8 + 4, true),
    }));
  };

  const imports = {
    ...base,
    fd_read(fd: number, iovs: number, count: number, nread: number): number {
      if (fd !== 0) {
        return base.fd_read?.(fd, iovs, count, nread) ?? ERRNO_BADF;
      }
      let total = 0;
      const bytes = new Uint8Array((memory as WasmMemory).buffer);
      for (const iovec of iovecs(iovs, count)) {
        const chunk = data.stdin.subarray(stdinOffset, stdinOffset + iovec.length);
        bytes.set(chunk, iovec.buffer);
        stdinOffset += chunk.length;
        total += chunk.length;
        if (chunk.length < iovec.length) {
          break;
        }
      }
      view().setUint32(nread, total, true);
      return ERRNO_SUCCESS;
    },
    fd_write(fd: number, iovs: number, count: number, nwritten: number): number {
      if (fd !== 1 && fd !== 2) {
        return base.fd_write?.(fd, iovs, count, nwritten) ?? ERRNO_BADF;
      }
      let total = 0;
      const bytes = new Uint8Array((memory as WasmMemory).buffer);
      for (const iovec of iovecs(iovs, count)) {
        const written = Atomics.load(header, 0);
        const room = data.outputLimit - written;
        const chunk = bytes.subarray(iovec.buffer, iovec.buffer + iovec.length);
        if (chunk.length > room) {
          output.set(chunk.subarray(0, room), written);
          Atomics.store(header, 0, data.outputLimit);
          Atomics.store(header, 2, 1);
          throw new OutputLimitReached();
        }
        output.set(chunk, written);
        Atomics.store(header, 0, written + chunk.length);
        total += chunk.length;
      }
      view().setUint32(nwritten, total, true);
      return ERRNO_SUCCESS;
    },
    // the program cannot close or replace the descriptors behind 0-2 (they are the server's)
    fd_close(fd: number): number {
      return fd <= 2 ? ERRNO_SUCCESS : (base.fd_close?.(fd) ?? ERRNO_BADF);
    },
    fd_renumber(): number {
      return ERRNO_BADF;
    },
    poll_oneoff(subscriptions: number, events: number, count: number, neventsPointer: number) {
      return pollOneoff(view(), header, subscriptions, events, count, neventsPointer);
    },
  };

  try {
    const instance = await Wasm.instantiate(module, { wasi_snapshot_preview1: imports });
    const exported = instance.exports.memory;
    if (!(exported instanceof Wasm.Memory)) {
      post({ type: 'failed', message: 'the program exports no memory' });
      return;
    }
    memory = exported;
    // the parent's clocks start now (the worker's own start-up is not the program's time)
    Atomics.store(header, 1, tid);
    const startedAt = performance.now();
    const code = wasi.start(instance);
    post({ type: 'exit', code, durationMs: performance.now() - startedAt });
  } catch (error) {
    if (error instanceof Stopped) {
      return;
    }
    if (error instanceof OutputLimitReached) {
      post({ type: 'truncated' });
    } else if (error instanceof Wasm.RuntimeError || error instanceof RangeError) {
      post({ type: 'trap', signal: trapSignal(error.message), message: error.message });
    } else {
      post({ type: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  }
}

void main().catch((error: unknown) =>
  post({ type: 'failed', message: error instanceof Error ? error.message : String(error) }),
);
