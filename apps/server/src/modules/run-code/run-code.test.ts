import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  type ApiError,
  RUN_CODE_MAX_SOURCE_BYTES,
  RUN_CODE_MAX_STDIN_BYTES,
  RunCodeInfo,
  RunCodeResponse,
} from '@portfolio/types';

import { startTestApp, type TestApp } from '../../test/harness.js';
import { scaled } from '../../test/slow-machine.js';
import { createCodeRunner } from './runner.js';
import {
  fresh,
  HELLO,
  newAddress,
  postCode,
  startRunnerApp,
  TEST_BACKENDS,
  TEST_DATA_DIR,
  TEST_RUN_DIR,
} from './test-support.js';

// a WebAssembly compile on a busy machine takes seconds: its tests get more time
describe.each(TEST_BACKENDS)('on the %s backend', { timeout: scaled(120_000) }, (backend) => {
  const isNative = backend === 'native';
  let app: TestApp;

  beforeAll(async () => {
    ({ app } = await startRunnerApp({ backend }));
  }, scaled(300_000));

  afterAll(async () => {
    await app.stop();
  });

  const run = (code: string, extra = {}) => postCode(app, code, extra);

  describe('POST /run-code', () => {
    it('compiles and runs hello world, and says how', async () => {
      const response = await run(fresh(HELLO));
      expect(response.status).toBe(200);
      expect(RunCodeResponse.parse(response.body)).toMatchObject({
        output: 'Hello, World!\n',
        exitCode: 0,
        signal: null,
        timedOut: false,
        truncated: false,
        compiled: true,
        diagnostics: [],
        cached: false,
        backend,
      });
      expect(response.body.durationMs).toBeGreaterThanOrEqual(0);
      expect(response.headers.get('cache-control')).toBe('no-store');
    });

    it('gives the program its standard input', async () => {
      const response = await run(
        fresh(`#include <iostream>
  #include <string>
  int main() { std::string name; int total = 0, n;
    std::getline(std::cin, name);
    while (std::cin >> n) total += n;
    std::cout << "Hello " << name << ", total " << total << std::endl; }`),
        { stdin: 'Ada Lovelace\n1 2 3\n4\n' },
      );
      expect(response.body).toMatchObject({
        output: 'Hello Ada Lovelace, total 10\n',
        exitCode: 0,
      });
    });

    it('compiles with the standard and optimisation asked for', async () => {
      const source = fresh(`#include <cstdio>
  int main() {
  #ifdef __OPTIMIZE__
    const char *optimized = "optimized";
  #else
    const char *optimized = "not optimized";
  #endif
    std::printf("%ld %s\\n", __cplusplus, optimized);
  }`);
      const old = await run(source, { standard: 'c++11', optimization: 'O0' });
      const modern = await run(source, { standard: 'c++20', optimization: 'O2' });
      const defaults = await run(source);
      expect(old.body.output).toBe('201103 not optimized\n');
      expect(modern.body.output).toBe('202002 optimized\n');
      expect(defaults.body.output).toBe('201703 optimized\n');
      const bad = await run(HELLO, { standard: 'c++98' });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toBe(
        'standard: must be one of c++11, c++14, c++17, c++20, c++23',
      );
      const badLevel = await run(HELLO, { optimization: 'Ofast' });
      expect(badLevel.status).toBe(400);
      expect(badLevel.body.error.message).toBe('optimization: must be one of O0, O1, O2, O3, Os');
    });

    it('returns the program exit code and its standard error with its output', async () => {
      const response = await run(
        fresh(`#include <cstdio>
  int main() { std::printf("out\\n"); std::fflush(stdout); std::fprintf(stderr, "err\\n"); return 7; }`),
      );
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ output: 'out\nerr\n', exitCode: 7, timedOut: false });
    });

    it('returns compiler errors as output and as diagnostics at their line and column', async () => {
      // the é before the error is two bytes in UTF-8 but one column in an editor
      const response = await run(
        fresh('int main() {\n  const char *s = "é"; return undefined_name;\n}'),
      );
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ exitCode: null, compiled: false, timedOut: false });
      // g++ and Clang word it their own way; both point at the name's first character
      expect(response.body.output).toMatch(
        isNative
          ? /main\.cpp:2:\d+: error: .undefined_name. was not declared/
          : /main\.cpp:2:\d+:.*error: use of undeclared identifier 'undefined_name'/,
      );
      expect(response.body.diagnostics).toContainEqual(
        expect.objectContaining({
          severity: 'error',
          line: 2,
          column: 31,
          message: isNative
            ? '‘undefined_name’ was not declared in this scope'
            : "use of undeclared identifier 'undefined_name'",
        }),
      );
    });

    it('reports warnings as diagnostics while the program runs', async () => {
      const response = await run(fresh('int main() {\n  int unused = 3;\n  return 0;\n}'));
      expect(response.body).toMatchObject({ exitCode: 0, compiled: true, output: '' });
      expect(response.body.diagnostics).toEqual([
        expect.objectContaining({
          severity: 'warning',
          line: 2,
          column: 7,
          message: isNative
            ? 'unused variable ‘unused’ [-Wunused-variable]'
            : "unused variable 'unused' [-Wunused-variable]",
        }),
      ]);
    });

    // address 0 is ordinary memory to WebAssembly: its traps are in hostile.test.ts
    it.runIf(isNative)('reports a crash by its signal', async () => {
      const response = await run(fresh('int main() { volatile int *p = nullptr; return *p; }'), {
        optimization: 'O0',
      });
      expect(response.body).toMatchObject({
        output: '[Program terminated by SIGSEGV]\n',
        exitCode: null,
        signal: 'SIGSEGV',
        timedOut: false,
        compiled: true,
      });
    });

    it('gives the same result with and without the precompiled header', async () => {
      // <iostream> first: the header prebuilt in beforeAll is used; a leading comment line does
      // not change that, a leading #define does (no header), and both must behave the same
      const body = `
  #include <string>
  int main() {
  #ifdef __cpp_lib_string_view
    std::cout << "string_view " << std::string("yes") << std::endl;
  #endif
    return 3;
  }
  `;
      const withHeader = await run(fresh(`// uses the header\n#include <iostream>${body}`));
      const withoutHeader = await run(fresh(`#define UNUSED 1\n#include <iostream>${body}`));
      expect(withHeader.body).toMatchObject({ output: 'string_view yes\n', exitCode: 3 });
      expect(withoutHeader.body.output).toBe(withHeader.body.output);
      expect(withoutHeader.body.exitCode).toBe(withHeader.body.exitCode);
    });

    // precompiled headers are the native backend's (libc++'s <iostream> does include <vector>)
    it.runIf(isNative)(
      'does not make headers visible that the source did not include',
      async () => {
        // std::vector needs <vector>: with only <iostream> included, a real compiler refuses this
        const response = await run(
          fresh('#include <iostream>\nint main() { std::vector<int> v{1}; return v[0]; }'),
        );
        expect(response.body.exitCode).toBeNull();
        expect(response.body.output).toMatch(/error: .vector. is not a member of .std./);
      },
    );

    it('answers an identical request from the cache, and a different input is another run', async () => {
      // address space layout randomisation gives each real run a new address; a cached answer
      // repeats the first one
      const source = fresh(`#include <iostream>
  int main() { int local = 0; std::cout << static_cast<void*>(&local) << std::endl; }`);
      const first = await run(source);
      const second = await run(source);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ exitCode: 0, cached: false });
      expect(first.body.output).toMatch(/^0x[0-9a-f]+\n$/);
      expect(second.body).toEqual({ ...first.body, cached: true });
      for (const other of [
        await run(`${source}\n`),
        await run(source, { stdin: 'x' }),
        await run(source, { optimization: 'O1' }),
        await run(source, { standard: 'c++14' }),
      ]) {
        expect(other.body.cached).toBe(false);
        expect(other.body.output).toMatch(/^0x[0-9a-f]+\n$/);
        if (isNative) {
          // WebAssembly has no address randomisation: only native runs tell themselves apart
          expect(other.body.output).not.toBe(first.body.output);
        }
      }
    });

    it('refuses includes that reach outside the headers and the source, before compiling', async () => {
      for (const [source, column] of [
        ['#include </dev/ptmx>\nint main() {}', 10],
        ['int x;\n#  include "../../etc/passwd"\nint main() {}', 12],
        ['#define FILE </dev/tty>\n#include FILE\nint main() {}', 10],
        ['%:include </dev/random>\nint main() {}', 11],
      ] as const) {
        const response = await run(fresh(source));
        expect(response.status).toBe(200);
        expect(response.body).toMatchObject({ compiled: false, exitCode: null, durationMs: 0 });
        expect(response.body.diagnostics[0]).toMatchObject({ severity: 'error', column });
        expect(response.body.output).toMatch(
          /^main\.cpp:\d+:\d+: error: #include (of .* is not allowed|must name a <header>)/,
        );
      }
    });

    it('refuses a source over 64 KB with 413 and a clear message', async () => {
      const code = `int main() {}\n//${'x'.repeat(RUN_CODE_MAX_SOURCE_BYTES)}`;
      const response = await run(code);
      expect(response.status).toBe(413);
      expect(response.body.error).toEqual({
        code: 'PAYLOAD_TOO_LARGE',
        message: 'The source code is too large: the limit is 64 KB.',
      });
      const huge = await run(`//${'y'.repeat(2 * 1024 * 1024)}`);
      expect(huge.status).toBe(413);
      expect(huge.body.error.message).toBe('The source code is too large: the limit is 64 KB.');
    });

    it('refuses standard input over 64 KB with 413, and takes exactly 64 KB', async () => {
      const tooMuch = await run(HELLO, { stdin: 'i'.repeat(RUN_CODE_MAX_STDIN_BYTES + 1) });
      expect(tooMuch.status).toBe(413);
      expect(tooMuch.body.error).toEqual({
        code: 'PAYLOAD_TOO_LARGE',
        message: 'The standard input is too large: the limit is 64 KB.',
      });
      const exact = await run(
        fresh(`#include <iostream>
  int main() { std::size_t n = 0; char c; while (std::cin.get(c)) n++; std::cout << n << std::endl; }`),
        { stdin: 'é'.repeat(RUN_CODE_MAX_STDIN_BYTES / 2) },
      );
      expect(exact.status).toBe(200);
      expect(exact.body.output).toBe(`${RUN_CODE_MAX_STDIN_BYTES}\n`);
    });

    it('accepts a source of exactly 64 KB', async () => {
      const head = fresh('int main() { return 5; }\n');
      const code = `${head}//${'z'.repeat(RUN_CODE_MAX_SOURCE_BYTES - head.length - 2)}`;
      expect(Buffer.byteLength(code)).toBe(RUN_CODE_MAX_SOURCE_BYTES);
      const response = await run(code);
      expect(response.status).toBe(200);
      expect(response.body.exitCode).toBe(5);
    });

    it('answers a bad body with 400 and the field', async () => {
      const client = app.client();
      const missing = await client.post<ApiError>('/run-code', {});
      expect(missing.status).toBe(400);
      expect(missing.body.error.code).toBe('BAD_REQUEST');
      expect(missing.body.error.message).toMatch(/^code: /);
      const wrongType = await client.post<ApiError>('/run-code', { code: 42 });
      expect(wrongType.status).toBe(400);
      const empty = await client.post<ApiError>('/run-code', { code: '' });
      expect(empty.status).toBe(400);
      const badStdin = await client.post<ApiError>('/run-code', { code: HELLO, stdin: 5 });
      expect(badStdin.status).toBe(400);
      expect(badStdin.body.error.message).toMatch(/^stdin: /);
      const notJson = await client.post<ApiError>('/run-code', '{"code": ');
      expect(notJson.status).toBe(400);
      expect(notJson.body.error.message).toBe('Request body is not valid JSON');
    });

    it('refuses cross-site requests and non-JSON bodies like every other write', async () => {
      const client = app.client();
      const crossSite = await client.post<ApiError>(
        '/run-code',
        { code: HELLO },
        { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
      );
      expect(crossSite.status).toBe(403);
      const form = await client.request<ApiError>('POST', '/run-code', 'code=x', {
        'content-type': 'application/x-www-form-urlencoded',
      });
      expect(form.status).toBe(415);
    });
  });

  describe('GET /api/run-code/info', () => {
    it('says which backend runs and why, with the compiler, limits and choices', async () => {
      const response = await app.client().get<RunCodeInfo>('/api/run-code/info');
      expect(response.status).toBe(200);
      const info = RunCodeInfo.parse(response.body);
      expect(info).toMatchObject({
        available: true,
        backend,
        reason: `RUN_CODE_BACKEND=${backend}`,
        limits: { cpuSeconds: 2, wallSeconds: 5, memoryMb: 256, outputKb: 64, compileSeconds: 10 },
        standards: ['c++11', 'c++14', 'c++17', 'c++20', 'c++23'],
        optimizations: ['O0', 'O1', 'O2', 'O3', 'Os'],
      });
      expect(info.compiler).toMatch(isNative ? /^g\+\+ \d+\.\d+/ : /^clang \d+\.\d+.*WebAssembly/);
    });
  });
});

describe('POST /run-code without a working runner', () => {
  let unavailable: TestApp;
  beforeAll(async () => {
    // each run counts from a fresh address (the limiter may be a Redis shared between runs)
    unavailable = await startTestApp(
      { dataDir: TEST_DATA_DIR, trustProxy: 'loopback' },
      {
        codeRunner: createCodeRunner({
          dir: TEST_RUN_DIR,
          detect: () =>
            Promise.resolve({ ok: false, reason: 'bubblewrap (bwrap) is not installed.' }),
        }),
        runCodeRateLimit: { limit: 2, windowMs: 60_000 },
      },
    );
  });
  afterAll(async () => {
    await unavailable.stop();
  });

  it('answers 503 with the reason, then the per-address limit answers 429', async () => {
    const client = unavailable.client();
    const address = newAddress();
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await client.post<ApiError>('/run-code', { code: HELLO }, address);
      expect(response.status).toBe(503);
      expect(response.body.error).toEqual({
        code: 'RUNNER_UNAVAILABLE',
        message:
          'Running code is not available on this server: bubblewrap (bwrap) is not installed.',
      });
    }
    const limited = await client.post<ApiError>('/run-code', { code: HELLO }, address);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('info says the runner is unavailable and why', async () => {
    const response = await unavailable.client().get<RunCodeInfo>('/api/run-code/info');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      available: false,
      backend: null,
      reason: 'bubblewrap (bwrap) is not installed.',
    });
  });
});
