import { randomUUID } from 'node:crypto';

import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

import {
  ActiveUsersResponse,
  Profile,
  TOTAL_COUNT_HEADER,
  UpdateGrantResponse,
  UpdateRoleResponse,
  UserDetail,
  UserList,
} from '@portfolio/types';

import { users } from '../../db/schema.js';
import { openSocket, waitForConnect } from '../../realtime/socket-test-client.js';
import {
  currentUserOf,
  SIGNED_IN_PASSWORD,
  startIsolatedTestApp,
  startTestApp,
  type TestApp,
  type TestClient,
  uniqueName,
} from '../../test/harness.js';
import { buildUser, signedInClient } from '../../test/factories.js';

let app: TestApp;
let admin: Awaited<ReturnType<typeof signedInClient>>;

beforeAll(async () => {
  app = await startTestApp();
  admin = await signedInClient(app, 'admin');
});
afterAll(async () => {
  await app.stop();
});

/** Registers a user without signing in; returns its id. */
async function listUsers(client: TestClient, query: string) {
  const response = await client.get(`/api/users?${query}`);
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return {
    users: UserList.parse(response.body),
    total: Number(response.headers.get(TOTAL_COUNT_HEADER)),
  };
}

describe('GET /api/users', () => {
  const tag = uniqueName('find').toLowerCase();
  const names = [`${tag}_carol`, `${tag}_Alice`, `${tag}_bob`];
  const ids = new Map<string, string>();

  beforeAll(async () => {
    for (const name of names) {
      ids.set(name, (await buildUser(app, { username: name })).id);
    }
    // what the sorts order by: time on site and last login
    const { db } = app.deps.database;
    await db
      .update(users)
      .set({ totalTimeSpent: 7200, lastLogin: new Date('2025-01-02T00:00:00Z') })
      .where(eq(users.id, ids.get(`${tag}_carol`) ?? ''));
    await db
      .update(users)
      .set({ totalTimeSpent: 60, lastLogin: new Date('2025-03-04T00:00:00Z') })
      .where(eq(users.id, ids.get(`${tag}_Alice`) ?? ''));
  });

  it('answers the spec array of users, newest first, with the total in a header', async () => {
    const { users: page, total } = await listUsers(admin.client, '');
    expect(total).toBeGreaterThanOrEqual(4);
    expect(page.length).toBeLessThanOrEqual(50);
    const created = page.map((user) => user.created_at);
    expect(created).toEqual([...created].sort().reverse());
    const alice = (await listUsers(admin.client, `q=${tag}_alice`)).users[0];
    expect(alice).toEqual({
      id: ids.get(`${tag}_Alice`),
      username: `${tag}_Alice`,
      role: 'user',
      created_at: expect.any(String) as string,
      last_login: '2025-03-04T00:00:00.000Z',
      total_time_spent: 60,
      subscription_status: null,
      subscription_end_date: null,
      subscription_grant: null,
    });
  });

  it('searches any part of the username, ignoring letter case', async () => {
    const { users: found, total } = await listUsers(admin.client, `q=${tag.toUpperCase()}`);
    expect(total).toBe(3);
    expect(found.map((user) => user.username).sort()).toEqual([...names].sort());
    expect((await listUsers(admin.client, `q=${tag}_B`)).users.map((u) => u.username)).toEqual([
      `${tag}_bob`,
    ]);
    // LIKE's wildcards are plain characters in a search
    expect((await listUsers(admin.client, `q=${tag}%25`)).total).toBe(0);
    expect((await listUsers(admin.client, `q=${tag.slice(0, -1)}_`)).total).toBe(0);
  });

  it('sorts by each column both ways', async () => {
    const order = async (sort: string, direction: string) =>
      (await listUsers(admin.client, `q=${tag}&sort=${sort}&order=${direction}`)).users.map(
        (user) => user.username.slice(tag.length + 1),
      );
    expect(await order('username', 'asc')).toEqual(['Alice', 'bob', 'carol']);
    expect(await order('username', 'desc')).toEqual(['carol', 'bob', 'Alice']);
    expect(await order('total_time_spent', 'desc')).toEqual(['carol', 'Alice', 'bob']);
    // never signed in is the oldest login: first going up, last going down
    expect(await order('last_login', 'asc')).toEqual(['bob', 'carol', 'Alice']);
    expect(await order('last_login', 'desc')).toEqual(['Alice', 'carol', 'bob']);
    expect(await order('created_at', 'asc')).toEqual(['carol', 'Alice', 'bob']);
    expect(await order('role', 'asc')).toEqual(['Alice', 'bob', 'carol']);
  });

  it('pages through the matches', async () => {
    const first = await listUsers(admin.client, `q=${tag}&sort=username&order=asc&pageSize=2`);
    const second = await listUsers(
      admin.client,
      `q=${tag}&sort=username&order=asc&pageSize=2&page=2`,
    );
    expect(first.total).toBe(3);
    expect(second.total).toBe(3);
    expect(first.users.map((user) => user.username)).toEqual([`${tag}_Alice`, `${tag}_bob`]);
    expect(second.users.map((user) => user.username)).toEqual([`${tag}_carol`]);
    const beyond = await listUsers(admin.client, `q=${tag}&pageSize=2&page=9`);
    expect(beyond).toEqual({ users: [], total: 3 });
  });

  it.each([
    ['sort=password', /^sort: /],
    ['order=sideways', /^order: /],
    ['page=0', 'page: must be at least 1'],
    ['page=two', 'page: must be a whole number'],
    ['page=1.5', 'page: must be a whole number'],
    ['pageSize=101', 'pageSize: must be at most 100'],
    ['q=a&q=b', /^q: /],
    [`q=${'x'.repeat(65)}`, 'q: must be at most 64 characters'],
  ])('refuses %s with a 400 that says why', async (query, message) => {
    const response = await admin.client.get(`/api/users?${query}`);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({
      error: { code: 'BAD_REQUEST', message: expect.stringMatching(message) as string },
    });
  });
});

describe('GET /api/users/{userId}', () => {
  it('shows the account, the device of the last login, no records yet and the history', async () => {
    const username = uniqueName('device');
    const { id } = await buildUser(app, { username });
    const login = await app.client().post('/api/auth/login', {
      username,
      password: SIGNED_IN_PASSWORD,
      deviceInfo: {
        screenResolution: '390x844',
        timezone: 'Europe/Paris',
        language: 'fr-FR',
        userAgent:
          'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      },
    });
    expect(login.status).toBe(200);

    const response = await admin.client.get(`/api/users/${id}`);
    expect(response.status).toBe(200);
    const detail = UserDetail.parse(response.body);
    expect(detail).toMatchObject({
      id,
      username,
      role: 'user',
      last_login: expect.any(String) as string,
      total_time_spent: 0,
      device_info: {
        type: 'mobile',
        os: 'iOS',
        browser: 'Safari',
        screenWidth: 390,
        screenHeight: 844,
      },
      games: [],
      achievements: [],
      history: [],
    });
  });

  it("answers 'Unknown' and 0 for a user who never signed in", async () => {
    const { id } = await buildUser(app, { prefix: 'member' });
    const detail = UserDetail.parse((await admin.client.get(`/api/users/${id}`)).body);
    expect(detail.last_login).toBeNull();
    expect(detail.device_info).toEqual({
      type: 'Unknown',
      os: 'Unknown',
      browser: 'Unknown',
      screenWidth: 0,
      screenHeight: 0,
    });
  });

  it("answers 404 'No such user' for an unknown id and for a malformed one", async () => {
    const unknown = await admin.client.get(`/api/users/${randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: { code: 'NOT_FOUND', message: 'No such user' } });

    for (const bad of ['123', 'not-a-uuid', `${randomUUID()}x`, '%00']) {
      const malformed = await admin.client.get(`/api/users/${bad}`);
      expect(malformed.status, bad).toBe(404);
      expect(malformed.body).toEqual({ error: { code: 'NOT_FOUND', message: 'No such user' } });
    }
  });
});

describe('POST /api/update-role', () => {
  it('changes the role, answers it, applies it to the next request and audits it', async () => {
    const member = await signedInClient(app, 'user');
    expect((await currentUserOf(member.client))?.role).toBe('user');

    const response = await admin.client.post('/api/update-role', {
      userId: member.id,
      role: 'subscriber',
    });
    expect(response.status).toBe(200);
    expect(UpdateRoleResponse.parse(response.body)).toEqual({
      message: 'Role updated successfully',
      user: { id: member.id, username: member.username, role: 'subscriber' },
    });
    // the member's cached session was dropped: their next request has the new role
    expect((await currentUserOf(member.client))?.role).toBe('subscriber');

    const detail = UserDetail.parse((await admin.client.get(`/api/users/${member.id}`)).body);
    expect(detail.role).toBe('subscriber');
    expect(detail.history).toEqual([
      {
        id: expect.any(String) as string,
        at: expect.any(String) as string,
        action: 'role-change',
        actor_id: admin.id,
        actor_username: admin.username,
        target_id: member.id,
        target_username: member.username,
        old_value: 'user',
        new_value: 'subscriber',
      },
    ]);
    expect(Date.now() - Date.parse(detail.history[0]?.at ?? '')).toBeLessThan(60_000);
  });

  it('records Subscriber as a grant: active from now, no end, apart from Stripe; other roles end it', async () => {
    const member = await signedInClient(app, 'user');
    const plain = UserDetail.parse((await admin.client.get(`/api/users/${member.id}`)).body);
    expect(plain.subscription_status).toBeNull();
    expect(plain.subscription_grant).toBeNull();

    const before = Date.now();
    await admin.client.post('/api/update-role', { userId: member.id, role: 'subscriber' });
    const detail = UserDetail.parse((await admin.client.get(`/api/users/${member.id}`)).body);
    // Stripe's status stays Stripe's (none); the grant is its own state
    expect(detail.subscription_status).toBeNull();
    expect(detail.subscription_grant).toEqual({
      granted_at: expect.any(String) as string,
      ends_at: null,
    });
    const grantedAt = Date.parse(detail.subscription_grant?.granted_at ?? '');
    expect(grantedAt).toBeGreaterThanOrEqual(before - 1000);
    expect(grantedAt).toBeLessThanOrEqual(Date.now() + 1000);
    // the user's own profile says the same
    const profile = Profile.parse((await member.client.get('/api/user/profile')).body);
    expect(profile.subscription_grant).toEqual(detail.subscription_grant);
    // and the list row too
    const { users: rows } = await listUsers(admin.client, `q=${member.username}`);
    expect(rows[0]?.subscription_grant).toEqual(detail.subscription_grant);

    await admin.client.post('/api/update-role', { userId: member.id, role: 'user' });
    const ended = UserDetail.parse((await admin.client.get(`/api/users/${member.id}`)).body);
    expect(ended.subscription_grant).toBeNull();
    expect(
      Profile.parse((await member.client.get('/api/user/profile')).body).subscription_grant,
    ).toBeNull();
  });

  it('leaves the same role alone without an audit entry', async () => {
    const { id } = await buildUser(app, { prefix: 'member' });
    const response = await admin.client.post('/api/update-role', { userId: id, role: 'user' });
    expect(response.status).toBe(200);
    expect(UpdateRoleResponse.parse(response.body).user.role).toBe('user');
    expect(UserDetail.parse((await admin.client.get(`/api/users/${id}`)).body).history).toEqual([]);
  });

  it('refuses bad input with a 400 and unknown users with a 404', async () => {
    const { id } = await buildUser(app, { prefix: 'member' });
    const cases: Array<[unknown, string | RegExp]> = [
      [{ userId: id, role: 'superuser' }, /^role: /],
      [{ userId: id }, /^role: /],
      [{ userId: 'abc', role: 'user' }, 'userId: must be a valid user id'],
      [{ role: 'user' }, /^userId: /],
      ['[]', /./],
    ];
    for (const [body, message] of cases) {
      const response = await admin.client.post('/api/update-role', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toMatchObject({
        error: { message: expect.stringMatching(message) as string },
      });
    }
    const unknown = await admin.client.post('/api/update-role', {
      userId: randomUUID(),
      role: 'admin',
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: { message: 'No such user' } });
  });

  it('does not let an admin demote themselves', async () => {
    const response = await admin.client.post('/api/update-role', {
      userId: admin.id,
      role: 'user',
    });
    expect(response.status).toBe(409);
    expect(response.body).toEqual({
      error: { code: 'CONFLICT', message: 'You cannot change your own role' },
    });
    // still an admin, and making themselves admin again changes nothing
    const again = await admin.client.post('/api/update-role', { userId: admin.id, role: 'admin' });
    expect(again.status).toBe(200);
    expect((await admin.client.get('/api/users')).status).toBe(200);
  });

  it('drops a demoted admin from the admin calls at once', async () => {
    const other = await signedInClient(app, 'admin');
    expect((await other.client.get('/api/users')).status).toBe(200);
    const response = await admin.client.post('/api/update-role', {
      userId: other.id,
      role: 'user',
    });
    expect(response.status).toBe(200);
    expect((await other.client.get('/api/users')).status).toBe(403);
  });
});

describe('PUT /api/users/{userId}/subscription-grant', () => {
  const grantPath = (id: string) => `/api/users/${id}/subscription-grant`;
  const detailOf = async (id: string) =>
    UserDetail.parse((await admin.client.get(`/api/users/${id}`)).body);
  const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

  it('sets and removes the end of a granted subscription, each in the history', async () => {
    const member = await signedInClient(app, 'user');
    const none = await admin.client.request('PUT', grantPath(member.id), { ends_at: inDays(10) });
    expect(none.status).toBe(409);
    expect(none.body).toMatchObject({
      error: {
        message: `${member.username} has no subscription granted by an admin: set their role to Subscriber first`,
      },
    });

    await admin.client.post('/api/update-role', { userId: member.id, role: 'subscriber' });
    const endsAt = inDays(10);
    const saved = await admin.client.request('PUT', grantPath(member.id), { ends_at: endsAt });
    expect(saved.status).toBe(200);
    expect(UpdateGrantResponse.parse(saved.body)).toMatchObject({
      message: 'End date saved',
      subscription_grant: { ends_at: endsAt },
    });
    const detail = await detailOf(member.id);
    expect(detail.subscription_grant?.ends_at).toBe(endsAt);
    expect(detail.history[0]).toMatchObject({
      action: 'grant-end',
      actor_username: admin.username,
      old_value: null,
      new_value: endsAt,
    });
    expect(
      Profile.parse((await member.client.get('/api/user/profile')).body).subscription_grant
        ?.ends_at,
    ).toBe(endsAt);

    const removed = await admin.client.request('PUT', grantPath(member.id), { ends_at: null });
    expect(UpdateGrantResponse.parse(removed.body)).toMatchObject({
      message: 'End date removed',
      subscription_grant: { ends_at: null },
    });
    expect((await detailOf(member.id)).history[0]).toMatchObject({
      action: 'grant-end',
      old_value: endsAt,
      new_value: null,
    });
  });

  it('refuses a past or malformed end, other roles and unknown users', async () => {
    const member = await signedInClient(app, 'user');
    await admin.client.post('/api/update-role', { userId: member.id, role: 'subscriber' });
    const cases: Array<[unknown, string | RegExp]> = [
      [{ ends_at: inDays(-1) }, 'ends_at: must be in the future'],
      [{ ends_at: 'next week' }, 'ends_at: must be a date and time'],
      [{}, /^ends_at: /],
    ];
    for (const [body, message] of cases) {
      const response = await admin.client.request('PUT', grantPath(member.id), body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body).toMatchObject({
        error: { message: expect.stringMatching(message) as string },
      });
    }
    const body = { ends_at: inDays(3) };
    expect((await admin.client.request('PUT', grantPath(randomUUID()), body)).status).toBe(404);
    expect((await member.client.request('PUT', grantPath(member.id), body)).status).toBe(403);
    expect((await app.client().request('PUT', grantPath(member.id), body)).status).toBe(401);
    expect((await detailOf(member.id)).subscription_grant?.ends_at).toBeNull();
  });

  it('ends the grant when its time comes: the role is user again from the next request', async () => {
    const member = await signedInClient(app, 'user');
    const paying = await signedInClient(app, 'user');
    for (const user of [member, paying]) {
      await admin.client.post('/api/update-role', { userId: user.id, role: 'subscriber' });
    }
    // the second one also pays through Stripe: they stay a subscriber when the grant ends
    await app.deps.database.db
      .update(users)
      .set({ subscriptionStatus: 'active' })
      .where(eq(users.id, paying.id));
    const soon = new Date(Date.now() + 1000).toISOString();
    for (const user of [member, paying]) {
      const response = await admin.client.request('PUT', grantPath(user.id), { ends_at: soon });
      expect(response.status).toBe(200);
    }
    // not yet
    await app.deps.adminUsers.endExpiredGrants();
    expect((await currentUserOf(member.client))?.role).toBe('subscriber');

    await new Promise((resolve) => setTimeout(resolve, Date.parse(soon) - Date.now() + 50));
    await app.deps.adminUsers.endExpiredGrants();
    expect((await currentUserOf(member.client))?.role).toBe('user');
    const ended = await detailOf(member.id);
    expect(ended.subscription_grant).toBeNull();
    expect(ended.history[0]).toMatchObject({
      action: 'role-change',
      actor_username: 'system',
      old_value: 'subscriber',
      new_value: 'user',
    });
    expect((await currentUserOf(paying.client))?.role).toBe('subscriber');
    expect((await detailOf(paying.id)).subscription_grant).toBeNull();
  });
});

describe('DELETE /api/users/{userId}', () => {
  it('removes the user and their sessions; their next request is a guest', async () => {
    const member = await signedInClient(app, 'subscriber');
    const page = `/games/${uniqueName('page')}`;
    expect((await member.client.post('/api/auth/heartbeat', { currentPage: page })).status).toBe(
      200,
    );

    const response = await admin.client.delete(`/api/users/${member.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ message: 'User deleted successfully' });

    expect(await currentUserOf(member.client)).toBeNull();
    const heartbeat = await member.client.post('/api/auth/heartbeat', { currentPage: page });
    expect(heartbeat.status).toBe(401);
    expect((await member.client.get('/api/user/profile')).status).toBe(401);
    // and the password no longer opens anything
    const login = await app.client().post('/api/auth/login', {
      username: member.username,
      password: SIGNED_IN_PASSWORD,
    });
    expect(login.status).toBe(401);

    expect((await admin.client.get(`/api/users/${member.id}`)).status).toBe(404);
    expect((await listUsers(admin.client, `q=${member.username}`)).total).toBe(0);
    const active = ActiveUsersResponse.parse((await admin.client.get('/api/active-users')).body);
    expect(active.authenticated.map((entry) => entry.username)).not.toContain(member.username);
  });

  it("keeps the deleted user's name in the audit log", async () => {
    const { id, username } = await buildUser(app, { prefix: 'member' });
    expect((await admin.client.delete(`/api/users/${id}`)).status).toBe(200);
    const history = UserDetail.parse(
      (await admin.client.get(`/api/users/${admin.id}`)).body,
    ).history;
    expect(history).toContainEqual(
      expect.objectContaining({
        action: 'delete',
        actor_id: admin.id,
        actor_username: admin.username,
        target_id: id,
        target_username: username,
        old_value: 'user',
        new_value: null,
      }),
    );
  });

  it('drops an open admin socket of the deleted admin', async () => {
    const other = await signedInClient(app, 'admin');
    const recording = openSocket(app.url, { cookie: other.client.cookieHeader });
    try {
      await waitForConnect(recording.socket);
      const disconnected = new Promise<string>((resolve) =>
        recording.socket.once('disconnect', (reason) => resolve(reason)),
      );
      expect((await admin.client.delete(`/api/users/${other.id}`)).status).toBe(200);
      await expect(disconnected).resolves.toBe('io server disconnect');
    } finally {
      recording.close();
    }
  });

  it('refuses unknown, malformed and own ids', async () => {
    const unknown = await admin.client.delete(`/api/users/${randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toMatchObject({ error: { message: 'No such user' } });
    const malformed = await admin.client.delete('/api/users/42');
    expect(malformed.status).toBe(404);
    expect(malformed.body).toMatchObject({ error: { message: 'No such user' } });
    const self = await admin.client.delete(`/api/users/${admin.id}`);
    expect(self.status).toBe(409);
    expect(self.body).toEqual({
      error: { code: 'CONFLICT', message: 'You cannot delete your own account' },
    });
    expect(await currentUserOf(admin.client)).not.toBeNull();
  });
});

describe('the last admin', () => {
  let isolated: TestApp;
  beforeAll(async () => {
    isolated = await startIsolatedTestApp();
  });
  afterAll(async () => {
    await isolated.stop();
  });

  it('stays when two admins demote or delete each other at the same moment', async () => {
    // through the service, so both requests surely reach the database together (over HTTP the
    // second one may already find its own session ended)
    const { adminUsers } = isolated.deps;
    for (const action of ['demote', 'delete'] as const) {
      const first = await signedInClient(isolated, 'admin');
      const second = await signedInClient(isolated, 'admin');
      const remove = (actor: typeof first, target: typeof first) => {
        const as = { id: actor.id, username: actor.username, role: 'admin' as const };
        return action === 'demote'
          ? adminUsers.changeRole(as, { userId: target.id, role: 'user' })
          : adminUsers.deleteUser(as, target.id);
      };
      const outcomes = await Promise.allSettled([remove(first, second), remove(second, first)]);
      expect(outcomes.map((outcome) => outcome.status).sort(), action).toEqual([
        'fulfilled',
        'rejected',
      ]);
      const refused = outcomes.find((outcome) => outcome.status === 'rejected');
      expect(refused?.reason).toMatchObject({
        status: 409,
        message:
          action === 'demote'
            ? 'The last admin cannot be demoted'
            : 'The last admin cannot be deleted',
      });
      // exactly one of them is still an admin, and can still manage users
      const survivor = outcomes[0]?.status === 'fulfilled' ? first : second;
      const { users: listed } = await listUsers(survivor.client, 'sort=role&order=asc');
      expect(listed.filter((user) => user.role === 'admin').map((user) => user.id)).toEqual([
        survivor.id,
      ]);
      // the survivor steps aside so the next round starts from a fresh pair
      await isolated.deps.users.setRole(survivor.id, 'user');
    }
  });

  it('is never removed over HTTP either', async () => {
    const first = await signedInClient(isolated, 'admin');
    const second = await signedInClient(isolated, 'admin');
    const answers = await Promise.all([
      first.client.delete(`/api/users/${second.id}`),
      second.client.delete(`/api/users/${first.id}`),
    ]);
    // the second request is refused: as the last admin's deletion, or because its own
    // session ended first
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, expect.any(Number)]);
    const refused = answers.find((answer) => answer.status !== 200);
    expect([401, 409]).toContain(refused?.status);
    const survivor = answers[0]?.status === 200 ? first : second;
    expect((await survivor.client.get('/api/users')).status).toBe(200);
  });
});
