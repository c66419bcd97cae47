import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type AppProcess, Browser, signIn, sleep, startApp, startPostgres } from './services.js';

/** One server process on a private PostgreSQL, which is stopped for 6 s and started again. */
let database: Awaited<ReturnType<typeof startPostgres>>;
let app: AppProcess | undefined;

beforeAll(async () => {
  database = await startPostgres();
  app = await startApp({ DATABASE_URL: database.url });
});
afterAll(async () => {
  if (app && app.child.exitCode === null) {
    await app.terminate();
  }
  database?.destroy();
});

async function timed<T>(call: () => Promise<T>): Promise<{ result: T; ms: number }> {
  const started = Date.now();
  const result = await call();
  return { result, ms: Date.now() - started };
}

describe('PostgreSQL restarted', () => {
  it('fails requests within 2 s during the outage, recovers without a restart, and loses no heartbeat time', async () => {
    const server = app as AppProcess;
    const credentials = { username: 'fault_pg_user', password: 'pg user password 1' };
    const user = await signIn(server, credentials.username, credentials.password);

    const accepted: number[] = [];
    const statuses: number[] = [];
    let running = true;
    const heartbeats = (async () => {
      while (running) {
        const { status } = await user.call(server.url, 'POST', '/api/auth/heartbeat', {
          currentPage: '/tutorials',
        });
        statuses.push(status);
        if (status === 200) {
          accepted.push(Date.now());
        }
        await sleep(500);
      }
    })();
    await sleep(3000);

    database.stop();
    const duringOutage: Array<{ status: number; ms: number }> = [];
    const stranger = new Browser();
    for (let i = 0; i < 3; i++) {
      const login = await timed(() =>
        stranger.call(server.url, 'POST', '/api/auth/login', credentials),
      );
      duringOutage.push({ status: login.result.status, ms: login.ms });
      const profile = await timed(() => user.call(server.url, 'GET', '/api/user/profile'));
      duringOutage.push({ status: profile.result.status, ms: profile.ms });
      await sleep(1000);
    }
    database.start();

    // recovers by itself: a login works again within a few seconds
    let recovered = false;
    const restartedAt = Date.now();
    while (!recovered && Date.now() - restartedAt < 10_000) {
      recovered =
        (await new Browser().call(server.url, 'POST', '/api/auth/login', credentials)).status ===
        200;
      await sleep(250);
    }
    await sleep(6000);
    running = false;
    await heartbeats;

    // shutdown writes the time gathered since the last flush
    const exit = await server.terminate();
    expect(exit.code).toBe(0);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const { rows } = await client.query<{ total: string }>(
      'select total_time_spent as total from users where username = $1',
      [credentials.username],
    );
    await client.end();

    expect(recovered).toBe(true);
    for (const attempt of duringOutage) {
      expect(attempt.ms).toBeLessThanOrEqual(2000);
      expect(attempt.status).toBe(503);
    }
    // heartbeats are served from memory throughout
    expect(statuses.every((status) => status === 200)).toBe(true);
    const first = accepted[0] ?? 0;
    const last = accepted.at(-1) ?? 0;
    const expectedSeconds = Math.floor((last - first) / 1000);
    expect(Number(rows[0]?.total)).toBeGreaterThanOrEqual(expectedSeconds - 1);
  });
});
