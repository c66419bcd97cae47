import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { ApiError } from '@portfolio/types';
import type { AdminPostResponse, PostResponse } from '@portfolio/types/devlog';

import { posts } from '../../db/schema.js';
import {
  startIsolatedTestApp,
  type TestApp,
  type TestClient,
  uniqueName,
} from '../../test/harness.js';
import { buildPost, signedInClient } from '../../test/factories.js';

/*
 * Markdown that remark cannot render in reasonable time (deep nesting, thousands of list items
 * opened on one line) must neither stall the server nor answer 500: it is refused before it is
 * parsed, a render past the time limit is ended, and a stored post that cannot render shows as
 * its text.
 */

let app: TestApp;
let webDist: string;
let admin: TestClient;
let guest: TestClient;

beforeAll(async () => {
  webDist = mkdtempSync(path.join(tmpdir(), 'devlog-md-web-'));
  mkdirSync(path.join(webDist, '.vite'));
  writeFileSync(
    path.join(webDist, 'index.html'),
    '<!doctype html><html lang="en"><head><title>t</title></head><body><div id="root"></div></body></html>\n',
  );
  writeFileSync(path.join(webDist, '.vite', 'manifest.json'), '{}');
  app = await startIsolatedTestApp({ webDistDir: webDist });
  admin = (await signedInClient(app, 'admin')).client;
  guest = app.client();
});
afterAll(async () => {
  await app.stop();
  rmSync(webDist, { recursive: true, force: true });
});

/** The probe's bodies: thousands of lists or quotes opened on one line. */
const PROBES = {
  'a list 4000 deep': `${'- '.repeat(4000)}x`,
  'a list 40000 deep (80 KB)': `${'- '.repeat(40000)}x`,
  'a quote 50000 deep': '>'.repeat(50000),
};

/** Within the limits (32 levels, under 100 000 characters) and still minutes of remark's time. */
const SLOW_BUT_LEGAL = `${'- '.repeat(32)}x\n`.repeat(1500);

describe('markdown the devlog cannot render', () => {
  it.each(Object.entries(PROBES))(
    'refuses %s in the preview at once with 422 naming the limit',
    async (_name, body) => {
      const started = Date.now();
      const preview = await admin.post<ApiError>('/api/admin/posts/preview', { body });
      expect(preview.status).toBe(422);
      expect(preview.body.error.code).toBe('MARKDOWN_TOO_COMPLEX');
      expect(preview.body.error.message).toMatch(/at most 32 levels deep/);
      expect(Date.now() - started).toBeLessThan(1000);
    },
  );

  it('refuses to publish such a body with 422, writing nothing', async () => {
    const title = `Deep ${uniqueName('t')}`;
    const created = await admin.post<ApiError>('/api/admin/posts', {
      title,
      body: PROBES['a list 4000 deep'],
      published: true,
    });
    expect(created.status).toBe(422);
    expect(created.body.error.message).toMatch(/at most 32 levels deep/);
    const list = await admin.get<{ posts: Array<{ title: string }> }>('/api/admin/posts');
    expect(list.body.posts.map((post) => post.title)).not.toContain(title);

    const post = await admin.post<AdminPostResponse>('/api/admin/posts', {
      title,
      body: 'fine',
    });
    expect(post.status).toBe(201);
    const edited = await admin.request<ApiError>('PATCH', `/api/admin/posts/${post.body.post.id}`, {
      body: PROBES['a quote 50000 deep'],
    });
    expect(edited.status).toBe(422);
  });

  it(
    'renders off the event loop: the site answers while a slow render runs, which is ended with 422',
    { timeout: 30_000 },
    async () => {
      // the worker loaded first (from source that takes seconds; its time limit starts after)
      expect((await admin.post('/api/admin/posts/preview', { body: '- warm' })).status).toBe(200);
      const started = Date.now();
      const preview = admin.post<ApiError>('/api/admin/posts/preview', { body: SLOW_BUT_LEGAL });
      // the render has started (the request is on its way) while health is asked, twice
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (let i = 0; i < 2; i++) {
        const asked = Date.now();
        const health = await fetch(`${app.url}/api/health`);
        expect(health.status).toBe(200);
        expect(Date.now() - asked).toBeLessThan(1000);
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      const refused = await preview;
      expect(refused.status).toBe(422);
      expect(refused.body.error.code).toBe('MARKDOWN_TOO_COMPLEX');
      expect(refused.body.error.message).toMatch(/longer than 5 s to render/);
      expect(Date.now() - started).toBeLessThan(10_000);

      // a fresh worker renders the next body
      const next = await admin.post<{ html: string }>('/api/admin/posts/preview', {
        body: '- a\n  - b',
      });
      expect(next.status).toBe(200);
      expect(next.body.html).toContain('<li>b</li>');
    },
  );

  it('shows a stored post that cannot render as its text on the API, the page and the feed', async () => {
    const { id, slug } = await buildPost(admin, { body: 'fine for now', published: true });
    // written before the limits existed (or by hand): the API would refuse it now
    const body = `<b>bold?</b>\n${PROBES['a list 4000 deep']}`;
    await app.deps.database.db.update(posts).set({ body }).where(eq(posts.id, id));
    app.deps.devlog.invalidate();

    const started = Date.now();
    const shown = await guest.get<PostResponse>(`/api/posts/${slug}`);
    expect(shown.status).toBe(200);
    expect(shown.body.post.html).toMatch(
      /^<pre class="markdown__plain">&lt;b&gt;bold\?&lt;\/b&gt;\n- - - /,
    );

    const page = await fetch(`${app.url}/devlog/${slug}`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain('markdown__plain');

    const feed = await fetch(`${app.url}/feed.xml`);
    expect(feed.status).toBe(200);
    // the escaped text, escaped again as the entry's HTML content
    expect(await feed.text()).toContain(
      '&lt;pre class=&quot;markdown__plain&quot;&gt;&amp;lt;b&amp;gt;bold?&amp;lt;/b&amp;gt;',
    );
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
