import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ActiveUsersResponse } from '@portfolio/types';

import { startTestApp, TEST_BROWSER_AGENT, type TestApp, uniqueName } from '../../test/harness.js';
import { signedInClient } from '../../test/factories.js';
import { rowsOf } from '../../db/rows.js';

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
      { cookie: '__Host-sid=not-a-session' },
    );
    expect(stale.status).toBe(401);
    expect(stale.headers.get('set-cookie')).toMatch(/^__Host-sid=;.*Expires=Thu, 01 Jan 1970/i);

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

  it("leaves known bots' guest heartbeats out of Live Activity", async () => {
    const admin = await signedInClient(app, 'admin');
    const anonymousNow = async () =>
      (await admin.client.get<ActiveUsersResponse>('/api/active-users')).body.anonymous.count;
    const before = await anonymousNow();
    const crawlers = [
      'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      'Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Googlebot/2.1; +http://www.google.com/bot.html) Chrome/131.0.6778.204 Safari/537.36',
      'Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)',
    ];
    for (const [n, agent] of crawlers.entries()) {
      const response = await app
        .client()
        .post(
          '/api/anonymous-heartbeat',
          { currentPage: '/games', visitorId: `crawler_visitor_${String(n).padStart(8, '0')}` },
          { 'user-agent': agent },
        );
      // answered as any heartbeat: nothing tells the crawler it was left out
      expect(response.status).toBe(200);
    }
    expect(await anonymousNow()).toBe(before);
    // a browser is counted
    await app.client().post('/api/anonymous-heartbeat', {
      currentPage: '/games',
      visitorId: 'browser_visitor_00000001',
    });
    expect(await anonymousNow()).toBe(before + 1);
  });

  it('limits guest heartbeats per address with a 429, not signed-in ones (each user has a limit of their own)', async () => {
    const limited = await startTestApp(
      { redisPrefix: uniqueName('guest-limit') },
      { guestHeartbeatLimit: { limit: 3, windowMs: 60_000 } },
    );
    try {
      const guest = limited.client();
      const statuses: number[] = [];
      // each heartbeat starts a page view, of a campaign no other test names
      const campaign = uniqueName('flood').toLowerCase();
      for (let n = 0; n < 4; n++) {
        const response = await guest.post(
          '/api/anonymous-heartbeat',
          {
            currentPage: '/',
            view: { utm_campaign: campaign },
            visitorId: `flood_visitor_${String(n).padStart(8, '0')}`,
          },
          // a browser's (a request without one counts as a bot)
          { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0.0.0 Safari/537.36' },
        );
        statuses.push(response.status);
        if (response.status === 429) {
          expect(response.body).toEqual({
            error: {
              code: 'RATE_LIMITED',
              message: 'Too many heartbeats from this address. Please try again later.',
            },
          });
          expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
        }
      }
      expect(statuses).toEqual([200, 200, 200, 429]);

      const { client } = await signedInClient(limited);
      for (let n = 0; n < 4; n++) {
        expect((await client.post('/api/auth/heartbeat', { currentPage: '/' })).status).toBe(200);
      }
      // the flood did not count: three guests, one user
      const admin = await signedInClient(limited, 'admin');
      const active = await admin.client.get<{ anonymous: { count: number } }>('/api/active-users');
      expect(active.body.anonymous.count).toBe(3);
      // nor did the refused heartbeat's page view (after the salt lookups, the batch is written)
      await new Promise((resolve) => setTimeout(resolve, 50));
      await limited.deps.collector.flush();
      const [views] = await rowsOf<{ count: number }>(
        limited.deps.database.db,
        sql`select count(*)::int as count from analytics_events
              where kind = 1 and utm_campaign = ${campaign}`,
      );
      expect(views?.count).toBe(3);
    } finally {
      await limited.stop();
    }
  });

  it('tells guests without a visitor id apart by address and browser, not by a huge agent', async () => {
    const fresh = await startTestApp({ redisPrefix: uniqueName('ip-guests') });
    try {
      // browsers' agents (a known bot's is left out of Live Activity)
      const agent = TEST_BROWSER_AGENT.padEnd(256, 'x');
      for (const suffix of ['a'.repeat(15_000), 'b'.repeat(15_000)]) {
        const response = await fresh
          .client()
          .post('/api/anonymous-heartbeat', { currentPage: '/' }, { 'user-agent': agent + suffix });
        expect(response.status).toBe(200);
      }
      await fresh.client().post(
        '/api/anonymous-heartbeat',
        { currentPage: '/' },
        {
          'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
        },
      );
      const admin = await signedInClient(fresh, 'admin');
      const active = await admin.client.get<{ anonymous: { count: number } }>('/api/active-users');
      expect(active.body.anonymous.count).toBe(2);
    } finally {
      await fresh.stop();
    }
  });
});
