import { request as httpRequest } from 'node:http';

import { io } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { type AppProcess, signIn, sleep, startApp, startPostgres } from './services.js';

/** SIGTERM to a server under load; a new process then starts on the same port. */
let database: Awaited<ReturnType<typeof startPostgres>>;
let app: AppProcess | undefined;
let next: AppProcess | undefined;

beforeAll(async () => {
  database = await startPostgres();
  app = await startApp({ DATABASE_URL: database.url });
});
afterAll(async () => {
  for (const server of [app, next]) {
    if (server && server.child.exitCode === null) {
      await server.terminate();
    }
  }
  database?.destroy();
});

type Outcome =
  | { kind: 'answered'; status: number }
  | { kind: 'refused' }
  | { kind: 'failed'; error: string; sentAt: number; at: number };

/**
 * One request on its own connection (as a new browser connection would be). A refused connection
 * never reached the server (it had stopped accepting): not an in-flight request. `pauseMs` sends
 * the body in two parts, so the request is in flight while the signal arrives.
 */
function send(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
  pauseMs = 0,
): Promise<Outcome> {
  const target = new URL(url);
  const sentAt = Date.now();
  return new Promise((resolve) => {
    const req = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method,
        path,
        agent: false,
        headers: {
          origin: url,
          'content-type': 'application/json',
          ...headers,
          ...(body === undefined ? {} : { 'content-length': Buffer.byteLength(body) }),
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ kind: 'answered', status: res.statusCode ?? 0 }));
        res.on('error', (error) =>
          resolve({ kind: 'failed', error: error.message, sentAt, at: Date.now() }),
        );
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve(
        error.code === 'ECONNREFUSED'
          ? { kind: 'refused' }
          : {
              kind: 'failed',
              error: `${error.code ?? ''} ${error.message}`,
              sentAt,
              at: Date.now(),
            },
      ),
    );
    if (body !== undefined && pauseMs > 0) {
      req.write(body.slice(0, 5));
      setTimeout(() => req.end(body.slice(5)), pauseMs);
    } else {
      req.end(body);
    }
  });
}

describe('SIGTERM under load', () => {
  it('finishes every in-flight request, exits within 10 s, and connected clients reconnect to the next process', async () => {
    const server = app as AppProcess;
    const credentials = { username: 'fault_term_user', password: 'term user password 1' };
    const user = await signIn(server, credentials.username, credentials.password);
    const cookie = user.cookieHeader;

    const tab = io(server.url, {
      transports: ['websocket'],
      extraHeaders: { origin: server.url, cookie },
      forceNew: true,
      reconnectionDelay: 200,
      reconnectionDelayMax: 1000,
    });
    let connects = 0;
    tab.on('connect', () => connects++);
    await sleep(500);
    expect(connects).toBe(1);

    const outcomes: Outcome[] = [];
    let running = true;
    const loads = Array.from({ length: 6 }, (_, worker) =>
      (async () => {
        while (running) {
          const kind = worker % 3;
          const outcome =
            kind === 0
              ? await send(
                  server.url,
                  'POST',
                  '/api/auth/heartbeat',
                  { cookie },
                  JSON.stringify({ currentPage: '/' }),
                )
              : kind === 1
                ? await send(server.url, 'GET', '/api/auth/current-user', { cookie })
                : await send(
                    server.url,
                    'POST',
                    '/api/auth/login',
                    {},
                    JSON.stringify(credentials),
                  );
          outcomes.push(outcome);
          if (outcome.kind === 'refused') {
            await sleep(50);
          }
        }
      })(),
    );
    await sleep(1500);
    // requests whose bodies are still arriving when the signal comes
    const inFlight = [
      send(server.url, 'POST', '/api/auth/login', {}, JSON.stringify(credentials), 1500),
      send(
        server.url,
        'POST',
        '/api/auth/heartbeat',
        { cookie },
        JSON.stringify({ currentPage: '/games' }),
        1500,
      ),
    ];
    await sleep(200);
    const termAt = Date.now();
    const exit = server.terminate();
    const slow = await Promise.all(inFlight);
    const { code, ms } = await exit;
    running = false;
    await Promise.all(loads);

    // the next process on the same port: the tab reconnects by itself
    const port = Number(new URL(server.url).port);
    next = await startApp({ DATABASE_URL: database.url }, port);
    const reconnectStarted = Date.now();
    while (connects < 2 && Date.now() - reconnectStarted < 10_000) {
      await sleep(100);
    }
    tab.disconnect();

    expect(code).toBe(0);
    expect(ms).toBeLessThan(10_000);
    // answered, whatever the answer (the login may meet the per-address limit the load filled)
    expect(slow.map((outcome) => outcome.kind === 'answered' && outcome.status < 500)).toEqual([
      true,
      true,
    ]);
    // every request that was on its way when the signal came was answered; a connection made
    // after it may be reset by the kernel while the listener closes (it was never accepted: to
    // the client that is a refusal, and nothing of it ran)
    expect(
      outcomes
        .filter((outcome) => outcome.kind === 'failed' && outcome.sentAt < termAt)
        .map((outcome) => ({ ...outcome, termAt })),
    ).toEqual([]);
    for (const outcome of outcomes) {
      if (outcome.kind === 'failed') {
        expect(outcome.error).toMatch(/ECONNRESET/);
      }
    }
    const answered = outcomes.filter((outcome) => outcome.kind === 'answered');
    expect(answered.length).toBeGreaterThan(20);
    expect(
      answered.filter((outcome) => outcome.kind === 'answered' && outcome.status >= 500),
    ).toEqual([]);
    expect(connects).toBe(2);
  });
});
