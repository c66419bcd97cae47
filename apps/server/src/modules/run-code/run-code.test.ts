import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ApiError, RUN_CODE_MAX_SOURCE_BYTES } from '@portfolio/types';

import { startTestApp, type TestApp } from '../../test/harness.js';
import { createCodeRunner } from './runner.js';
import {
  HELLO,
  TEST_DATA_DIR,
  TEST_RUN_DIR,
  fresh,
  postCode,
  startRunnerApp,
} from './test-support.js';

let app: TestApp;

beforeAll(async () => {
  ({ app } = await startRunnerApp());
}, 120_000);

afterAll(async () => {
  await app.stop();
});

const run = (code: string) => postCode(app, code);

describe('POST /run-code', () => {
  it('compiles and runs hello world', async () => {
    const response = await run(fresh(HELLO));
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      output: 'Hello, World!\n',
      exitCode: 0,
      timedOut: false,
      truncated: false,
    });
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('returns the program exit code and its standard error with its output', async () => {
    const response = await run(
      fresh(`#include <cstdio>
int main() { std::printf("out\\n"); std::fflush(stdout); std::fprintf(stderr, "err\\n"); return 7; }`),
    );
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ output: 'out\nerr\n', exitCode: 7, timedOut: false });
  });

  it('returns compiler errors as output, with no exit code', async () => {
    const response = await run(fresh('int main() { return undefined_name; }'));
    expect(response.status).toBe(200);
    expect(response.body.exitCode).toBeNull();
    expect(response.body.timedOut).toBe(false);
    expect(response.body.output).toMatch(
      /main\.cpp:1:\d+: error: .undefined_name. was not declared/,
    );
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
    expect(withHeader.body).toEqual({
      output: 'string_view yes\n',
      exitCode: 3,
      timedOut: false,
      truncated: false,
    });
    expect(withoutHeader.body).toEqual(withHeader.body);
  });

  it('does not make headers visible that the source did not include', async () => {
    // std::vector needs <vector>: with only <iostream> included, a real compiler refuses this
    const response = await run(
      fresh('#include <iostream>\nint main() { std::vector<int> v{1}; return v[0]; }'),
    );
    expect(response.body.exitCode).toBeNull();
    expect(response.body.output).toMatch(/error: .vector. is not a member of .std./);
  });

  it('answers an identical source from the cache', async () => {
    // address space layout randomisation gives each real run a new address; a cached answer
    // repeats the first one
    const source = fresh(`#include <iostream>
int main() { int local = 0; std::cout << static_cast<void*>(&local) << std::endl; }`);
    const first = await run(source);
    const second = await run(source);
    expect(first.status).toBe(200);
    expect(first.body.exitCode).toBe(0);
    expect(first.body.output).toMatch(/^0x[0-9a-f]+\n$/);
    expect(second.body).toEqual(first.body);
    const different = await run(`${source}\n`);
    expect(different.body.output).toMatch(/^0x[0-9a-f]+\n$/);
    expect(different.body.output).not.toBe(first.body.output);
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

describe('POST /run-code without a working sandbox', () => {
  let unavailable: TestApp;
  beforeAll(async () => {
    unavailable = await startTestApp(
      { dataDir: TEST_DATA_DIR },
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
    for (let attempt = 0; attempt < 2; attempt++) {
      const response = await client.post<ApiError>('/run-code', { code: HELLO });
      expect(response.status).toBe(503);
      expect(response.body.error).toEqual({
        code: 'RUNNER_UNAVAILABLE',
        message:
          'Running code is not available on this server: bubblewrap (bwrap) is not installed.',
      });
    }
    const limited = await client.post<ApiError>('/run-code', { code: HELLO });
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
