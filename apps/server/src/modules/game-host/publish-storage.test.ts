import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { gameBuilds, games } from '../../db/schema.js';
import { createLocalInvalidationBus } from '../../lib/invalidation-bus.js';
import type { ObjectStorage } from '../../lib/storage/object-storage.js';
import { startTestApp, type TestApp, uniqueName } from '../../test/harness.js';
import { createGameHost } from './service.js';

/*
 * A publish whose storage fails part-way (a bucket that went away after the first object):
 * nothing live changes, its objects are gone, and publishing again works. Runs on the local
 * folder and, with TEST_STORAGE=s3, on a bucket.
 */

let app: TestApp;
let work: string;

beforeAll(async () => {
  app = await startTestApp();
  work = mkdtempSync(path.join(tmpdir(), 'publish-storage-'));
  writeFileSync(path.join(work, 'index.html'), '<!doctype html><title>new</title>');
});

afterAll(async () => {
  await app?.stop();
  rmSync(work, { recursive: true, force: true });
});

describe('a publish whose storage fails part-way', () => {
  it('changes nothing live, leaves no objects of the version, and the next publish works', async () => {
    const storage = app.deps.gameHost.storage;
    const failing: ObjectStorage = {
      ...storage,
      async importFolder(_dir, prefix) {
        await storage.put(`${prefix}index.html`, Buffer.from('half a build'));
        throw new Error('the bucket went away mid-publish');
      },
    };
    const empty = mkdtempSync(path.join(tmpdir(), 'no-demos-'));
    const host = await createGameHost({
      config: app.deps.config,
      database: app.deps.database,
      bus: createLocalInvalidationBus(),
      demoDir: empty,
      storage: failing,
    }).finally(() => rmSync(empty, { recursive: true, force: true }));
    // a game of its own with a live build (the built-in games' live builds are shared by the
    // other test files on one PostgreSQL database)
    const gameId = uniqueName('PublishFails');
    await app.deps.database.db
      .insert(games)
      // listed after every other game (tests that take the first game of /api/games run beside
      // this one on one database), and deleted at the end
      .values({ id: gameId, title: gameId, section: 'html5', published: true, sortOrder: 1e9 });
    await app.deps.gameHost.catalogue.refresh();
    await app.deps.gameHost.publisher.publishFolder(gameId, work, { actor: null, activate: true });
    await app.deps.gameHost.catalogue.refresh();
    const before = app.deps.gameHost.catalogue.get(gameId)?.game.liveVersion;
    expect(before).toBeGreaterThanOrEqual(1);
    const builds = async () =>
      (await app.deps.database.db.select().from(gameBuilds).where(eq(gameBuilds.gameId, gameId)))
        .length;
    const buildsBefore = await builds();
    const keysBefore = (await storage.list(`${gameId}/`)).map((info) => info.key);

    await expect(
      host.publisher.publishFolder(gameId, work, { actor: null, activate: true }),
    ).rejects.toThrow('the bucket went away mid-publish');

    await app.deps.gameHost.catalogue.refresh();
    expect(app.deps.gameHost.catalogue.get(gameId)?.game.liveVersion).toBe(before);
    expect(await builds()).toBe(buildsBefore);
    expect((await storage.list(`${gameId}/`)).map((info) => info.key)).toEqual(keysBefore);
    const live = await fetch(`${app.gamesUrl}/${gameId}/${before}/index.html`);
    expect(live.status).toBe(200);

    const build = await app.deps.gameHost.publisher.publishFolder(gameId, work, {
      actor: null,
      activate: true,
    });
    expect(build.version).toBeGreaterThan(before ?? 0);
    const served = await fetch(`${app.gamesUrl}/${gameId}/${build.version}/index.html`);
    expect(await served.text()).toContain('<title>new</title>');
    await app.deps.database.db.delete(games).where(eq(games.id, gameId));
    await app.deps.gameHost.catalogue.refresh();
  });
});
