import { CurrentUser } from '@portfolio/types';
import { describe, expect, it, vi } from 'vitest';

import { HttpError, http, onSessionEnded, request } from './http';

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

  it('sends a keepalive request, which outlives the page, when asked', async () => {
    const fetchMock = vi.fn(() => Promise.resolve(new Response(null, { status: 204 })));
    vi.stubGlobal('fetch', fetchMock);

    await request('POST', '/api/games/Pong/session', { body: { action: 'end' }, keepalive: true });
    expect(fetchMock).toHaveBeenCalledWith('/api/games/Pong/session', {
      method: 'POST',
      credentials: 'same-origin',
      headers: { Accept: 'application/json', 'Content-Type': 'application/json' },
      body: '{"action":"end"}',
      keepalive: true,
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

  describe('an ended session', () => {
    it.each([
      [
        'the server says the session is missing',
        401,
        { error: { code: 'UNAUTHORIZED', message: 'x' } },
      ],
      ['a 401 comes without the API error body', 401, 'Unauthorized'],
    ])('is reported when %s', async (_case, status, body) => {
      const listener = vi.fn();
      const remove = onSessionEnded(listener);
      vi.stubGlobal('fetch', () =>
        Promise.resolve(
          typeof body === 'string' ? new Response(body, { status }) : jsonResponse(body, status),
        ),
      );
      await expect(http.post('/api/auth/heartbeat', {})).rejects.toMatchObject({ status });
      expect(listener).toHaveBeenCalledTimes(1);
      remove();
    });

    it.each([
      ['a wrong current password', 401, 'INVALID_PASSWORD'],
      ['wrong credentials at login', 401, 'INVALID_CREDENTIALS'],
      ['a missing role', 403, 'FORBIDDEN'],
      ['a server error', 500, 'INTERNAL'],
    ])('is not reported for %s', async (_case, status, code) => {
      const listener = vi.fn();
      const remove = onSessionEnded(listener);
      vi.stubGlobal('fetch', () =>
        Promise.resolve(jsonResponse({ error: { code, message: 'no' } }, status)),
      );
      await expect(http.post('/api/user/change-password', {})).rejects.toMatchObject({ code });
      expect(listener).not.toHaveBeenCalled();
      remove();
    });
  });

  it('answers the headers with the body when asked', async () => {
    vi.stubGlobal('fetch', () =>
      Promise.resolve(new Response('[]', { status: 200, headers: { 'X-Total-Count': '7' } })),
    );
    const { requestWithHeaders } = await import('./http');
    const { headers } = await requestWithHeaders('GET', '/api/users');
    expect(headers.get('X-Total-Count')).toBe('7');
  });
});
