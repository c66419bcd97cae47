import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { startTestApp, type TestApp } from '../../test/harness.js';
import { signedInClient } from '../../test/factories.js';
import { API_COMPRESSION_THRESHOLD } from '../../lib/api-compression.js';

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** A GET that sends exactly these headers and keeps the bytes as they came (fetch would decode). */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return rawRequest('GET', url, headers);
}

/** Any method, TRACE and PROPFIND included (fetch refuses TRACE). */
function rawRequest(
  method: string,
  url: string,
  headers: Record<string, string> = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const SCRIPT = `export const greeting = ${JSON.stringify('hello '.repeat(2000))};\n`;
const HASHED_SCRIPT = 'assets/index-AbCd1234.js';
const INDEX_HTML = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="UTF-8" />
    <meta name="description" content="The template's description." />
    <title>Template title</title>
    <link rel="stylesheet" crossorigin href="/assets/index-Ss123456.css">
    <script type="module" crossorigin src="/${HASHED_SCRIPT}"></script>
  </head>
  <body><div id="root"></div></body>
</html>
`;

let app: TestApp;
let webDist: string;
beforeAll(async () => {
  // a built web app as Vite and the precompress plugin leave it
  webDist = mkdtempSync(path.join(tmpdir(), 'web-dist-'));
  mkdirSync(path.join(webDist, 'assets'));
  mkdirSync(path.join(webDist, '.vite'));
  writeFileSync(path.join(webDist, 'index.html'), INDEX_HTML);
  writeFileSync(path.join(webDist, HASHED_SCRIPT), SCRIPT);
  writeFileSync(path.join(webDist, `${HASHED_SCRIPT}.br`), brotliCompressSync(SCRIPT));
  writeFileSync(path.join(webDist, `${HASHED_SCRIPT}.gz`), gzipSync(SCRIPT));
  writeFileSync(path.join(webDist, 'assets', 'default_video_thumbnail.jpg'), 'not really a jpeg');
  writeFileSync(path.join(webDist, 'assets', 'index-Ss123456.css'), '.app{color:#123456}');
  writeFileSync(
    path.join(webDist, '.vite', 'manifest.json'),
    JSON.stringify({
      'index.html': { file: HASHED_SCRIPT, isEntry: true, imports: ['_react.js'] },
      '_react.js': { file: 'assets/react-Rr123456.js' },
      'src/features/gallery/gallery-page.tsx': {
        file: 'assets/gallery-page-Gg123456.js',
        imports: ['_react.js', '_cards.js'],
      },
      '_cards.js': { file: 'assets/cards-Cc123456.js' },
    }),
  );
  app = await startTestApp({
    webDistDir: webDist,
    siteConfig: {
      githubUrl: 'https://github.com/site-owner',
      linkedinUrl: 'https://www.linkedin.com/in/site-owner',
    },
  });
});
afterAll(async () => {
  await app.stop();
  rmSync(webDist, { recursive: true, force: true });
});

describe('built files', () => {
  it('serves the brotli file to a client that accepts it, with Vary and a year of caching', async () => {
    const response = await rawGet(`${app.url}/${HASHED_SCRIPT}`, {
      'accept-encoding': 'gzip, deflate, br',
    });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers.vary).toMatch(/Accept-Encoding/i);
    expect(response.headers['content-type']).toMatch(/javascript/);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.body.length).toBeLessThan(SCRIPT.length / 10);
    expect(brotliDecompressSync(response.body).toString()).toBe(SCRIPT);
  });

  it('serves gzip to a client that accepts only gzip', async () => {
    const response = await rawGet(`${app.url}/${HASHED_SCRIPT}`, { 'accept-encoding': 'gzip' });
    expect(response.headers['content-encoding']).toBe('gzip');
    expect(response.headers.vary).toMatch(/Accept-Encoding/i);
    expect(gunzipSync(response.body).toString()).toBe(SCRIPT);
  });

  it('serves the plain file to a client without Accept-Encoding', async () => {
    const response = await rawGet(`${app.url}/${HASHED_SCRIPT}`);
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers.vary).toMatch(/Accept-Encoding/i);
    expect(response.body.toString()).toBe(SCRIPT);
  });

  it('revalidates files whose names carry no content hash', async () => {
    const response = await rawGet(`${app.url}/assets/default_video_thumbnail.jpg`);
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
  });

  it.each([
    '/assets/index-Zz999999.js',
    '/assets/missing_picture.jpg',
    '/favicon.ico',
    '/games/logo.png',
  ])('answers a missing file %s with 404, not the app page', async (file) => {
    const response = await rawGet(`${app.url}${file}`, { accept: 'text/html' });
    expect(response.status).toBe(404);
    expect(response.body.toString()).not.toContain('<div id="root">');
  });
});

describe('pages', () => {
  it('sends index.html for a page path, revalidated, with that page title and description', async () => {
    const response = await rawGet(`${app.url}/Gallery`);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    const html = response.body.toString();
    expect(html).toContain('<title>My Gallery | GameDev Portfolio</title>');
    expect(html).toContain(
      '<meta name="description" content="Browse projects, prototypes and visual effects with videos and screenshots." />',
    );
    expect(html).toContain(`src="/${HASHED_SCRIPT}"`);
  });

  it("writes the entry's stylesheet into the page, so the first paint waits for no other file", async () => {
    const html = (await rawGet(`${app.url}/`)).body.toString();
    expect(html).toContain('<style>.app{color:#123456}</style>');
    // only as a disabled link (never fetched), so route chunks do not add it again
    expect(html.match(/<link[^>]*index-Ss123456\.css[^>]*>/g)).toEqual([
      '<link rel="stylesheet" crossorigin href="/assets/index-Ss123456.css" disabled>',
    ]);
  });

  it("preloads the page's own chunks, not the entry's again", async () => {
    const html = (await rawGet(`${app.url}/Gallery`)).body.toString();
    expect(html).toContain(
      '<link rel="modulepreload" crossorigin href="/assets/gallery-page-Gg123456.js"><link rel="modulepreload" crossorigin href="/assets/cards-Cc123456.js">',
    );
    expect(html).not.toContain('react-Rr123456');
    const home = (await rawGet(`${app.url}/`)).body.toString();
    expect(home).not.toContain('gallery-page');
  });

  it('isolates only the games viewer asked for with isolated=1 (COOP same-origin + COEP require-corp)', async () => {
    for (const page of [
      '/games?play=Pong&isolated=1',
      '/Games/?isolated=1&play=TopDownRogueLike',
    ]) {
      const response = await rawGet(`${app.url}${page}`, { 'accept-encoding': 'br' });
      expect(response.status, page).toBe(200);
      expect(response.headers['cross-origin-opener-policy'], page).toBe('same-origin');
      expect(response.headers['cross-origin-embedder-policy'], page).toBe('require-corp');
    }
    // anywhere else other sites' images and video frames must keep loading
    for (const page of [
      '/games',
      '/games?play=Pong',
      '/games?isolated=0',
      '/Gallery?isolated=1',
      '/?isolated=1',
    ]) {
      const response = await rawGet(`${app.url}${page}`);
      expect(response.status, page).toBe(200);
      expect(response.headers['cross-origin-embedder-policy'], page).toBeUndefined();
    }
    const file = await rawGet(`${app.url}/${HASHED_SCRIPT}?isolated=1`);
    expect(file.headers['cross-origin-embedder-policy']).toBeUndefined();
  });

  it('matches page paths as the router does: any case, trailing slash', async () => {
    const html = (await rawGet(`${app.url}/gallery/`)).body.toString();
    expect(html).toContain('<title>My Gallery | GameDev Portfolio</title>');
    const unknown = (await rawGet(`${app.url}/no-such-page`)).body.toString();
    expect(unknown).toContain('<title>GameDev Portfolio</title>');
  });

  it('gives the app the configured footer links', async () => {
    const html = (await rawGet(`${app.url}/`)).body.toString();
    const config = /<script id="site-config" type="application\/json">([^<]*)<\/script>/.exec(html);
    // beside the links, the owner's site name and home texts, and the latest posts
    expect(JSON.parse(config?.[1] ?? '{}')).toMatchObject({
      githubUrl: 'https://github.com/site-owner',
      linkedinUrl: 'https://www.linkedin.com/in/site-owner',
      siteName: 'GameDev Portfolio',
      home: { title: 'Welcome to my portfolio' },
    });
    // and the newest posts (other tests' posts too, on a shared PostgreSQL): at most three
    const { latestPosts } = JSON.parse(config?.[1] ?? '{}') as { latestPosts?: unknown[] };
    expect(latestPosts?.length).toBeGreaterThan(0);
    expect(latestPosts?.length).toBeLessThanOrEqual(3);
    expect(latestPosts?.[0]).toEqual({
      slug: expect.any(String) as unknown,
      title: expect.any(String) as unknown,
      publishedAt: expect.any(String) as unknown,
    });
    // the template itself is not served with its placeholders
    expect((await rawGet(`${app.url}/index.html`)).body.toString()).toContain('site-owner');
  });

  it('compresses the page by Accept-Encoding and answers a matching ETag with 304', async () => {
    const first = await rawGet(`${app.url}/games`, { 'accept-encoding': 'br' });
    expect(first.headers['content-encoding']).toBe('br');
    expect(first.headers.vary).toMatch(/Accept-Encoding/i);
    expect(brotliDecompressSync(first.body).toString()).toContain('<title>Games | ');
    const etag = first.headers.etag ?? '';
    expect(etag).not.toBe('');
    const again = await rawGet(`${app.url}/games`, {
      'accept-encoding': 'br',
      'if-none-match': etag,
    });
    expect(again.status).toBe(304);
    const plain = await rawGet(`${app.url}/games`);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.etag).not.toBe(etag);
  });
});

describe('requests that miss every route', () => {
  it.each([
    ['DELETE', '/run-code'],
    ['TRACE', '/run-code'],
    ['PROPFIND', '/run-code'],
    ['POST', '/Gallery'],
    ['DELETE', '/'],
    ['PROPFIND', '/assets/default_video_thumbnail.jpg'],
  ])('answers %s %s with the JSON error shape, not an HTML page', async (method, target) => {
    const response = await rawRequest(method, `${app.url}${target}`, { accept: 'text/html' });
    expect(response.status).toBe(404);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(response.body.toString())).toEqual({
      error: { code: 'NOT_FOUND', message: `No route for ${method} ${target}` },
    });
  });

  it('still serves pages and files to GET and HEAD', async () => {
    expect((await rawRequest('HEAD', `${app.url}/Gallery`)).status).toBe(200);
    expect((await rawRequest('HEAD', `${app.url}/${HASHED_SCRIPT}`)).status).toBe(200);
    // an unknown page is the app's to show (its own not-found page), with the status 404
    for (const madeUp of ['/no-such-page', '/Gallery/nothing', '/profile/x']) {
      const page = await rawGet(`${app.url}${madeUp}`);
      expect(page.status, madeUp).toBe(404);
      expect(page.body.toString()).toContain('<div id="root">');
    }
    // a deep link to a game that is not published is the list with a notice, and a 404
    expect((await rawGet(`${app.url}/games?play=NoSuchGame`)).status).toBe(404);
    expect((await rawGet(`${app.url}/games?play=TopDownRogueLike`)).status).toBe(200);
    // the admin's pages are routed inside the app, every route's page answers 200
    for (const route of ['/admin/users/1', '/admin/analytics', '/login', '/GALLERY/', '/']) {
      expect((await rawGet(`${app.url}${route}`)).status, route).toBe(200);
    }
  });
});

describe('robots.txt and sitemap.xml', () => {
  it('lets crawlers in, keeps them out of the API and signed-in pages, and names the sitemap', async () => {
    const response = await rawGet(`${app.url}/robots.txt`);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    const text = response.body.toString();
    expect(text).toMatch(/^User-agent: \*$/m);
    expect(text).toMatch(/^Disallow: \/api\/$/m);
    expect(text).toMatch(/^Disallow: \/admin$/m);
    expect(text).toContain(`Sitemap: ${app.url}/sitemap.xml`);
  });

  it('lists the public pages at their own spelling, then the published games and projects', async () => {
    const response = await rawGet(`${app.url}/sitemap.xml`);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toMatch(/^application\/xml/);
    const locations = [...response.body.toString().matchAll(/<loc>([^<]+)<\/loc>/g)].map(
      (match) => match[1],
    );
    expect(locations.slice(0, 6)).toEqual(
      ['/', '/games', '/Gallery', '/Tutorials', '/devlog', '/subscribe'].map(
        (page) => `${app.url}${page}`,
      ),
    );
    expect(locations).toContain(`${app.url}/games?play=Pong`);
    expect(locations).toContain(`${app.url}/Gallery?project=item1`);
  });
});

describe('API answers', () => {
  it('compresses JSON above the threshold and leaves small answers alone', async () => {
    const admin = await signedInClient(app, 'admin');
    const cookie = admin.client.cookieHeader;
    const plain = await rawGet(`${app.url}/api/visitor-stats`, { cookie });
    expect(plain.status).toBe(200);
    expect(plain.body.length).toBeGreaterThan(API_COMPRESSION_THRESHOLD);
    const compressed = await rawGet(`${app.url}/api/visitor-stats`, {
      cookie,
      'accept-encoding': 'gzip',
    });
    expect(compressed.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(compressed.body).toString())).toEqual(
      JSON.parse(plain.body.toString()),
    );
    const small = await rawGet(`${app.url}/api/health`, { 'accept-encoding': 'gzip' });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString())).toEqual({ ok: true });
  });
});

describe("the owner's content in the pages", () => {
  const pageDataOf = (html: string): unknown => {
    const match = /<script id="page-data" type="application\/json">([^<]*)<\/script>/.exec(html);
    return match?.[1] === undefined ? undefined : JSON.parse(match[1]);
  };

  it('writes the published gallery into /Gallery and the tutorials into /Tutorials only', async () => {
    const gallery = await app.client().get<{ projects: unknown[] }>('/api/gallery');
    const galleryPage = await rawGet(`${app.url}/Gallery`);
    expect(pageDataOf(galleryPage.body.toString())).toEqual({ gallery: gallery.body.projects });
    const tutorials = await app.client().get<{ tutorials: unknown[] }>('/api/tutorials');
    const tutorialsPage = await rawGet(`${app.url}/tutorials`);
    expect(pageDataOf(tutorialsPage.body.toString())).toEqual({
      tutorials: tutorials.body.tutorials,
    });
    expect(pageDataOf((await rawGet(`${app.url}/`)).body.toString())).toBeUndefined();
  });

  it("asks for the first gallery card's picture with /Gallery's HTML (its largest paint), nowhere else", async () => {
    const gallery = await app.client().get<{ projects: { thumbnail: string }[] }>('/api/gallery');
    const first = gallery.body.projects[0]?.thumbnail ?? '';
    expect(first).not.toBe('');
    const preload = `<link rel="preload" as="image" fetchpriority="high" href="${first}">`;
    expect((await rawGet(`${app.url}/Gallery`)).body.toString()).toContain(preload);
    for (const other of ['/', '/tutorials', '/Gallery?project=item1']) {
      expect((await rawGet(`${app.url}${other}`)).body.toString()).not.toContain('rel="preload"');
    }
  });

  it('renders the page again after a change, with text that cannot end its script element', async () => {
    const before = await rawGet(`${app.url}/Gallery`);
    const admin = await signedInClient(app, 'admin');
    const title = `</script><script>alert(1)</script> ${Date.now()}`;
    const created = await admin.client.post<{ project: { id: string } }>('/api/admin/gallery', {
      title,
      description: 'Escaped <b>bold</b>',
      thumbnail: '/assets/gallery/visuals-card.webp',
      media: [{ type: 'image', source: '/assets/gallery/vfx-plasma.webp' }],
      published: true,
    });
    expect(created.status).toBe(201);
    try {
      const after = await rawGet(`${app.url}/Gallery`);
      expect(after.headers.etag).not.toBe(before.headers.etag);
      const html = after.body.toString();
      expect(html).not.toContain('</script><script>alert(1)');
      const data = pageDataOf(html) as { gallery: Array<{ title: string }> };
      expect(data.gallery.map((project) => project.title)).toContain(title);
    } finally {
      await admin.client.delete(`/api/admin/gallery/${created.body.project.id}`);
    }
    const removed = pageDataOf((await rawGet(`${app.url}/Gallery`)).body.toString()) as {
      gallery: Array<{ title: string }>;
    };
    expect(removed.gallery.map((project) => project.title)).not.toContain(title);
  });
});

describe("the owner's site name and home texts", () => {
  it('are written into every page and its title, and change with the next request', async () => {
    const admin = await signedInClient(app, 'admin');
    const before = await admin.client.get<{ siteName: string; home: { lead: string } }>(
      '/api/admin/site',
    );
    try {
      const saved = await admin.client.request('PUT', '/api/admin/site', {
        ...before.body,
        siteName: 'Ada </title> Plays',
        home: { ...before.body.home, lead: 'I make small games.' },
      });
      expect(saved.status).toBe(200);
      const html = (await rawGet(`${app.url}/Gallery`)).body.toString();
      expect(html).toContain('<title>My Gallery | Ada &lt;/title&gt; Plays</title>');
      const config = /<script id="site-config" type="application\/json">([^<]*)<\/script>/.exec(
        html,
      );
      expect(JSON.parse(config?.[1] ?? '{}')).toMatchObject({
        githubUrl: 'https://github.com/site-owner',
        siteName: 'Ada </title> Plays',
        home: { lead: 'I make small games.' },
      });
    } finally {
      await admin.client.request('PUT', '/api/admin/site', before.body);
    }
    expect((await rawGet(`${app.url}/`)).body.toString()).toContain(
      '<title>GameDev Portfolio</title>',
    );
  });
});
