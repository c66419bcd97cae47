import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { AdminGalleryProjectResponse, GalleryResponse } from '@portfolio/types/content';
import type { PostResponse } from '@portfolio/types/devlog';
import type { AdminGamesResponse, GamesResponse } from '@portfolio/types/game-host';
import { galleryItemOf } from '@portfolio/types/media';

import {
  buildGame,
  buildGameBuild,
  buildImage,
  buildPost,
  buildPublishedGame,
  signedInClient,
} from './test/factories.js';
import { startIsolatedTestApp, type TestApp, type TestClient } from './test/harness.js';

/*
 * CDN hosts (MEDIA_PUBLIC_URL, GAMES_PUBLIC_URL): the public's media and public games' builds are
 * handed out on the CDN's address with the same path; what only some may open stays on the
 * games origin, and what the admin edits keeps the stored /media/ path.
 */

const GAMES_ORIGIN = 'http://games.cdn-test.localhost';
const GAMES_CDN = 'https://games-cdn.example.net';
const MEDIA_CDN = 'https://media-cdn.example.net/site';

let app: TestApp;
let admin: TestClient;
const dirs: string[] = [];
const tempDir = (name: string) => {
  const dir = mkdtempSync(path.join(tmpdir(), `${name}-`));
  dirs.push(dir);
  return dir;
};

beforeAll(async () => {
  // uploads are content-addressed rows: a database of its own (see media.test.ts)
  app = await startIsolatedTestApp({
    gamesHost: {
      origin: GAMES_ORIGIN,
      port: 0,
      dir: tempDir('games'),
      uploadMaxBytes: 1024 * 1024,
      zipMaxFiles: 50,
      zipMaxUnpackedBytes: 2 * 1024 * 1024,
      zipMaxRatio: 200,
      publicUrl: GAMES_CDN,
    },
    media: {
      dir: tempDir('media'),
      limits: { image: 1024 * 1024, video: 1024 * 1024, audio: 1024 * 1024 },
      publicUrl: MEDIA_CDN,
    },
  });
  ({ client: admin } = await signedInClient(app, 'admin'));
}, 60_000);

afterAll(async () => {
  await app?.stop();
  dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true }));
});

describe('a CDN in front of public games', () => {
  it('hands out public games on the CDN and subscriber games on the games origin', async () => {
    const open = await buildPublishedGame(admin);
    const members = await buildPublishedGame(admin, { access: 'subscriber' });
    const draft = await buildGame(admin);
    await buildGameBuild(admin, draft);
    const cards = async (client: TestClient) =>
      new Map(
        (await client.get<GamesResponse>('/api/games')).body.games.map((game) => [game.id, game]),
      );
    const guest = await cards(app.client());
    expect(guest.get(open)?.playUrl).toBe(`${GAMES_CDN}/${open}/1/index.html`);
    expect(guest.get(members)?.playUrl).toBe(`${GAMES_ORIGIN}/${members}/1/index.html`);
    // a subscriber's grant is the games origin's to check
    const adminCards = await cards(admin);
    expect(adminCards.get(members)?.playUrl).toMatch(
      new RegExp(`^${GAMES_ORIGIN}/g/[^/]+/${members}/1/index\\.html$`),
    );
    // a game not yet published is previewed on the games origin by the admin
    const listed = await admin.get<AdminGamesResponse>('/api/admin/games');
    const unpublished = listed.body.games.find((game) => game.id === draft);
    expect(unpublished?.playUrl).toBe(`${GAMES_ORIGIN}/${draft}/1/index.html`);
    // the site may frame the CDN
    const page = await fetch(`${app.url}/api/games`);
    expect(page.headers.get('content-security-policy')).toMatch(
      /frame-src [^;]*https:\/\/games-cdn\.example\.net/,
    );
  });
});

describe('a CDN in front of public media', () => {
  it('hands out uploads on the CDN in the gallery and posts; the admin keeps /media/ paths', async () => {
    const image = await buildImage(admin, { background: { r: 1, g: 2, b: 3 } });
    const created = await admin.post<AdminGalleryProjectResponse>('/api/admin/gallery', {
      title: 'On the CDN',
      description: 'Pictures served by a CDN.',
      thumbnail: image.thumbnail,
      media: [galleryItemOf(image)],
      published: true,
    });
    expect(created.status).toBe(201);
    expect(created.body.project.media[0]?.source).toBe(image.url);

    const gallery = await app.client().get<GalleryResponse>('/api/gallery');
    const project = gallery.body.projects.find((item) => item.id === created.body.project.id);
    expect(project?.thumbnail).toBe(`${MEDIA_CDN}${image.thumbnail}`);
    expect(project?.media[0]?.source).toBe(`${MEDIA_CDN}${image.url}`);
    expect(project?.media[0]?.variants?.map((variant) => variant.src)).toEqual(
      image.variants.map((variant) => `${MEDIA_CDN}${variant.src}`),
    );
    // the CDN asks the site for the same path
    expect(image.url).toMatch(/^\/media\//);
    expect((await fetch(`${app.url}${image.url}`)).status).toBe(200);

    const post = await buildPost(admin, { coverImage: image.url, published: true });
    const shown = await app.client().get<PostResponse>(`/api/posts/${post.slug}`);
    expect(shown.body.post.coverImage).toBe(`${MEDIA_CDN}${image.url}`);
    const edited = await admin.get<{ post: { coverImage: string } }>(`/api/admin/posts/${post.id}`);
    expect(edited.body.post.coverImage).toBe(image.url);
  });
});
