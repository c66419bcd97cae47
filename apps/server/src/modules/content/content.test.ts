import { randomBytes } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

import type {
  AdminGalleryProjectResponse,
  AdminGalleryResponse,
  AdminTutorialResponse,
  AdminTutorialsResponse,
  ContentAuditResponse,
  GalleryResponse,
  TutorialsResponse,
} from '@portfolio/types/content';

import { openDatabase } from '../../db/client.js';
import { createLocalInvalidationBus } from '../../lib/invalidation-bus.js';
import { openTestDatabase } from '../../test/database.js';
import { createScratchDatabase } from '../../test/scratch-database.js';
import { startIsolatedTestApp, type TestApp, type TestClient } from '../../test/harness.js';
import { signedInClient } from '../../test/factories.js';
import { createContent } from './service.js';
import { SEED_GALLERY, SEED_TUTORIALS } from './seed-content.js';

interface ErrorBody {
  error: { code: string; message: string };
}

let app: TestApp;
let admin: TestClient;
let adminName: string;

beforeAll(async () => {
  // the whole tables are looked at (the seeded rows, the order): a database of its own
  app = await startIsolatedTestApp();
  const signedIn = await signedInClient(app, 'admin');
  admin = signedIn.client;
  adminName = signedIn.username;
});

afterAll(async () => {
  await app?.stop();
});

const suffix = () => randomBytes(4).toString('hex');

function newProject(overrides: Record<string, unknown> = {}) {
  return {
    title: `Project ${suffix()}`,
    description: 'A small game made in a weekend.',
    thumbnail: 'https://images.example.com/card.webp',
    repositoryLink: 'https://github.com/owner/weekend',
    media: [
      { type: 'image', source: 'https://images.example.com/shot.webp', description: 'A shot' },
      { type: 'video', source: 'https://www.youtube.com/watch?v=M7lc1UVf-VE' },
    ],
    ...overrides,
  };
}

async function publicGallery(client: TestClient = app.client()) {
  const response = await client.get<GalleryResponse>('/api/gallery');
  expect(response.status).toBe(200);
  return response.body.projects;
}

describe('a fresh start', () => {
  it("serves the spec's gallery and tutorials, published and in order", async () => {
    const guest = app.client();
    const gallery = await guest.get<GalleryResponse>('/api/gallery');
    expect(gallery.body).toEqual({ projects: SEED_GALLERY });
    const tutorials = await guest.get<TutorialsResponse>('/api/tutorials');
    expect(tutorials.body).toEqual({ tutorials: SEED_TUTORIALS });
    expect(gallery.body.projects.map((project) => project.title)).toEqual([
      'Visuals and VFX',
      'Prototype Online',
      'ProjectX',
    ]);
    expect(tutorials.body.tutorials.map((tutorial) => [tutorial.section, tutorial.type])).toEqual([
      ['cpp', 'code'],
      ['unreal', 'iframe'],
      ['unreal', 'code'],
    ]);
  });
});

describe('the admin API', () => {
  it('refuses guests and users, and a wrong API token', async () => {
    expect((await app.client().get('/api/admin/gallery')).status).toBe(401);
    const { client: user } = await signedInClient(app, 'user');
    expect((await user.get('/api/admin/gallery')).status).toBe(403);
    expect((await user.post('/api/admin/tutorials', {})).status).toBe(403);
    const withToken = await app
      .client()
      .request('GET', '/api/admin/gallery', undefined, { authorization: 'Bearer nope' });
    expect(withToken.status).toBe(401);
  });

  it('adds a draft that guests and GET /api/gallery never see, then publishes it', async () => {
    const body = newProject();
    const created = await admin.post<AdminGalleryProjectResponse>('/api/admin/gallery', body);
    expect(created.status).toBe(201);
    const { project } = created.body;
    expect(project).toMatchObject({
      title: body.title,
      published: false,
      repositoryLink: body.repositoryLink,
    });
    expect(project.id).toMatch(/^project-[0-9a-f]{8}$/);
    expect((await publicGallery()).map((p) => p.id)).not.toContain(project.id);
    // the draft's page HTML would carry it no more than the API does
    const list = await admin.get<AdminGalleryResponse>('/api/admin/gallery');
    expect(list.body.projects.at(-1)).toMatchObject({ id: project.id, published: false });

    const published = await admin.patch<AdminGalleryProjectResponse>(
      `/api/admin/gallery/${project.id}`,
      { published: true },
    );
    expect(published.status).toBe(200);
    const shown = await publicGallery();
    expect(shown.at(-1)).toEqual({
      id: project.id,
      title: body.title,
      description: body.description,
      thumbnail: body.thumbnail,
      repositoryLink: body.repositoryLink,
      media: body.media,
    });

    await admin.patch(`/api/admin/gallery/${project.id}`, { published: false });
    expect((await publicGallery()).map((p) => p.id)).not.toContain(project.id);
  });

  it('reorders the projects: the new first one is first for guests', async () => {
    const created = await admin.post<AdminGalleryProjectResponse>(
      '/api/admin/gallery',
      newProject({ published: true }),
    );
    const id = created.body.project.id;
    const before = await admin.get<AdminGalleryResponse>('/api/admin/gallery');
    const ids = before.body.projects.map((project) => project.id);
    const order = [id, ...ids.filter((other) => other !== id)];
    const reordered = await admin.put<AdminGalleryResponse>('/api/admin/gallery/order', {
      ids: order,
    });
    expect(reordered.status).toBe(200);
    expect(reordered.body.projects.map((project) => project.id)).toEqual(order);
    expect((await publicGallery())[0]?.id).toBe(id);

    const missing = await admin.put<ErrorBody>('/api/admin/gallery/order', {
      ids: order.slice(1),
    });
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe('ids: must list every gallery project once');
  });

  it('edits a project, deletes it with a 404 after, and writes each change in the history', async () => {
    const created = await admin.post<AdminGalleryProjectResponse>(
      '/api/admin/gallery',
      newProject({ id: `custom-${suffix()}` }),
    );
    const id = created.body.project.id;
    const edited = await admin.patch<AdminGalleryProjectResponse>(`/api/admin/gallery/${id}`, {
      title: 'Renamed',
      media: [{ type: 'audio', source: '/assets/gallery/theme.mp3' }],
      published: true,
    });
    expect(edited.body.project).toMatchObject({
      title: 'Renamed',
      media: [{ type: 'audio', source: '/assets/gallery/theme.mp3' }],
      published: true,
    });
    expect((await admin.delete(`/api/admin/gallery/${id}`)).status).toBe(204);
    expect((await admin.delete(`/api/admin/gallery/${id}`)).status).toBe(404);
    const patchGone = await admin.patch<ErrorBody>(`/api/admin/gallery/${id}`, { title: 'x' });
    expect(patchGone.status).toBe(404);
    expect(patchGone.body.error.message).toBe(`No gallery project with the id '${id}'`);

    const audit = await admin.get<ContentAuditResponse>(
      `/api/admin/content/audit?kind=gallery&itemId=${id}`,
    );
    expect(audit.body.entries.map((entry) => [entry.action, entry.detail])).toEqual([
      ['delete', "Deleted 'Renamed'"],
      ['publish', 'Published; changed title, media'],
      ['create', `Added '${created.body.project.title}' as a draft`],
    ]);
    expect(audit.body.entries.every((entry) => entry.actorUsername === adminName)).toBe(true);
  });

  it('refuses bad input with 400 and a message naming the field', async () => {
    const cases: Array<[string, unknown, string]> = [
      ['/api/admin/gallery', newProject({ title: '' }), 'title: is required'],
      [
        '/api/admin/gallery',
        newProject({ repositoryLink: 'javascript:alert(1)' }),
        'repositoryLink: must be an http(s) address',
      ],
      ['/api/admin/gallery', newProject({ media: [] }), 'media: needs at least one media item'],
      [
        '/api/admin/gallery',
        newProject({ media: [{ type: 'image', source: 'javascript:alert(1)' }] }),
        'media.0.source: must be a path on this site (/assets/…) or an http(s) address',
      ],
      [
        '/api/admin/gallery',
        newProject({ media: [{ type: 'gif', source: '/a.gif' }] }),
        'media.0.type: must be image, video or audio',
      ],
      [
        '/api/admin/tutorials',
        {
          title: 'Frame',
          section: 'unreal',
          type: 'iframe',
          content: '',
          iframeSrc: 'http://a.b/',
        },
        'iframeSrc: must be an https: address',
      ],
      [
        '/api/admin/tutorials',
        {
          title: 'Frame',
          section: 'unreal',
          type: 'iframe',
          content: '',
          iframeSrc: 'javascript:alert(1)',
        },
        'iframeSrc: must be an https: address',
      ],
      [
        '/api/admin/tutorials',
        { title: 'Frame', section: 'unreal', type: 'iframe', content: '' },
        'iframeSrc: is required for an iframe',
      ],
      [
        '/api/admin/tutorials',
        { title: 'T', section: 'java', type: 'code', content: 'x' },
        'section: must be cpp or unreal',
      ],
    ];
    for (const [path, body, message] of cases) {
      const response = await admin.post<ErrorBody>(path, body);
      expect(response.status, message).toBe(400);
      expect(response.body.error.message).toBe(message);
    }
    const taken = await admin.post<ErrorBody>('/api/admin/gallery', newProject({ id: 'item1' }));
    expect(taken.status).toBe(409);
  });

  it('names new items after their titles, refuses a taken id and an order naming no tutorial', async () => {
    const tutorial = { title: 'Move semantics', section: 'cpp', type: 'markdown', content: 'x' };
    const first = await admin.post<AdminTutorialResponse>('/api/admin/tutorials', tutorial);
    const second = await admin.post<AdminTutorialResponse>('/api/admin/tutorials', tutorial);
    expect(first.body.tutorial.id).toMatch(/^move-semantics/);
    // the same title again: the slug with a random suffix, after the first
    expect(second.body.tutorial.id).toMatch(/^move-semantics(-[0-9a-f]{6})?$/);
    expect(second.body.tutorial.id).not.toBe(first.body.tutorial.id);
    const taken = await admin.post<ErrorBody>('/api/admin/tutorials', {
      ...tutorial,
      id: first.body.tutorial.id,
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error.message).toBe(
      `A tutorial with the id '${first.body.tutorial.id}' exists already`,
    );
    const all = await admin.get<AdminTutorialsResponse>('/api/admin/tutorials');
    const ids = all.body.tutorials.map((item) => item.id);
    // the new ones went to the end, in the order they were added
    expect(ids.slice(-2)).toEqual([first.body.tutorial.id, second.body.tutorial.id]);
    const unknown = await admin.put<ErrorBody>('/api/admin/tutorials/order', {
      ids: [...ids.slice(1), 'no-such-tutorial'],
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toBe("ids: there is no tutorial 'no-such-tutorial'");
    const twice = await admin.put<ErrorBody>('/api/admin/tutorials/order', {
      ids: [...ids.slice(1), ids[1]],
    });
    expect(twice.body.error.message).toBe('ids: must list every tutorial once');
    // nothing moved
    const after = await admin.get<AdminTutorialsResponse>('/api/admin/tutorials');
    expect(after.body.tutorials.map((item) => item.id)).toEqual(ids);
  });

  it('adds, publishes, edits and deletes a markdown tutorial', async () => {
    const created = await admin.post<AdminTutorialResponse>('/api/admin/tutorials', {
      title: 'Lambdas in C++',
      section: 'cpp',
      type: 'markdown',
      content: '# Lambdas\n\nCapture by value: `[=]`.',
      published: true,
    });
    expect(created.status).toBe(201);
    const id = created.body.tutorial.id;
    expect(id).toMatch(/^lambdas-in-c/);
    const shown = await app.client().get<TutorialsResponse>('/api/tutorials');
    expect(shown.body.tutorials.at(-1)).toEqual({
      id,
      title: 'Lambdas in C++',
      section: 'cpp',
      type: 'markdown',
      content: '# Lambdas\n\nCapture by value: `[=]`.',
    });
    // becoming an iframe needs its address; with it, the content may be empty
    const noAddress = await admin.patch<ErrorBody>(`/api/admin/tutorials/${id}`, {
      type: 'iframe',
    });
    expect(noAddress.status).toBe(400);
    expect(noAddress.body.error.message).toBe('iframeSrc: is required for an iframe');
    const framed = await admin.patch<AdminTutorialResponse>(`/api/admin/tutorials/${id}`, {
      type: 'iframe',
      iframeSrc: 'https://blueprintue.com/render/abc/',
      published: false,
    });
    expect(framed.body.tutorial).toMatchObject({
      type: 'iframe',
      iframeSrc: 'https://blueprintue.com/render/abc/',
      published: false,
    });
    const after = await app.client().get<TutorialsResponse>('/api/tutorials');
    expect(after.body.tutorials.map((tutorial) => tutorial.id)).not.toContain(id);

    const list = await admin.get<AdminTutorialsResponse>('/api/admin/tutorials');
    const ids = list.body.tutorials.map((tutorial) => tutorial.id);
    const reordered = await admin.put<AdminTutorialsResponse>('/api/admin/tutorials/order', {
      ids: [...ids].reverse(),
    });
    expect(reordered.body.tutorials.map((tutorial) => tutorial.id)).toEqual([...ids].reverse());
    expect((await admin.delete(`/api/admin/tutorials/${id}`)).status).toBe(204);
    expect((await admin.patch(`/api/admin/tutorials/${id}`, { title: 'x' })).status).toBe(404);
    // back to the spec's order for the tests after
    await admin.put('/api/admin/tutorials/order', { ids: ids.filter((other) => other !== id) });
  });
});

describe('the seed', () => {
  it("runs once: an owner's edits and deletions survive a restart", async () => {
    // a database no other test has seeded or edited
    const scratch = process.env.DATABASE_URL
      ? await createScratchDatabase(process.env.DATABASE_URL, 'test_content_seed')
      : undefined;
    const database = scratch
      ? await openDatabase({ databaseUrl: scratch.url })
      : await openTestDatabase();
    try {
      const bus = createLocalInvalidationBus();
      const first = await createContent({ db: database.db, bus });
      const seeded = first.store.gallery().map((project) => project.id);
      expect(seeded).toEqual(['item1', 'item2', 'item3']);
      await first.gallery.update('item1', { title: 'My effects' }, null);
      await first.tutorials.delete('cpp-hello-world', null);

      const second = await createContent({ db: database.db, bus });
      expect(second.store.gallery()[0]?.title).toBe('My effects');
      expect(second.store.tutorials().map((tutorial) => tutorial.id)).not.toContain(
        'cpp-hello-world',
      );
      // another process hears of a change through the bus and reads the content again
      const rendered: string[] = [];
      first.store.onChange(() => rendered.push('again'));
      await second.gallery.update('item2', { published: false }, null);
      await vi.waitFor(() =>
        expect(first.store.gallery().map((project) => project.id)).toEqual(['item1', 'item3']),
      );
      expect(rendered.length).toBeGreaterThan(0);
    } finally {
      await database.close();
      await scratch?.drop();
    }
  });
});

describe('the site texts', () => {
  it("start as the spec's and are changed whole, with a history entry", async () => {
    const initial = await admin.get<{ siteName: string; home: { title: string } }>(
      '/api/admin/site',
    );
    expect(initial.status).toBe(200);
    expect(initial.body).toMatchObject({
      siteName: 'GameDev Portfolio',
      home: { title: 'Welcome to my portfolio' },
    });
    const twoCards = await admin.put<ErrorBody>('/api/admin/site', {
      siteName: 'Mine',
      home: {
        title: 'Hi',
        lead: '',
        cards: [
          { title: 'A', text: '' },
          { title: 'B', text: '' },
        ],
      },
    });
    expect(twoCards.status).toBe(400);
    expect(twoCards.body.error.message).toMatch(/^home\.cards/);
    const emptyName = await admin.put<ErrorBody>('/api/admin/site', {
      ...initial.body,
      siteName: ' ',
    });
    expect(emptyName.body.error.message).toBe('siteName: is required');

    const changed = { ...initial.body, siteName: 'Ada Plays' };
    const saved = await admin.put('/api/admin/site', changed);
    expect(saved.status).toBe(200);
    expect((await admin.get('/api/admin/site')).body).toEqual(changed);
    const audit = await admin.get<ContentAuditResponse>('/api/admin/content/audit?kind=site');
    expect(audit.body.entries[0]).toMatchObject({ action: 'update', detail: 'Changed site name' });
    expect((await app.client().put('/api/admin/site', changed)).status).toBe(401);
    await admin.put('/api/admin/site', initial.body);
  });
});
