import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import type { Database } from '../../db/client.js';
import { createLocalInvalidationBus, type InvalidationBus } from '../../lib/invalidation-bus.js';
import { openTestDatabase } from '../../test/database.js';
import { insertUser } from '../../test/factories.js';
import { createUsersRepo, type UsersRepo } from '../users/repo.js';
import { createSessionService, type SessionTimeouts } from './session-service.js';

const MINUTE = 60_000;
const TIMEOUTS: SessionTimeouts = { idleMs: 60 * MINUTE, absoluteMs: 180 * MINUTE };

let database: Database;
let users: UsersRepo;
beforeAll(async () => {
  database = await openTestDatabase();
  users = createUsersRepo(database.db);
});
afterAll(async () => {
  await database.close();
});

/** A fake clock and a factory of session services sharing one database and one bus (= processes). */
function setup(timeouts: SessionTimeouts = TIMEOUTS) {
  const start = Date.now();
  const clock = { time: start };
  const bus: InvalidationBus = createLocalInvalidationBus();
  const secret = 's'.repeat(32);
  const process = () =>
    createSessionService({ db: database.db, secret, bus, timeouts, now: () => clock.time });
  return {
    process,
    /** Sets the fake time to `minutes` after the start. */
    at: (minutes: number) => {
      clock.time = start + minutes * MINUTE;
    },
  };
}

describe('session timeouts', () => {
  it('expires a session that is not used for idleMs', async () => {
    const { process, at } = setup();
    const sessions = process();
    const { token } = await sessions.create((await insertUser(database.db)).id);
    expect(await sessions.resolve(token)).not.toBeNull();

    at(60);
    expect(await sessions.resolve(token)).toBeNull();
    expect(await process().resolve(token)).toBeNull();
  });

  it('persists an extension only when flushed', async () => {
    const { process, at } = setup();
    const sessions = process();
    const { token } = await sessions.create((await insertUser(database.db)).id);

    at(59);
    expect(await sessions.resolve(token)).not.toBeNull();
    // used at 59 but never flushed (the process died): the stored expiry still holds
    at(60);
    expect(await process().resolve(token)).toBeNull();
  });

  it('extends the idle expiry when the session is used, once flushed, for every process', async () => {
    const { process, at } = setup();
    const first = process();
    const { token } = await first.create((await insertUser(database.db)).id);

    at(45);
    expect(await first.resolve(token)).not.toBeNull();
    await first.flush();

    // past the original idle expiry (60 min), seen by a process that never cached it
    at(90);
    const resolved = await process().resolve(token);
    expect(resolved).not.toBeNull();
    expect(resolved?.expiresAt).toBeGreaterThan(Date.now() + 90 * MINUTE);
  });

  it('keeps extending a session used less often than the cache lifetime', async () => {
    const { process, at } = setup();
    const sessions = process();
    const { token } = await sessions.create((await insertUser(database.db)).id);
    // every 50 minutes: each use is a fresh read from the database (the cache keeps 10 minutes)
    for (const minute of [50, 100, 150]) {
      at(minute);
      expect(await sessions.resolve(token), `at ${minute} min`).not.toBeNull();
      await sessions.flush();
    }
  });

  it('ends the session at the absolute expiry however often it is used', async () => {
    const { process, at } = setup();
    const sessions = process();
    const { token } = await sessions.create((await insertUser(database.db)).id);
    for (let minute = 30; minute < 180; minute += 30) {
      at(minute);
      const resolved = await sessions.resolve(token);
      expect(resolved, `at ${minute} min`).not.toBeNull();
      expect(resolved?.expiresAt).toBeLessThanOrEqual(resolved?.absoluteExpiresAt ?? 0);
      await sessions.flush();
    }
    at(180);
    expect(await sessions.resolve(token)).toBeNull();
    expect(await process().resolve(token)).toBeNull();
  });

  it('re-reads a cached session that looks expired, since another process may have extended it', async () => {
    // idle shorter than the 10-minute cache lifetime, so the stale cached expiry matters
    const { process, at } = setup({ idleMs: 8 * MINUTE, absoluteMs: 180 * MINUTE });
    const first = process();
    const second = process();
    const { token } = await first.create((await insertUser(database.db)).id);
    expect(await first.resolve(token)).not.toBeNull();

    at(6);
    expect(await second.resolve(token)).not.toBeNull();
    await second.flush();

    at(9);
    expect(await first.resolve(token)).not.toBeNull();
  });
});

describe('session cache', () => {
  it('serves a resolved session from memory without a query', async () => {
    const { process } = setup();
    const sessions = process();
    const { token } = await sessions.create((await insertUser(database.db)).id);
    await sessions.resolve(token);
    const queries = sessions.stats().queries;
    for (let i = 0; i < 5; i++) {
      expect(await sessions.resolve(token)).not.toBeNull();
    }
    expect(sessions.stats().queries).toBe(queries);
  });

  it('drops cached sessions of a user on invalidateUser, in every process', async () => {
    const { process } = setup();
    const first = process();
    const second = process();
    const user = await insertUser(database.db, { role: 'user' });
    const { token } = await first.create(user.id);
    expect((await first.resolve(token))?.user.role).toBe('user');
    expect((await second.resolve(token))?.user.role).toBe('user');

    await users.setRole(user.id, 'admin');
    // still cached: this is why role changes must invalidate
    expect((await first.resolve(token))?.user.role).toBe('user');

    first.invalidateUser(user.id);
    expect((await first.resolve(token))?.user.role).toBe('admin');
    expect((await second.resolve(token))?.user.role).toBe('admin');
  });

  it('forgets a destroyed session in a process that had cached it, even if another process destroyed it', async () => {
    const { process } = setup();
    const first = process();
    const second = process();
    const { token } = await first.create((await insertUser(database.db)).id);
    expect(await first.resolve(token)).not.toBeNull();

    await second.destroy(token);
    expect(await first.resolve(token)).toBeNull();
  });

  it('refuses unknown, empty and oversized tokens', async () => {
    const sessions = setup().process();
    expect(await sessions.resolve('not-a-session')).toBeNull();
    expect(await sessions.resolve('')).toBeNull();
    expect(await sessions.resolve('x'.repeat(500))).toBeNull();
  });
});
