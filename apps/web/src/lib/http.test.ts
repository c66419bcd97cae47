import { CurrentUser } from '@portfolio/types';
import { describe, expect, it, vi } from 'vitest';

import { HttpError, http } from './http';

function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

describe('http client', () => {
  it('sends JSON headers and cookies and validates the answer', async () => {
    const fetchMock = vi.fn(() =>
      Promise.resolve(jsonResponse({ id: '1', username: 'ann', role: 'user' })),
    );
    vi.stubGlobal('fetch', fetchMock);

    await expect(http.get('/api/auth/current-user', CurrentUser)).resolves.toEqual({
      id: '1',
      username: 'ann',
      role: 'user',
    });
    expect(fetchMock).toHaveBeenCalledWith('/api/auth/current-user', {
      method: 'GET',
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
    });
  });

  it("turns the server's error body into an HttpError", async () => {
    vi.stubGlobal('fetch', () =>
      Promise.resolve(
        jsonResponse(
          { error: { code: 'INVALID_CREDENTIALS', message: 'Wrong password', details: 'x' } },
          401,
        ),
      ),
    );

    const error: unknown = await http.post('/api/auth/login', {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({
      status: 401,
      code: 'INVALID_CREDENTIALS',
      message: 'Wrong password',
      serverMessage: 'Wrong password',
      details: 'x',
    });
  });

  it('keeps the status when the error body is not JSON', async () => {
    vi.stubGlobal('fetch', () => Promise.resolve(new Response('Bad gateway', { status: 502 })));

    const error: unknown = await http.post('/api/x').catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, code: 'HTTP_502', serverMessage: undefined });
  });
});
