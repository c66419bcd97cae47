import { createHmac, randomBytes } from 'node:crypto';

import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Database } from '../../db/client.js';
import { sessions as sessionsTable } from '../../db/schema.js';
import type { InvalidationBus } from '../../lib/invalidation-bus.js';
import { openTestDatabase } from '../../test/database.js';
import { insertUser } from '../../test/factories.js';
import { createSessionService } from './session-service.js';

const SECRET = 't'.repeat(32);
let database: Database;
beforeAll(async () => {
  database = await openTestDatabase();
});
afterAll(async () => {
  await database.close();
});

/** A bus whose connection state and resync the test controls, as Redis' would change. */
function controllableBus() {
  const listeners: Array<(userId: string) => void> = [];
  const resyncs: Array<() => void> = [];
  let connected = true;
  const bus: InvalidationBus = {
    publish: (userId) => listeners.forEach((listener) => listener(userId)),
    subscribe: (listener) => void listeners.push(listener),
    onResync: (listener) => void resyncs.push(listener),
    isConnected: () => connected,
    close: () => Promise.resolve(),
  };
  return {
    bus,
    setConnected: (value: boolean) => (connected = value),
    resync: () => resyncs.forEach((listener) => listener()),
  };
}

describe('session tokens', () => {
  it('refuses forged, random and unknown cookies without a query, and asks the database once per unknown signed token', async () => {
    const service = createSessionService({
      db: database.db,
      secret: SECRET,
      bus: controllableBus().bus,
    });
    const { token } = await service.create((await insertUser(database.db)).id);
    expect(token).toMatch(/^[\w-]{43}\.[\w-]{22}$/);
    const queries = service.stats().queries;

    const [random] = token.split('.');
    expect(await service.resolve(`${random}.${randomBytes(16).toString('base64url')}`)).toBeNull();
    expect(await service.resolve(randomBytes(32).toString('base64url'))).toBeNull();
    expect(await service.resolve('not-a-session')).toBeNull();
    expect(service.stats().queries).toBe(queries);

    // a correctly signed token whose session is gone (a logout elsewhere): one query, then memory
    await service.destroy(token);
    const other = createSessionService({
      db: database.db,
      secret: SECRET,
      bus: controllableBus().bus,
    });
    const before = other.stats().queries;
    expect(await other.resolve(token)).toBeNull();
    expect(await other.resolve(token)).toBeNull();
    expect(await other.resolve(token)).toBeNull();
    expect(other.stats().queries - before).toBe(1);
  });

  it('keeps sessions made before tokens were signed working', async () => {
    const userId = (await insertUser(database.db)).id;
    const legacyToken = randomBytes(32).toString('base64url');
    const idHash = createHmac('sha256', SECRET).update(legacyToken).digest('base64url');
    const now = Date.now();
    await database.db.insert(sessionsTable).values({
      idHash,
      userId,
      expiresAt: new Date(now + 60_000),
      absoluteExpiresAt: new Date(now + 120_000),
    });
    // a process started after the session was made
    const service = createSessionService({
      db: database.db,
      secret: SECRET,
      bus: controllableBus().bus,
    });
    expect((await service.resolve(legacyToken))?.user.id).toBe(userId);
  });

  it('re-reads cached sessions every 5 s while the bus is disconnected, and drops them all on resync', async () => {
    let time = Date.now();
    const control = controllableBus();
    const service = createSessionService({
      db: database.db,
      secret: SECRET,
      bus: control.bus,
      now: () => time,
    });
    const { token } = await service.create((await insertUser(database.db)).id);
    await service.resolve(token);
    const cached = service.stats().queries;
    time += 6000;
    expect(await service.resolve(token)).not.toBeNull();
    expect(service.stats().queries).toBe(cached);

    control.setConnected(false);
    time += 6000;
    await service.resolve(token);
    expect(service.stats().queries).toBe(cached + 1);

    control.setConnected(true);
    control.resync();
    await service.resolve(token);
    expect(service.stats().queries).toBe(cached + 2);
  });
});
