import { afterAll, beforeAll, expect, it } from 'vitest';

import type { AdminGalleryProjectResponse } from '@portfolio/types/content';
import { galleryItemOf } from '@portfolio/types/media';

import { startIsolatedTestApp, type TestApp, type TestClient } from '../../test/harness.js';
import { buildImage, signedInClient } from '../../test/factories.js';

/*
 * A gallery project's uploads belong to it: the media library will not delete what a project
 * shows, and deleting the project removes the uploads nothing else uses.
 */

let app: TestApp;
let admin: TestClient;

beforeAll(async () => {
  // uploads are content-addressed rows: a database of its own (see media.test.ts)
  app = await startIsolatedTestApp();
  ({ client: admin } = await signedInClient(app, 'admin'));
}, 60_000);

afterAll(async () => {
  await app?.stop();
});

it("keeps a project's uploads while it shows them and removes them with the project", async () => {
  const kept = await buildImage(admin, { background: { r: 200, g: 20, b: 90 } });
  const shared = await buildImage(admin, { background: { r: 10, g: 20, b: 90 } });
  const created = await admin.post<AdminGalleryProjectResponse>('/api/admin/gallery', {
    title: 'Uploaded shots',
    description: 'Pictures uploaded in the admin.',
    thumbnail: kept.thumbnail,
    media: [galleryItemOf(kept), galleryItemOf(shared)],
    published: true,
  });
  expect(created.status).toBe(201);
  const other = await admin.post<AdminGalleryProjectResponse>('/api/admin/gallery', {
    title: 'Another project',
    description: 'Shows one of the same pictures.',
    thumbnail: shared.thumbnail,
    media: [galleryItemOf(shared)],
    published: false,
  });
  expect(other.status).toBe(201);

  // the library refuses to delete what a project shows
  const refused = await admin.request('DELETE', `/api/admin/media/${kept.id}`);
  expect(refused.status).toBe(409);
  expect((await fetch(`${app.url}${kept.url}`)).status).toBe(200);

  const deleted = await admin.request('DELETE', `/api/admin/gallery/${created.body.project.id}`);
  expect(deleted.status).toBeLessThan(300);
  // its own picture is gone (every copy); the one the other project shows stays
  expect((await fetch(`${app.url}${kept.url}`)).status).toBe(404);
  for (const variant of kept.variants) {
    expect((await fetch(`${app.url}${variant.src}`)).status).toBe(404);
  }
  expect((await fetch(`${app.url}${shared.url}`)).status).toBe(200);
  const library = await admin.get<{ media: Array<{ id: string }> }>('/api/admin/media');
  const ids = library.body.media.map((item) => item.id);
  expect(ids).toContain(shared.id);
  expect(ids).not.toContain(kept.id);
});
