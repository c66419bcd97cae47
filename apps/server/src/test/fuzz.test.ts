import { request as httpRequest } from 'node:http';

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { signedInClient, startTestApp, type TestApp } from './harness.js';

/**
 * Every API route, with `:id` where the path takes an id. Routes other branches add are covered by
 * the arbitrary paths under /api as well.
 */
const ROUTES: ReadonlyArray<readonly [string, string]> = [
  ['GET', '/api/health'],
  ['GET', '/api/auth/current-user'],
  ['POST', '/api/auth/login'],
  ['POST', '/api/auth/register'],
  ['POST', '/api/auth/logout'],
  ['POST', '/api/auth/login/2fa'],
  ['GET', '/api/me/2fa'],
  ['POST', '/api/me/2fa/setup'],
  ['POST', '/api/me/2fa/enable'],
  ['POST', '/api/me/2fa/disable'],
  ['POST', '/api/auth/heartbeat'],
  ['POST', '/api/anonymous-heartbeat'],
  ['GET', '/api/active-users'],
  ['GET', '/api/visitor-stats'],
  ['GET', '/api/analytics/overview'],
  ['GET', '/api/analytics/breakdown/page'],
  ['GET', '/api/analytics/breakdown/:id'],
  ['GET', '/api/analytics/realtime'],
  ['GET', '/api/analytics/games'],
  ['POST', '/api/analytics/beacon'],
  ['POST', '/api/track-game-click'],
  ['GET', '/api/game-status'],
  ['GET', '/api/users'],
  ['GET', '/api/users/:id'],
  ['DELETE', '/api/users/:id'],
  ['POST', '/api/update-role'],
  ['GET', '/api/user/profile'],
  ['POST', '/api/user/update-email'],
  ['POST', '/api/user/change-password'],
  ['GET', '/api/subscription'],
  ['GET', '/api/subscription/config'],
  ['POST', '/api/subscription/portal'],
  ['POST', '/api/subscription/sync'],
  ['POST', '/api/create-subscription'],
  ['POST', '/api/stripe/webhook'],
  ['GET', '/api/admin/media'],
  ['POST', '/api/admin/media'],
  ['DELETE', '/api/admin/media/:id'],
  ['GET', '/api/gallery'],
  ['GET', '/api/tutorials'],
  ['GET', '/api/admin/gallery'],
  ['POST', '/api/admin/gallery'],
  ['PATCH', '/api/admin/gallery/:id'],
  ['DELETE', '/api/admin/gallery/:id'],
  ['PUT', '/api/admin/gallery/order'],
  ['GET', '/api/admin/tutorials'],
  ['POST', '/api/admin/tutorials'],
  ['PATCH', '/api/admin/tutorials/:id'],
  ['DELETE', '/api/admin/tutorials/:id'],
  ['PUT', '/api/admin/tutorials/order'],
  ['GET', '/api/admin/site'],
  ['PUT', '/api/admin/site'],
  ['GET', '/api/admin/content/audit'],
  ['GET', '/api/posts'],
  ['GET', '/api/posts/:id'],
  ['GET', '/api/admin/posts'],
  ['GET', '/api/admin/posts/:id'],
  ['POST', '/api/admin/posts'],
  ['POST', '/api/admin/posts/preview'],
  ['PATCH', '/api/admin/posts/:id'],
  ['DELETE', '/api/admin/posts/:id'],
  ['GET', '/api/games/TopDownRogueLike/leaderboards'],
  ['GET', '/api/games/TopDownRogueLike/leaderboards/:id'],
  ['POST', '/api/games/TopDownRogueLike/scores'],
  ['GET', '/api/games/TopDownRogueLike/achievements'],
  ['GET', '/api/games/TopDownRogueLike/saves'],
  ['PUT', '/api/admin/games/TopDownRogueLike/leaderboards/:id'],
  ['PUT', '/api/admin/games/TopDownRogueLike/achievements/:id'],
];

let app: TestApp;
let adminCookie = '';
let userCookie = '';
beforeAll(async () => {
  app = await startTestApp();
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

const request = fc
  .record({
    route: fc.constantFrom(...ROUTES),
    freePath: fc.array(segment, { minLength: 1, maxLength: 3 }),
    useFreePath: fc.boolean(),
    method: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD'),
    keepMethod: fc.boolean(),
    id: segment,
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
    const [routeMethod, routePath] = r.route;
    const path = r.useFreePath
      ? `/api/${r.freePath.join('/')}`
      : routePath.replace(':id', r.id || 'x');
    const headers: Record<string, string> = {};
    if (r.contentType) {
      headers['content-type'] = r.contentType;
    }
    const cookie = r.cookie === 'admin' ? adminCookie : r.cookie === 'user' ? userCookie : r.cookie;
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
    const method = r.keepMethod ? routeMethod : r.method;
    return {
      method,
      path: `${path}${r.query}`,
      headers,
      body: method === 'GET' || method === 'HEAD' ? undefined : r.body,
    };
  });

describe('fuzzing every route', () => {
  it('never answers 5xx, and answers every refusal with the error body', async () => {
    await fc.assert(
      fc.asyncProperty(request, async (sent) => {
        const response = await send(sent);
        // the one intended 5xx: payments are not configured in this app (no Stripe keys)
        const isPaymentsOff =
          response.status === 503 && response.text.includes('"PAYMENTS_NOT_CONFIGURED"');
        if (!isPaymentsOff) {
          expect(response.status, JSON.stringify(sent)).toBeLessThan(500);
        }
        if (response.status >= 400 && sent.method !== 'HEAD') {
          expect(response.type, JSON.stringify(sent)).toMatch(/^application\/json/);
          const parsed = JSON.parse(response.text) as {
            error?: { code?: unknown; message?: unknown };
          };
          expect(typeof parsed.error?.code, JSON.stringify(sent)).toBe('string');
          expect(typeof parsed.error?.message, JSON.stringify(sent)).toBe('string');
        }
      }),
      { numRuns: 600, seed: Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31) },
    );
  }, 240_000);
});
