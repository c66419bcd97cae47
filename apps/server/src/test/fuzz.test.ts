import { request as httpRequest } from 'node:http';

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { createApp } from '../app.js';
import { type AppRoute, routesOf } from './app-routes.js';
import { startTestApp, type TestApp } from './harness.js';
import { signedInClient } from './factories.js';

/** A game the demo data publishes: a game-scoped route gets past its 404 with it. */
const KNOWN_GAME = 'TopDownRogueLike';
/** Inputs per route: every route gets a few, and the suite stays quick. */
const RUNS_PER_ROUTE = 4;
/** The heartbeats are answered in front of Express (heartbeat-fast-path.ts), off its route table. */
const FAST_PATH_ROUTES: readonly AppRoute[] = [
  { method: 'POST', path: '/api/auth/heartbeat' },
  { method: 'POST', path: '/api/anonymous-heartbeat' },
];

let app: TestApp;
let adminCookie = '';
let userCookie = '';
/** Every route of the app's own route table, so a new route is fuzzed without being listed. */
let routes: AppRoute[] = [];
beforeAll(async () => {
  app = await startTestApp();
  routes = [...routesOf(createApp(app.deps)), ...FAST_PATH_ROUTES];
  adminCookie = (await signedInClient(app, 'admin')).client.cookieHeader;
  userCookie = (await signedInClient(app)).client.cookieHeader;
});
afterAll(async () => {
  await app.stop();
});

interface Sent {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** A raw request (fetch would refuse or repair some of the malformed parts). */
function send(sent: Sent): Promise<{ status: number; text: string; type: string }> {
  const url = new URL(app.url);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: sent.method,
        path: sent.path,
        headers: {
          ...sent.headers,
          ...(sent.body === undefined ? {} : { 'content-length': Buffer.byteLength(sent.body) }),
        },
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, text, type: res.headers['content-type'] ?? '' }),
        );
      },
    );
    req.on('error', reject);
    req.end(sent.body);
  });
}

const text = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    '',
    '..',
    '%',
    '%zz',
    '%00',
    '\u202e',
    '\ud800',
    'null',
    '-1',
    '1e309',
    "' OR 1=1",
  ),
);
const id = fc.oneof(text, fc.uuid(), fc.integer().map(String), fc.constant('a'.repeat(5000)));
/** A path segment as a client might send it: often encoded, sometimes not. */
const segment = id.map((value) => {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ZZ';
  }
});
const query = fc
  .array(fc.tuple(segment, segment), { maxLength: 4 })
  .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join('&')}` : ''));
const json = fc.jsonValue({ maxDepth: 3 });
const body = fc.oneof(
  json.map((value) => JSON.stringify(value)),
  fc
    .dictionary(
      fc.constantFrom(
        'username',
        'password',
        'email',
        'currentPage',
        'visitorId',
        'gameId',
        'userId',
        'role',
        'currentPassword',
        'newPassword',
        'deviceInfo',
      ),
      fc.oneof(json, text),
    )
    .map((value) => JSON.stringify(value)),
  text,
  fc.constant('{"a":'),
  fc.constant(undefined),
);
const contentType = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  '',
);
const headerValue = text.map((value) => value.replace(/[^\x20-\x7e]/g, '').slice(0, 200));

/** A route's path with its parameters filled (`:id`, `*splat`; optional `{…}` parts kept). */
const filledPath = (routePath: string) =>
  fc
    .array(fc.oneof(segment, fc.constant(KNOWN_GAME)), { minLength: 8, maxLength: 8 })
    .map((values) => {
      let next = 0;
      return routePath
        .replace(/[:*]\w+/g, () => values[next++ % values.length] || 'x')
        .replace(/[{}]/g, '');
    });

/** A request to the route (or, for none, to an arbitrary path under /api). */
const requestTo = (route: AppRoute | undefined) =>
  fc
    .record({
      routePath: route ? filledPath(route.path) : fc.constant('/api'),
      freePath: fc.array(segment, { minLength: 1, maxLength: 3 }),
      useFreePath: fc.constant(route === undefined),
      method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'),
      keepMethod: fc.boolean(),
      query,
      body,
      contentType,
      cookie: fc.oneof(
        fc.constant(''),
        fc.constant('admin'),
        fc.constant('user'),
        headerValue.map((value) => `__Host-sid=${value}`),
        headerValue,
      ),
      origin: fc.oneof(fc.constant('same'), fc.constant(''), headerValue),
      extraHeader: fc.option(
        fc.tuple(
          fc.constantFrom(
            'accept',
            'accept-encoding',
            'content-encoding',
            'x-forwarded-for',
            'sec-fetch-site',
            'range',
            'if-none-match',
          ),
          headerValue,
        ),
      ),
    })
    .map((r): Sent => {
      const path = r.useFreePath ? `/api/${r.freePath.join('/')}` : r.routePath;
      const headers: Record<string, string> = {};
      if (r.contentType) {
        headers['content-type'] = r.contentType;
      }
      const cookie =
        r.cookie === 'admin' ? adminCookie : r.cookie === 'user' ? userCookie : r.cookie;
      if (cookie) {
        headers.cookie = cookie;
      }
      const origin = r.origin === 'same' ? app.url : r.origin;
      if (origin) {
        headers.origin = origin;
      }
      if (r.extraHeader) {
        headers[r.extraHeader[0]] = r.extraHeader[1];
      }
      const method = r.keepMethod && route ? route.method : r.method;
      return {
        method,
        path: `${path}${r.query}`,
        headers,
        body: method === 'GET' || method === 'HEAD' ? undefined : r.body,
      };
    });

/**
 * Addresses a person opens from a mail, not the web app: their refusals are pages (the
 * unsubscribe link's "not valid"), still never a 5xx.
 */
const PAGE_PATHS = ['/api/mail/unsubscribe'];
const answersWithPage = (sent: Sent) =>
  sent.method === 'GET' && PAGE_PATHS.some((path) => sent.path.split('?')[0] === path);

/** One answer checked: never a 5xx, and every refusal with the error body. */
async function expectHandled(sent: Sent): Promise<void> {
  const response = await send(sent);
  // the one intended 5xx: payments are not configured in this app (no Stripe keys)
  const isPaymentsOff =
    response.status === 503 && response.text.includes('"PAYMENTS_NOT_CONFIGURED"');
  if (!isPaymentsOff) {
    expect(response.status, JSON.stringify(sent)).toBeLessThan(500);
  }
  if (response.status >= 400 && sent.method !== 'HEAD' && !answersWithPage(sent)) {
    expect(response.type, JSON.stringify(sent)).toMatch(/^application\/json/);
    const parsed = JSON.parse(response.text) as {
      error?: { code?: unknown; message?: unknown };
    };
    expect(typeof parsed.error?.code, JSON.stringify(sent)).toBe('string');
    expect(typeof parsed.error?.message, JSON.stringify(sent)).toBe('string');
  }
}

const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

describe('fuzzing every route', () => {
  it('reads the routes from the app itself', () => {
    const listed = routes.map((route) => `${route.method} ${route.path}`);
    expect(listed).toEqual(expect.arrayContaining(['GET /api/health', 'POST /api/auth/login']));
    expect(listed).toContain('POST /api/admin/games/:id/builds/:version/activate');
    expect(listed).toContain('POST /api/stripe/webhook');
  });

  it('never answers 5xx, and answers every refusal with the error body', async () => {
    for (const route of routes) {
      await fc.assert(fc.asyncProperty(requestTo(route), expectHandled), {
        numRuns: RUNS_PER_ROUTE,
        seed,
      });
    }
    await fc.assert(fc.asyncProperty(requestTo(undefined), expectHandled), {
      numRuns: 150,
      seed,
    });
  }, 240_000);
});
