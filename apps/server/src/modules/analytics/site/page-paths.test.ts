import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { AnalyticsBreakdown, AnalyticsOverview } from '@portfolio/types/analytics';
import { GalleryResponse } from '@portfolio/types/content';
import { AdminPostResponse } from '@portfolio/types/devlog';

import {
  startIsolatedTestApp,
  type TestApp,
  type TestClient,
  uniqueName,
} from '../../../test/harness.js';
import { signedInClient } from '../../../test/factories.js';

/*
 * Which paths site analytics counts as pages of their own (issue: the owner could not see which
 * posts are read): a published post (/devlog/<slug>), a published game open in the viewer
 * (/games?play=<id>) and a gallery project (/Gallery?project=<id>). Made-up addresses, drafts and
 * unknown items still go to 'other' (or to their page), so no visitor can fill the tables.
 */

let clock = Date.parse('2026-07-01T10:00:00Z');
let app: TestApp;
let admin: TestClient;

beforeAll(async () => {
  // exact counts: a database of its own
  app = await startIsolatedTestApp(
    { trustProxy: 'loopback', redisPrefix: uniqueName('page-paths') },
    { now: () => clock, eventFlushIntervalMs: 3_600_000, analyticsFlushIntervalMs: 3_600_000 },
  );
  admin = (await signedInClient(app, 'admin')).client;
});
afterAll(async () => {
  await app?.stop();
});

const CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
let visitors = 0;
/** A browser of its own address: a new visitor. */
function newVisitor() {
  visitors += 1;
  return { 'x-forwarded-for': `203.0.113.${visitors}`, 'user-agent': CHROME };
}

/** A heartbeat that starts a page view, as page-view.ts sends it. */
async function view(
  visitor: Record<string, string>,
  currentPage: string,
  view: Record<string, unknown>,
  left?: { path: string; seconds: number },
) {
  const response = await app
    .client()
    .post('/api/anonymous-heartbeat', { currentPage, view, ...(left ? { left } : {}) }, visitor);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

async function pages(dimension = 'page', query = '') {
  await app.deps.collector.flush();
  const response = await admin.get(
    `/api/analytics/breakdown/${dimension}?period=today&limit=100${query}`,
  );
  expect(response.status).toBe(200);
  return Object.fromEntries(
    AnalyticsBreakdown.parse(response.body).rows.map((row) => [row.value, row]),
  );
}

async function createPost(published: boolean): Promise<string> {
  const response = await admin.post('/api/admin/posts', {
    title: `Read me ${uniqueName('post')}`,
    body: 'Which posts are read?',
    published,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return AdminPostResponse.parse(response.body).post.slug;
}

describe('the paths site analytics counts', () => {
  it('counts a published post under its own path, a draft and a made-up slug as other', async () => {
    const post = await createPost(true);
    const draft = await createPost(false);
    const reader = newVisitor();
    await view(reader, `/devlog/${post}`, { landing: `/devlog/${post}`, entry: true });
    clock += 30_000;
    await view(
      reader,
      `/devlog/${draft}`,
      { landing: `/devlog/${post}` },
      {
        path: `/devlog/${post}`,
        seconds: 30,
      },
    );
    await view(reader, '/devlog/no-such-post', { landing: `/devlog/${post}` });
    await view(reader, '/devlog/Not_A_Slug', { landing: `/devlog/${post}` });

    const rows = await pages();
    expect(rows[`/devlog/${post}`]).toMatchObject({ visitors: 1, pageviews: 1, timeSeconds: 30 });
    expect(rows[`/devlog/${draft}`]).toBeUndefined();
    expect(rows['/devlog/no-such-post']).toBeUndefined();
    expect(rows.other).toMatchObject({ pageviews: 3 });
    // the visit's entry is the post too, and the post's row filters the whole view
    expect((await pages('entry'))[`/devlog/${post}`]).toMatchObject({ visitors: 1 });
    const filtered = await admin.get(
      `/api/analytics/overview?period=today&page=${encodeURIComponent(`/devlog/${post}`)}`,
    );
    expect(AnalyticsOverview.parse(filtered.body).totals.pageviews).toBe(1);
  });

  it('counts a published game in the viewer and a gallery project as pages, unknown ones as their page', async () => {
    const gallery = GalleryResponse.parse((await app.client().get('/api/gallery')).body);
    const project = gallery.projects[0]?.id;
    expect(project).toBeDefined();
    const player = newVisitor();
    await view(player, '/games', { landing: '/games', entry: true });
    clock += 5_000;
    await view(
      player,
      '/games',
      { landing: '/games', path: '/games?play=Pong' },
      { path: '/games', seconds: 5 },
    );
    clock += 60_000;
    // a game the catalogue does not have is the games page
    await view(
      player,
      '/games',
      { landing: '/games', path: '/games?play=NoSuchGame' },
      { path: '/games?play=Pong', seconds: 60 },
    );
    await view(player, '/Gallery', {
      landing: '/games',
      path: `/Gallery?project=${encodeURIComponent(project ?? '')}`,
    });
    await view(player, '/Gallery', { landing: '/games', path: '/Gallery?project=made-up' });
    // the tab went away on the project: its time and the visit's exit
    clock += 12_000;
    const leave = await app.client().post(
      '/api/analytics/beacon',
      {
        type: 'leave',
        path: `/Gallery?project=${encodeURIComponent(project ?? '')}`,
        seconds: 12,
        landing: '/games',
      },
      player,
    );
    expect(leave.status).toBe(204);

    const rows = await pages();
    expect(rows['/games?play=Pong']).toMatchObject({ visitors: 1, pageviews: 1, timeSeconds: 60 });
    expect(rows['/games?play=NoSuchGame']).toBeUndefined();
    expect(rows['/games']).toMatchObject({ visitors: 1, pageviews: 2 });
    expect(rows[`/Gallery?project=${project ?? ''}`]).toMatchObject({
      visitors: 1,
      pageviews: 1,
      timeSeconds: 12,
    });
    expect(rows['/Gallery']).toMatchObject({ pageviews: 1 });
    expect((await pages('exit'))[`/Gallery?project=${project ?? ''}`]).toMatchObject({
      visitors: 1,
    });
  });

  it('still counts the admin pages beyond the dashboard and made-up paths as other', async () => {
    const before = (await pages()).other?.pageviews ?? 0;
    const visitor = newVisitor();
    await view(visitor, '/admin/games', { landing: '/admin/games', entry: true });
    await view(visitor, '/wp-login.php', { landing: '/admin/games', path: '/wp-login.php?x=1' });
    await view(visitor, '/games', { landing: '/admin/games', path: '/games?play=../../etc' });
    const rows = await pages();
    expect(rows.other?.pageviews).toBe(before + 2);
    expect(Object.keys(rows).filter((path) => path.includes('wp-login'))).toEqual([]);
  });
});
