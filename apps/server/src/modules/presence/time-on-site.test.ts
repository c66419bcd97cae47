import { readFileSync } from 'node:fs';

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type Database, openDatabase } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { startTestApp, type TestApp, uniqueName } from '../../test/harness.js';
import { signedInClient } from '../../test/factories.js';
import { MAX_HEARTBEAT_GAP_MS } from './presence-store.js';

/** A clock the test moves by hand; presence and analytics read it. */
let clock = Date.now();
const advance = (ms: number) => {
  clock += ms;
};

async function storedSeconds(database: Database, userId: string): Promise<number> {
  const [row] = await database.db
    .select({ seconds: users.totalTimeSpent })
    .from(users)
    .where(eq(users.id, userId));
  return row?.seconds ?? -1;
}

function openTestDatabase(): Promise<Database> {
  const template = process.env.PGLITE_TEMPLATE;
  return openDatabase({
    databaseUrl: process.env.DATABASE_URL,
    dataDir: 'memory://',
    ...(template && !process.env.DATABASE_URL
      ? { loadDataDir: new Blob([readFileSync(template)]) }
      : {}),
  });
}

describe('time on site', () => {
  let app: TestApp;
  beforeAll(async () => {
    // no timed flush during the test: only explicit flushes write
    app = await startTestApp(
      { redisPrefix: uniqueName('time') },
      { now: () => clock, analyticsFlushIntervalMs: 3_600_000 },
    );
  });
  afterAll(async () => {
    await app.stop();
  });

  it('adds the time between heartbeats, capped, and writes it on flush', async () => {
    const user = await signedInClient(app);
    const beat = async (currentPage = '/games') =>
      expect((await user.client.post('/api/auth/heartbeat', { currentPage })).status).toBe(200);

    await beat(); // the first heartbeat of a visit adds nothing
    advance(20_000);
    await beat(); // +20
    advance(45_000);
    await beat(); // +45
    advance(70_000);
    await beat(); // a 70 s gap (a sleeping laptop) adds only the cap: +60
    expect(MAX_HEARTBEAT_GAP_MS).toBe(60_000);
    expect(await storedSeconds(app.deps.database, user.id)).toBe(0);

    await app.deps.presence.flush();
    expect(await storedSeconds(app.deps.database, user.id)).toBe(125);

    advance(80_000);
    await beat(); // the visit had ended (outside the active window): a new one starts at 0
    await app.deps.presence.flush();
    expect(await storedSeconds(app.deps.database, user.id)).toBe(125);
  });

  it('counts several tabs of one user once and keeps sub-second rests', async () => {
    const user = await signedInClient(app);
    const tabOne = user.client;
    const tabTwo = app.client();
    await tabTwo.post('/api/auth/login', { username: user.username, password: user.password });

    await tabOne.post('/api/auth/heartbeat', { currentPage: '/games' });
    advance(10_500);
    await tabTwo.post('/api/auth/heartbeat', { currentPage: '/Gallery' }); // +10.5
    advance(20_000);
    await tabOne.post('/api/auth/heartbeat', { currentPage: '/games' }); // +20
    await app.deps.presence.flush();
    expect(await storedSeconds(app.deps.database, user.id)).toBe(30);
    advance(29_500);
    await tabTwo.post('/api/auth/heartbeat', { currentPage: '/Gallery' }); // +29.5, with the kept 0.5 s: 30
    await app.deps.presence.flush();
    expect(await storedSeconds(app.deps.database, user.id)).toBe(60);
  });

  it('serves heartbeats without database statements or session writes', async () => {
    const user = await signedInClient(app);
    const guest = app.client();
    await user.client.post('/api/auth/heartbeat', { currentPage: '/' });
    await app.deps.presence.flush();
    await app.deps.analytics.flush();
    const sessionsBefore = app.deps.sessions.stats();
    const presenceBefore = app.deps.presence.stats();

    for (let index = 0; index < 20; index++) {
      advance(1000);
      await user.client.post('/api/auth/heartbeat', { currentPage: '/games' });
      await guest.post('/api/anonymous-heartbeat', {
        currentPage: '/games',
        visitorId: 'guest-visitor-id-0001',
      });
    }
    expect(app.deps.sessions.stats()).toEqual(sessionsBefore);
    const presenceAfter = app.deps.presence.stats();
    expect(presenceAfter.heartbeats - presenceBefore.heartbeats).toBe(40);
    expect(presenceAfter.statements).toBe(presenceBefore.statements);

    // the batch: time on site, the new guest's visit and the peak, at most one statement each
    await app.deps.presence.flush();
    await app.deps.analytics.flush();
    expect(app.deps.presence.stats().statements - presenceAfter.statements).toBeGreaterThan(0);
    expect(app.deps.presence.stats().statements - presenceAfter.statements).toBeLessThanOrEqual(3);
  });
});

describe('shutdown', () => {
  it('writes pending time on site before the database closes', async () => {
    const database = await openTestDatabase();
    let secondsWhenClosed: number | undefined;
    let userId = '';
    const app = await startTestApp(
      { redisPrefix: uniqueName('shutdown') },
      {
        now: () => clock,
        analyticsFlushIntervalMs: 3_600_000,
        // the app's close: record what was stored at that moment, keep the database for the test
        database: {
          ...database,
          close: async () => void (secondsWhenClosed = await storedSeconds(database, userId)),
        },
      },
    );
    const user = await signedInClient(app);
    userId = user.id;
    await user.client.post('/api/auth/heartbeat', { currentPage: '/' });
    advance(30_000);
    await user.client.post('/api/auth/heartbeat', { currentPage: '/' });
    expect(await storedSeconds(database, user.id)).toBe(0);

    await app.stop();
    expect(secondsWhenClosed).toBe(30);
    await database.close();
  });
});
