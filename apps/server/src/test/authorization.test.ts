import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import { ROLES, type Role } from '@portfolio/types';

import {
  SIGNED_IN_PASSWORD,
  startTestApp,
  type TestApp,
  type TestClient,
  uniqueName,
} from './harness.js';
import { buildUser, signedInClient } from './factories.js';

interface RestrictedRoute {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  /** Roles that get a 2xx; every other signed-in role gets 403, a guest 401. */
  allowed: readonly Role[];
  /**
   * What an allowed role gets instead of a 2xx, when this app cannot complete the call (Stripe is
   * not configured here: the call passes authorization and answers 503).
   */
  allowedStatus?: number;
}

/** Replaced, in each request's path and body, by the id of a user registered for that request. */
const NEW_USER = ':new-user-id';
/** Replaced by an email no account uses yet. */
const NEW_EMAIL = ':new-email';

/**
 * Every route that needs a signed-in user or a role. Add a row with each new restricted route:
 * the last test below fails when a route of the spec answers a guest with 401/403 without a row.
 */
const RESTRICTED_ROUTES: RestrictedRoute[] = [
  // GET /api/auth/current-user is open to everyone: a guest gets 200 { user: null }
  { method: 'POST', path: '/api/auth/heartbeat', body: { currentPage: '/games' }, allowed: ROLES },
  { method: 'GET', path: '/api/active-users', allowed: ['admin'] },
  { method: 'GET', path: '/api/visitor-stats', allowed: ['admin'] },
  { method: 'GET', path: '/api/analytics/overview', allowed: ['admin'] },
  { method: 'GET', path: '/api/analytics/breakdown/page', allowed: ['admin'] },
  { method: 'GET', path: '/api/analytics/realtime', allowed: ['admin'] },
  { method: 'GET', path: '/api/analytics/games', allowed: ['admin'] },
  { method: 'GET', path: '/api/subscription', allowed: ROLES },
  {
    method: 'POST',
    path: '/api/create-subscription',
    body: { paymentMethodId: 'pm_card_visa', cancelAtPeriodEnd: false },
    allowed: ROLES,
    allowedStatus: 503,
  },
  { method: 'POST', path: '/api/subscription/sync', allowed: ROLES, allowedStatus: 503 },
  { method: 'POST', path: '/api/subscription/portal', allowed: ROLES, allowedStatus: 503 },
  { method: 'GET', path: '/api/users', allowed: ['admin'] },
  { method: 'GET', path: `/api/users/${NEW_USER}`, allowed: ['admin'] },
  { method: 'DELETE', path: `/api/users/${NEW_USER}`, allowed: ['admin'] },
  {
    method: 'POST',
    path: '/api/update-role',
    body: { userId: NEW_USER, role: 'subscriber' },
    allowed: ['admin'],
  },
  { method: 'GET', path: '/api/admin/media', allowed: ['admin'] },
  // the owner's content: admins only (or an admin API token)
  { method: 'GET', path: '/api/admin/gallery', allowed: ['admin'] },
  { method: 'GET', path: '/api/admin/tutorials', allowed: ['admin'] },
  { method: 'GET', path: '/api/admin/site', allowed: ['admin'] },
  { method: 'GET', path: '/api/admin/content/audit', allowed: ['admin'] },
  { method: 'GET', path: '/api/admin/posts', allowed: ['admin'] },
  { method: 'GET', path: '/api/admin/posts/audit', allowed: ['admin'] },
  {
    method: 'POST',
    path: '/api/admin/posts',
    body: { title: 'Authorization check' },
    allowed: ['admin'],
  },
  { method: 'POST', path: '/api/admin/posts/preview', body: { body: '# x' }, allowed: ['admin'] },
  { method: 'GET', path: '/api/user/profile', allowed: ROLES },
  { method: 'POST', path: '/api/user/update-email', body: { email: NEW_EMAIL }, allowed: ROLES },
  {
    method: 'POST',
    path: '/api/user/change-password',
    // every signed-in client's password (see signedInClient), kept as it is
    body: { currentPassword: SIGNED_IN_PASSWORD, newPassword: SIGNED_IN_PASSWORD },
    allowed: ROLES,
  },
];

/** Every call of the spec (section 7), for the completeness check. */
const SPEC_CALLS: Array<Pick<RestrictedRoute, 'method' | 'path' | 'body'>> = [
  { method: 'GET', path: '/api/auth/current-user' },
  { method: 'POST', path: '/api/auth/heartbeat', body: { currentPage: '/' } },
  { method: 'GET', path: '/api/game-status' },
  { method: 'GET', path: '/api/users' },
  { method: 'GET', path: `/api/users/${NEW_USER}` },
  { method: 'DELETE', path: `/api/users/${NEW_USER}` },
  { method: 'POST', path: '/api/update-role', body: { userId: NEW_USER, role: 'admin' } },
  { method: 'GET', path: '/api/active-users' },
  { method: 'GET', path: '/api/visitor-stats' },
  { method: 'GET', path: '/api/user/profile' },
  { method: 'POST', path: '/api/user/update-email', body: { email: 'someone@example.com' } },
  {
    method: 'POST',
    path: '/api/user/change-password',
    body: { currentPassword: 'x', newPassword: 'long enough password' },
  },
  {
    method: 'POST',
    path: '/api/create-subscription',
    body: { paymentMethodId: 'pm_card_visa', cancelAtPeriodEnd: false },
  },
];

let app: TestApp;
const clients = new Map<Role | 'guest', TestClient>();
beforeAll(async () => {
  app = await startTestApp();
  clients.set('guest', app.client());
  for (const role of ROLES) {
    clients.set(role, (await signedInClient(app, role)).client);
  }
});
afterAll(async () => {
  await app.stop();
});

/** Fills in the placeholders: a fresh user to act on, a fresh email. */
async function materialize(text: string): Promise<string> {
  let result = text;
  if (result.includes(NEW_USER)) {
    result = result.replaceAll(NEW_USER, (await buildUser(app, { prefix: 'target' })).id);
  }
  return result.replaceAll(NEW_EMAIL, `${uniqueName('mail')}@example.com`);
}

async function send(who: Role | 'guest', route: Pick<RestrictedRoute, 'method' | 'path' | 'body'>) {
  const client = clients.get(who);
  if (!client) {
    throw new Error(`no client for ${who}`);
  }
  const path = await materialize(route.path);
  const body: unknown =
    route.body === undefined
      ? undefined
      : JSON.parse(await materialize(JSON.stringify(route.body)));
  return client.request(route.method, path, body);
}

describe.each(RESTRICTED_ROUTES)('$method $path', (route) => {
  it('answers a guest with 401', async () => {
    const response = await send('guest', route);
    expect(response.status).toBe(401);
    expect(response.body).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
  });

  it.each(ROLES)('answers role %s as the table says', async (role) => {
    const response = await send(role, route);
    if (route.allowed.includes(role) && route.allowedStatus !== undefined) {
      expect(response.status, JSON.stringify(response.body)).toBe(route.allowedStatus);
    } else if (route.allowed.includes(role)) {
      expect(response.status, JSON.stringify(response.body)).toBeGreaterThanOrEqual(200);
      expect(response.status).toBeLessThan(300);
    } else {
      expect(response.status).toBe(403);
      expect(response.body).toMatchObject({ error: { code: 'FORBIDDEN' } });
    }
  });
});

it('has a row for every spec call that turns guests away', async () => {
  const listed = new Set(RESTRICTED_ROUTES.map((route) => `${route.method} ${route.path}`));
  const missing: string[] = [];
  for (const call of SPEC_CALLS) {
    const key = `${call.method} ${call.path}`;
    if (listed.has(key)) {
      continue;
    }
    const { status } = await send('guest', call);
    if (status === 401 || status === 403) {
      missing.push(`${key} (guest got ${status})`);
    }
  }
  expect(missing, 'restricted routes missing from RESTRICTED_ROUTES').toEqual([]);
});
