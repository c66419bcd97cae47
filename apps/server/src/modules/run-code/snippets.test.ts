import { randomBytes } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type ApiError, RUN_CODE_MAX_SOURCE_BYTES, Snippet } from '@portfolio/types';

import { startTestApp, type TestApp } from '../../test/harness.js';
import { newAddress } from './test-support.js';

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp(
    { trustProxy: 'loopback' },
    { snippetShareLimit: { limit: 3, windowMs: 60_000 } },
  );
});

afterAll(async () => {
  await app.stop();
});

const uniqueCode = () =>
  `#include <iostream>\nint main() { std::cout << "${randomBytes(6).toString('hex')}"; }\n`;

const share = (body: unknown, headers: Record<string, string> = newAddress()) =>
  app.client().post<Snippet & ApiError>('/api/snippets', body, headers);

describe('POST /api/snippets', () => {
  it('stores a snippet under an id made from its content: 201, then 200 with the same id', async () => {
    const code = uniqueCode();
    const first = await share({ code, stdin: '1 2', standard: 'c++20', optimization: 'O1' });
    expect(first.status).toBe(201);
    const snippet = Snippet.parse(first.body);
    expect(snippet).toMatchObject({ code, stdin: '1 2', standard: 'c++20', optimization: 'O1' });
    expect(snippet.id).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(snippet.url).toBe(`/Tutorials?snippet=${snippet.id}`);
    const again = await share({ code, stdin: '1 2', standard: 'c++20', optimization: 'O1' });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    // Windows line endings and a missing final newline are the same snippet
    const crlf = await share({
      code: code.trimEnd().replace(/\n/g, '\r\n'),
      stdin: '1 2',
      standard: 'c++20',
      optimization: 'O1',
    });
    expect(crlf.status).toBe(200);
    expect(crlf.body.id).toBe(snippet.id);
  });

  it('gives different content a different id, and fills in the defaults', async () => {
    const code = uniqueCode();
    const plain = await share({ code });
    expect(plain.status).toBe(201);
    expect(plain.body).toMatchObject({ stdin: '', standard: 'c++17', optimization: 'O2' });
    const otherInput = await share({ code, stdin: 'x' });
    const otherStandard = await share({ code, standard: 'c++23' });
    expect(new Set([plain.body.id, otherInput.body.id, otherStandard.body.id]).size).toBe(3);
  });

  it('refuses bad bodies with 400, big ones with 413 and cross-site posts with 403', async () => {
    const missing = await share({});
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toMatch(/^code: /);
    const badStandard = await share({ code: 'int main(){}', standard: 'gnu++17' });
    expect(badStandard.status).toBe(400);
    expect(badStandard.body.error.message).toMatch(/^standard: must be one of/);
    const big = await share({ code: `//${'x'.repeat(RUN_CODE_MAX_SOURCE_BYTES)}` });
    expect(big.status).toBe(413);
    expect(big.body.error.message).toBe('The source code is too large: the limit is 64 KB.');
    const bigInput = await share({ code: 'int main(){}', stdin: 'y'.repeat(64 * 1024 + 1) });
    expect(bigInput.status).toBe(413);
    expect(bigInput.body.error.message).toBe(
      'The standard input is too large: the limit is 64 KB.',
    );
    const crossSite = await share(
      { code: uniqueCode() },
      { origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    );
    expect(crossSite.status).toBe(403);
  });

  it('limits shares per address with 429 and Retry-After', async () => {
    const address = newAddress();
    for (let index = 0; index < 3; index++) {
      expect((await share({ code: uniqueCode() }, address)).status).toBe(201);
    }
    const limited = await share({ code: uniqueCode() }, address);
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('RATE_LIMITED');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // another address is not affected
    expect((await share({ code: uniqueCode() })).status).toBe(201);
  });
});

describe('GET /api/snippets/:id', () => {
  it('answers a stored snippet, 404 for an unknown id and 400 for a malformed one', async () => {
    const created = await share({ code: uniqueCode(), stdin: 'input' });
    const client = app.client();
    const found = await client.get<Snippet>(`/api/snippets/${created.body.id}`);
    expect(found.status).toBe(200);
    expect(found.body).toEqual(created.body);
    const unknown = await client.get<ApiError>('/api/snippets/AAAAAAAAAAAA');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    const malformed = await client.get<ApiError>('/api/snippets/not*an*id');
    expect(malformed.status).toBe(400);
    expect(malformed.body.error.message).toBe('must be a snippet id');
  });
});
