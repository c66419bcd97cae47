/**
 * Caps the linear memory a WebAssembly module may grow to, by rewriting the maximum of each
 * memory its memory section defines (the module is otherwise untouched).
 *
 * A worker thread's `resourceLimits` bound its JavaScript heap only: a WebAssembly memory is
 * allocated outside it (checked: a worker limited to 64 MB of heap grew a memory to 4 GB), and
 * Clang's module declares the 4 GB most. With the maximum lowered, a compile that needs more
 * sees its allocations fail inside the compiler, as g++ does under the native backend's
 * address-space limit, and nothing outside the worker is touched.
 */

const PAGE_BYTES = 65_536;
const MEMORY_SECTION = 5;
const HAS_MAXIMUM = 0x01;
const IS_64_BIT = 0x04;

function readLeb(bytes: Uint8Array, start: number): { value: number; next: number } {
  let value = 0;
  let shift = 0;
  let at = start;
  for (;;) {
    const byte = bytes[at];
    if (byte === undefined || shift > 35) {
      throw new Error('malformed WebAssembly module (LEB128 past the end)');
    }
    at++;
    value += (byte & 0x7f) * 2 ** shift;
    shift += 7;
    if ((byte & 0x80) === 0) {
      return { value, next: at };
    }
  }
}

function writeLeb(value: number): number[] {
  const out: number[] = [];
  let rest = value;
  do {
    const byte = rest % 128;
    rest = Math.floor(rest / 128);
    out.push(rest > 0 ? byte | 0x80 : byte);
  } while (rest > 0);
  return out;
}

/**
 * `module` with every memory it defines capped at `maxBytes` (rounded down to whole pages, and
 * never below a memory's own minimum). Memories it imports are the embedder's to size.
 */
export function capModuleMemory(module: Uint8Array, maxBytes: number): Uint8Array {
  const capPages = Math.max(1, Math.floor(maxBytes / PAGE_BYTES));
  let at = 8; // magic and version
  while (at < module.length) {
    const id = module[at];
    const size = readLeb(module, at + 1);
    const contentStart = size.next;
    const contentEnd = contentStart + size.value;
    if (id !== MEMORY_SECTION) {
      at = contentEnd;
      continue;
    }
    const count = readLeb(module, contentStart);
    const content = [...writeLeb(count.value)];
    let cursor = count.next;
    for (let memory = 0; memory < count.value; memory++) {
      const flags = module[cursor] ?? 0;
      if ((flags & IS_64_BIT) !== 0) {
        throw new Error('64-bit memories are not capped here');
      }
      const minimum = readLeb(module, cursor + 1);
      let maximum = capPages;
      cursor = minimum.next;
      if ((flags & HAS_MAXIMUM) !== 0) {
        const declared = readLeb(module, cursor);
        maximum = Math.min(declared.value, capPages);
        cursor = declared.next;
      }
      maximum = Math.max(maximum, minimum.value);
      content.push(flags | HAS_MAXIMUM, ...writeLeb(minimum.value), ...writeLeb(maximum));
    }
    // anything after the memories in the section (there is nothing in a valid module) is kept
    content.push(...module.subarray(cursor, contentEnd));
    const section = Uint8Array.from([MEMORY_SECTION, ...writeLeb(content.length), ...content]);
    const capped = new Uint8Array(at + section.length + (module.length - contentEnd));
    capped.set(module.subarray(0, at), 0);
    capped.set(section, at);
    capped.set(module.subarray(contentEnd), at + section.length);
    return capped;
  }
  return module;
}

/** The part of the WebAssembly API used here (the server's TypeScript has no DOM library). */
interface WasmCompileApi {
  compile(bytes: ArrayBuffer | ArrayBufferView): Promise<object>;
  compileStreaming?: (source: Response | PromiseLike<Response>) => Promise<object>;
  RuntimeError: abstract new (...args: never[]) => Error;
}
export const Wasm = (globalThis as unknown as { WebAssembly: WasmCompileApi }).WebAssembly;

/**
 * Makes every module this thread compiles (WebAssembly.compile, and compileStreaming, which
 * @yowasp/clang uses to load Clang) have its memory capped at `maxBytes`. For a worker thread
 * that only runs the compiler.
 */
export function capCompiledMemory(maxBytes: number): void {
  const compile = Wasm.compile.bind(Wasm);
  const capped = (source: ArrayBuffer | ArrayBufferView) =>
    compile(
      capModuleMemory(
        ArrayBuffer.isView(source)
          ? new Uint8Array(source.buffer, source.byteOffset, source.byteLength)
          : new Uint8Array(source),
        maxBytes,
      ),
    );
  Wasm.compile = capped;
  // the bytes are read whole first: the module is rewritten before it is compiled
  Wasm.compileStreaming = async (source) => capped(await (await source).arrayBuffer());
}
