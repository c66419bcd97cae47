import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { signedInClient, startTestApp, type TestApp } from '../../test/harness.js';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.stop();
});

const visitorId = 'fastpath_visitor_0123456789';

describe('heartbeats served in front of Express keep the rules of every other call', () => {
  it('answers ok with no-store and nosniff, and ignores a query string', async () => {
    const response = await app
      .client()
      .post('/api/anonymous-heartbeat?x=1', { currentPage: '/games', visitorId });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ ok: true });
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('refuses other sites and non-JSON bodies like the Express guard', async () => {
    const client = app.client();
    const foreign = await client.post(
      '/api/anonymous-heartbeat',
      { currentPage: '/' },
      { origin: 'https://evil.example' },
    );
    expect(foreign.status).toBe(403);
    expect(foreign.body).toMatchObject({ error: { code: 'FORBIDDEN' } });
    const crossSite = await client.post(
      '/api/anonymous-heartbeat',
      { currentPage: '/' },
      { 'sec-fetch-site': 'cross-site' },
    );
    expect(crossSite.status).toBe(403);
    const form = await client.request('POST', '/api/anonymous-heartbeat', 'currentPage=/', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(415);
    const sameOrigin = await client.post(
      '/api/anonymous-heartbeat',
      { currentPage: '/', visitorId },
      { origin: app.url },
    );
    expect(sameOrigin.status).toBe(200);
  });

  it('answers bad input with a 4xx and a readable message, never a 500', async () => {
    const client = app.client();
    const malformed = await client.request('POST', '/api/anonymous-heartbeat', '{"currentPage":');
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ error: { message: 'Request body is not valid JSON' } });
    const invalid = await client.post('/api/anonymous-heartbeat', { currentPage: 'no-slash' });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({
      error: { message: 'currentPage: must be a path starting with /' },
    });
    const huge = await client.post('/api/anonymous-heartbeat', {
      currentPage: '/',
      pad: 'x'.repeat(10_000),
    });
    expect(huge.status).toBe(413);
  });

  it('needs a live session for the signed-in heartbeat and clears a stale cookie', async () => {
    const guest = app.client();
    expect((await guest.post('/api/auth/heartbeat', { currentPage: '/' })).status).toBe(401);

    const stale = await guest.request(
      'POST',
      '/api/auth/heartbeat',
      { currentPage: '/' },
      { cookie: 'sid=not-a-session' },
    );
    expect(stale.status).toBe(401);
    expect(stale.headers.get('set-cookie')).toMatch(/^sid=;.*Expires=Thu, 01 Jan 1970/i);

    const { client, username } = await signedInClient(app);
    const ok = await client.post('/api/auth/heartbeat', { currentPage: '/profile' });
    expect(ok.status).toBe(200);
    const admin = await signedInClient(app, 'admin');
    const active = await admin.client.get<{
      authenticated: Array<{ username: string; current_page: string }>;
    }>('/api/active-users');
    expect(active.body.authenticated).toContainEqual(
      expect.objectContaining({ username, current_page: '/profile' }),
    );
  });

  it('leaves other methods on the heartbeat paths to Express', async () => {
    const response = await app.client().get('/api/auth/heartbeat');
    expect(response.status).toBe(404);
    expect(response.body).toMatchObject({ error: { code: 'NOT_FOUND' } });
  });
});
