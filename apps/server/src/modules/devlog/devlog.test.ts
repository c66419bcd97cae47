import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { parseFeed } from '@rowanmanning/feed-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type {
  AdminPostResponse,
  AdminPostsResponse,
  PostAuditResponse,
  PostResponse,
  PostsResponse,
} from '@portfolio/types/devlog';
import type { ApiError } from '@portfolio/types';

import {
  startIsolatedTestApp,
  type TestApp,
  type TestClient,
  uniqueName,
} from '../../test/harness.js';
import { buildPost, postFields, signedInClient } from '../../test/factories.js';

const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="description" content="The template's description." />
    <title>Template title</title>
  </head>
  <body><div id="root"></div></body>
</html>
`;

let app: TestApp;
let webDist: string;
let admin: TestClient;
let guest: TestClient;

beforeAll(async () => {
  webDist = mkdtempSync(path.join(tmpdir(), 'devlog-web-'));
  mkdirSync(path.join(webDist, '.vite'));
  writeFileSync(path.join(webDist, 'index.html'), INDEX_HTML);
  writeFileSync(path.join(webDist, '.vite', 'manifest.json'), '{}');
  // the welcome post, the latest three and the feed are about the whole table: a database of its own
  app = await startIsolatedTestApp({ webDistDir: webDist });
  admin = (await signedInClient(app, 'admin')).client;
  guest = app.client();
});
afterAll(async () => {
  await app.stop();
  rmSync(webDist, { recursive: true, force: true });
});

/** A fresh post's fields: a title no other test uses. */
const HOUR = 60 * 60 * 1000;

/** The content of a meta tag of a page's head, by property or name. */
function metaOf(html: string, key: string): string | undefined {
  const match = new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)">`).exec(html);
  return match?.[1]?.replace(/&amp;/g, '&').replace(/&quot;/g, '"');
}

async function page(pathname: string) {
  const response = await fetch(`${app.url}${pathname}`);
  return { status: response.status, html: await response.text() };
}

async function feed() {
  const response = await fetch(`${app.url}/feed.xml`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
  return parseFeed(await response.text());
}

describe('posts', () => {
  it('keeps a draft from guests, the API, the feed and its page until it is published', async () => {
    const draft = await buildPost(admin);
    expect(draft.status).toBe('draft');
    expect(draft.slug).toMatch(/^post-t-[0-9a-f]+$/);

    const list = await guest.get<PostsResponse>('/api/posts?pageSize=50');
    expect(list.body.posts.map((post) => post.id)).not.toContain(draft.id);
    expect((await guest.get(`/api/posts/${draft.slug}`)).status).toBe(404);
    expect((await page(`/devlog/${draft.slug}`)).status).toBe(404);
    expect((await feed()).items.map((item) => item.title)).not.toContain(draft.title);

    const published = await admin.request<AdminPostResponse>(
      'PATCH',
      `/api/admin/posts/${draft.id}`,
      { published: true },
    );
    expect(published.status).toBe(200);
    expect(published.body.post.status).toBe('published');
    expect(published.body.post.publishedAt).not.toBeNull();

    const shown = await guest.get<PostResponse>(`/api/posts/${draft.slug}`);
    expect(shown.status).toBe(200);
    expect(shown.body.post).toMatchObject({ title: draft.title, body: draft.body });
    expect(shown.body.post.summary).toBe(`Hello from ${draft.title}.`);
    const after = await guest.get<PostsResponse>('/api/posts?pageSize=50');
    expect(after.body.posts[0]?.id).toBe(draft.id);
  });

  it('shows a scheduled post nowhere before its date', async () => {
    const scheduled = await buildPost(admin, {
      published: true,
      publishedAt: new Date(Date.now() + 24 * HOUR).toISOString(),
    });
    expect(scheduled.status).toBe('scheduled');
    const list = await guest.get<PostsResponse>('/api/posts?pageSize=50');
    expect(list.body.posts.map((post) => post.id)).not.toContain(scheduled.id);
    expect((await guest.get(`/api/posts/${scheduled.slug}`)).status).toBe(404);
    expect((await page(`/devlog/${scheduled.slug}`)).status).toBe(404);
    expect((await feed()).items.map((item) => item.title)).not.toContain(scheduled.title);
    const sitemap = await (await fetch(`${app.url}/sitemap.xml`)).text();
    expect(sitemap).not.toContain(scheduled.slug);
    // the admin still sees it
    const adminList = await admin.get<AdminPostsResponse>('/api/admin/posts');
    expect(adminList.body.posts.find((post) => post.id === scheduled.id)?.status).toBe('scheduled');
  });

  it('lists published posts newest first, page by page, and by game', async () => {
    const older = await buildPost(admin, {
      published: true,
      publishedAt: new Date(Date.now() - 2 * HOUR).toISOString(),
      gameId: 'Pong',
    });
    const newer = await buildPost(admin, {
      published: true,
      publishedAt: new Date(Date.now() - HOUR).toISOString(),
      gameId: 'Pong',
    });
    const byGame = await guest.get<PostsResponse>('/api/posts?game=Pong');
    expect(byGame.status).toBe(200);
    const ids = byGame.body.posts.map((post) => post.id);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(byGame.body.posts.every((post) => post.gameId === 'Pong')).toBe(true);
    expect(byGame.body.posts[0]?.gameTitle).toBe('Pong');

    const first = await guest.get<PostsResponse>('/api/posts?game=Pong&pageSize=1');
    const second = await guest.get<PostsResponse>('/api/posts?game=Pong&pageSize=1&page=2');
    expect(first.body.posts).toHaveLength(1);
    expect(first.body.total).toBeGreaterThanOrEqual(2);
    expect(second.body.posts[0]?.id).not.toBe(first.body.posts[0]?.id);

    const bad = await guest.get<ApiError>('/api/posts?pageSize=500');
    expect(bad.status).toBe(400);
    expect(bad.body.error.message).toMatch(/pageSize/);
  });

  it('makes a unique slug from the title, and refuses a chosen slug that is taken with 409', async () => {
    const title = `Same title ${uniqueName('s')}`;
    const first = await buildPost(admin, { title });
    const second = await buildPost(admin, { title });
    expect(second.slug).toBe(`${first.slug}-2`);

    const taken = await admin.post<ApiError>('/api/admin/posts', postFields({ slug: first.slug }));
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toContain(first.slug);

    const renamed = await admin.request<ApiError>('PATCH', `/api/admin/posts/${second.id}`, {
      slug: first.slug,
    });
    expect(renamed.status).toBe(409);

    const edited = await admin.request<AdminPostResponse>(
      'PATCH',
      `/api/admin/posts/${second.id}`,
      { slug: `${first.slug}-renamed` },
    );
    expect(edited.body.post.slug).toBe(`${first.slug}-renamed`);
  });

  it.each([
    [{ title: '' }, /title/],
    [{ title: 'x', slug: 'Not A Slug' }, /slug/],
    [{ title: 'x', gameId: 'NoSuchGame' }, /gameId: no game/],
    [{ title: 'x', coverImage: 'javascript:alert(1)' }, /coverImage/],
    [{ title: 'x', publishedAt: 'tomorrow' }, /publishedAt/],
    [{ title: 'x', extra: 1 }, /extra/],
  ])('refuses %j with a 400 naming the field', async (body, message) => {
    const response = await admin.post<ApiError>('/api/admin/posts', body);
    expect(response.status).toBe(400);
    expect(response.body.error.message).toMatch(message);
  });

  it('previews a body as the post page renders it, for admins only', async () => {
    const preview = await admin.post<{ html: string }>('/api/admin/posts/preview', {
      body: '| a |\n|---|\n| 1 |\n\n<script>alert(1)</script>',
    });
    expect(preview.status).toBe(200);
    expect(preview.body.html).toContain('<td>1</td>');
    expect(preview.body.html).not.toContain('<script');
    expect((await guest.post('/api/admin/posts/preview', { body: 'x' })).status).toBe(401);
    expect((await admin.post('/api/admin/posts/preview', {})).status).toBe(400);
  });

  it('answers 404 for an unknown post id and 401/403 to guests and users', async () => {
    const missing = await admin.request<ApiError>(
      'PATCH',
      '/api/admin/posts/00000000-0000-4000-8000-000000000000',
      { title: 'x' },
    );
    expect(missing.status).toBe(404);
    expect((await admin.delete('/api/admin/posts/not-an-id')).status).toBe(404);

    expect((await guest.post('/api/admin/posts', postFields())).status).toBe(401);
    expect((await guest.get('/api/admin/posts')).status).toBe(401);
    const { client: user } = await signedInClient(app, 'user');
    expect((await user.post('/api/admin/posts', postFields())).status).toBe(403);

    const crossSite = await admin.post('/api/admin/posts', postFields(), {
      origin: 'http://evil.example',
      'sec-fetch-site': 'cross-site',
    });
    expect(crossSite.status).toBe(403);
  });

  it('records every change in the audit log, and a deleted post is gone', async () => {
    const post = await buildPost(admin);
    await admin.request('PATCH', `/api/admin/posts/${post.id}`, { title: `${post.title} v2` });
    await admin.request('PATCH', `/api/admin/posts/${post.id}`, { published: true });
    await admin.request('PATCH', `/api/admin/posts/${post.id}`, { published: false });
    expect((await admin.delete(`/api/admin/posts/${post.id}`)).status).toBe(204);
    expect((await admin.delete(`/api/admin/posts/${post.id}`)).status).toBe(404);

    const audit = await admin.get<PostAuditResponse>('/api/admin/posts/audit');
    const actions = audit.body.entries
      .filter((entry) => entry.postId === post.id)
      .map((entry) => entry.action);
    expect(actions).toEqual(['delete', 'unpublish', 'publish', 'update', 'create']);
    expect(audit.body.entries.find((entry) => entry.action === 'delete')?.postTitle).toBe(
      `${post.title} v2`,
    );
  });
});

describe('the welcome post', () => {
  it('is published at a first start, and once deleted is never written again', async () => {
    const welcome = await guest.get<PostResponse>('/api/posts/welcome-to-the-devlog');
    expect(welcome.status).toBe(200);
    expect(welcome.body.post.title).toBe('Welcome to the devlog');
    expect((await admin.delete(`/api/admin/posts/${welcome.body.post.id}`)).status).toBe(204);
    // what a restart does
    await app.deps.devlog.seedWelcomePost();
    expect((await guest.get('/api/posts/welcome-to-the-devlog')).status).toBe(404);
  });
});

describe('the feed', () => {
  it('is an Atom feed that a feed parser reads, with the post, its link and safe content', async () => {
    const post = await buildPost(admin, {
      published: true,
      body: [
        'Intro with a [good link](https://example.com/) and ~~old~~ text.',
        '',
        '<script>window.pwned = 1</script>',
        '',
        '<img src="x" onerror="window.pwned = 2">',
        '',
        '[bad link](javascript:alert(1)) and [mail](mailto:me@example.com)',
        '',
        '![shot](/assets/gallery/vfx-plasma.webp)',
        '',
        '| a | b |',
        '|---|---|',
        '| 1 | 2 |',
      ].join('\n'),
    });
    const parsed = await feed();
    expect(parsed.meta.type).toBe('atom');
    expect(parsed.title).toBe('Devlog | GameDev Portfolio');
    expect(parsed.self).toBe(`${app.url}/feed.xml`);
    const item = parsed.items.find((entry) => entry.title === post.title);
    expect(item).toBeDefined();
    expect(item?.url).toBe(`${app.url}/devlog/${post.slug}`);
    expect(item?.published).toBeTruthy();
    const content = item?.content ?? '';
    expect(content).toContain('<a href="https://example.com/">good link</a>');
    expect(content).toContain('<del>old</del>');
    expect(content).toContain('<table>');
    expect(content).toContain('href="mailto:me@example.com"');
    expect(content).toContain(`src="${app.url}/assets/gallery/vfx-plasma.webp"`);
    expect(content).not.toMatch(/<script|onerror|javascript:|pwned/i);
    // the list's summary and the card's image come from the body
    const shown = await guest.get<PostResponse>(`/api/posts/${post.slug}`);
    expect(shown.body.post.image).toBe('/assets/gallery/vfx-plasma.webp');
    expect(shown.body.post.summary).not.toMatch(/<script|pwned/);
  });
});

describe('pages and cards', () => {
  it("gives a post's page its title, description, Open Graph and Twitter card, and links the feed", async () => {
    const post = await buildPost(admin, {
      published: true,
      summary: 'A summary with "quotes" & more',
      coverImage: '/assets/gallery/visuals-card.webp',
    });
    const { status, html } = await page(`/devlog/${post.slug}`);
    expect(status).toBe(200);
    expect(html).toContain(`<title>${post.title} | GameDev Portfolio</title>`);
    expect(metaOf(html, 'og:title')).toBe(`${post.title} | GameDev Portfolio`);
    expect(metaOf(html, 'og:description')).toBe('A summary with "quotes" & more');
    expect(metaOf(html, 'og:type')).toBe('article');
    expect(metaOf(html, 'og:url')).toBe(`${app.url}/devlog/${post.slug}`);
    expect(metaOf(html, 'og:image')).toBe(`${app.url}/assets/gallery/visuals-card.webp`);
    expect(metaOf(html, 'og:site_name')).toBe('GameDev Portfolio');
    expect(metaOf(html, 'twitter:card')).toBe('summary_large_image');
    expect(metaOf(html, 'twitter:image')).toBe(`${app.url}/assets/gallery/visuals-card.webp`);
    expect(html).toContain(
      `<link rel="alternate" type="application/atom+xml" title="Devlog | GameDev Portfolio" href="${app.url}/feed.xml">`,
    );

    // the post itself rides in the page, so its script shows it without a request
    const data = /<script id="page-data" type="application\/json">([^<]*)<\/script>/.exec(
      html,
    )?.[1];
    expect((JSON.parse(data ?? '{}') as PostResponse).post?.body).toBe(post.body);

    // an edit shows on the next request (the cached page is dropped)
    await admin.request('PATCH', `/api/admin/posts/${post.id}`, {
      title: `${post.title} (edited)`,
    });
    expect(metaOf((await page(`/devlog/${post.slug}`)).html, 'og:title')).toBe(
      `${post.title} (edited) | GameDev Portfolio`,
    );
  });

  it('answers an unknown post with the 404 page', async () => {
    const { status, html } = await page('/devlog/no-such-post-here');
    expect(status).toBe(404);
    expect(html).toContain('<div id="root">');
  });

  it("gives a game's and a gallery project's address their own card", async () => {
    const game = await page('/games?play=Pong');
    expect(game.status).toBe(200);
    expect(metaOf(game.html, 'og:title')).toBe('Pong | GameDev Portfolio');
    expect(metaOf(game.html, 'og:url')).toBe(`${app.url}/games?play=Pong`);
    // the built-in card is an SVG, which card readers refuse: the default card instead
    expect(metaOf(game.html, 'og:image')).toBe(`${app.url}/assets/card-default.png`);

    const project = await page('/Gallery?project=item1');
    expect(project.status).toBe(200);
    expect(metaOf(project.html, 'og:title')).toBe('Visuals and VFX | GameDev Portfolio');
    expect(metaOf(project.html, 'og:image')).toBe(`${app.url}/assets/gallery/visuals-card.webp`);
    expect(metaOf(project.html, 'twitter:description')).toMatch(/Real-time effects/);

    const home = await page('/');
    expect(metaOf(home.html, 'og:type')).toBe('website');
    expect(metaOf(home.html, 'og:image')).toBe(`${app.url}/assets/card-default.png`);
  });

  it('lists published posts, games and projects in sitemap.xml, never drafts', async () => {
    const published = await buildPost(admin, { published: true });
    const draft = await buildPost(admin);
    const sitemap = await (await fetch(`${app.url}/sitemap.xml`)).text();
    expect(sitemap).toContain(`<loc>${app.url}/devlog/${published.slug}</loc>`);
    expect(sitemap).toContain(`<loc>${app.url}/devlog</loc>`);
    expect(sitemap).toContain(`<loc>${app.url}/games?play=Pong</loc>`);
    expect(sitemap).toContain(`<loc>${app.url}/Gallery?project=item1</loc>`);
    expect(sitemap).not.toContain(draft.slug);
  });

  it('writes the three newest posts into every page for the home page', async () => {
    const post = await buildPost(admin, { published: true });
    const { html } = await page('/');
    const config = /<script id="site-config" type="application\/json">([^<]*)<\/script>/.exec(
      html,
    )?.[1];
    const parsed = JSON.parse(config ?? '{}') as { latestPosts?: Array<{ slug: string }> };
    expect(parsed.latestPosts?.length).toBeLessThanOrEqual(3);
    expect(parsed.latestPosts?.[0]?.slug).toBe(post.slug);
  });
});
