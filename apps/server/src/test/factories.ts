import { randomBytes } from 'node:crypto';

import { eq } from 'drizzle-orm';
import { expect } from 'vitest';

import type { RegisterResponse, Role } from '@portfolio/types';
import type { AdminPost, AdminPostResponse } from '@portfolio/types/devlog';
import {
  type AdminGameResponse,
  type GameBuild,
  GameBuildResponse,
} from '@portfolio/types/game-host';
import { MediaUploadResponse, type StoredMedia } from '@portfolio/types/media';

import type { Db } from '../db/client.js';
import { users } from '../db/schema.js';
import { makeZip, someScript } from '../modules/game-host/test-zips.js';
import { createUsersRepo, type UserRow } from '../modules/users/repo.js';
import { SIGNED_IN_PASSWORD, type TestApp, type TestClient, uniqueName } from './harness.js';

/*
 * Test data, made the way the site makes it: users register and sign in over HTTP, games are
 * created, uploaded and published through the admin API, boards, achievements, posts and media
 * likewise; only what no route sets (a confirmed email, a role, a Stripe customer) is written to
 * the database directly. Each builder asserts that the site accepted it and returns what a test
 * goes on with. Tests of a route itself call the route, not a builder.
 */

const DEFAULT_ROLE: Role = 'user';

export interface UserOptions {
  role?: Role;
  /** The username (default: a unique one starting with `prefix`, or the role). */
  username?: string;
  prefix?: string;
  /** The password (default SIGNED_IN_PASSWORD). */
  password?: string;
  /** An email given at registration (the site then mails a confirmation link); `true` is
   * `<username>@example.com`. */
  email?: string | true;
  /** A confirmed email set in the database, no mail sent; `true` is `<username>@example.com`. */
  confirmedEmail?: boolean | string;
  /** Other columns set in the database after registration (a Stripe customer, times). */
  columns?: Partial<typeof users.$inferInsert>;
  /** Headers sent with the registration and the sign-in (an `x-forwarded-for` address). */
  headers?: Record<string, string>;
}

export interface BuiltUser {
  id: string;
  username: string;
  password: string;
  email: string | null;
}

export interface SignedInUser extends BuiltUser {
  /** A client (a browser's cookie jar) signed in as this user. */
  client: TestClient;
}

/** A user built with an email has one (typed so). */
type WithEmail<O> = O extends { email: string | true } | { confirmedEmail: true | string }
  ? { email: string }
  : unknown;

const optionsOf = (roleOrOptions: Role | UserOptions): UserOptions =>
  typeof roleOrOptions === 'string' ? { role: roleOrOptions } : roleOrOptions;

/**
 * A user registered through POST /api/auth/register and not signed in; a role other than
 * 'user', a confirmed email and other `columns` are then set in the database.
 */
export async function buildUser<O extends UserOptions>(
  app: TestApp,
  roleOrOptions: Role | O = {} as O,
): Promise<BuiltUser & WithEmail<O>> {
  const options = optionsOf(roleOrOptions);
  const role = options.role ?? DEFAULT_ROLE;
  const username = options.username ?? uniqueName(options.prefix ?? role);
  const password = options.password ?? SIGNED_IN_PASSWORD;
  const givenEmail = options.email === true ? `${username}@example.com` : options.email;
  const body = { username, password, ...(givenEmail === undefined ? {} : { email: givenEmail }) };
  const registered = await app
    .client()
    .post<RegisterResponse>('/api/auth/register', body, options.headers);
  if (registered.status !== 201) {
    throw new Error(`register failed: ${registered.status} ${JSON.stringify(registered.body)}`);
  }
  const id = registered.body.user.id;
  if (role !== DEFAULT_ROLE) {
    await app.deps.users.setRole(id, role);
  }
  const confirmed =
    options.confirmedEmail === true ? `${username}@example.com` : options.confirmedEmail || null;
  const columns = {
    ...(confirmed ? { email: confirmed, emailConfirmedAt: new Date() } : {}),
    ...options.columns,
  };
  if (Object.keys(columns).length > 0) {
    await app.deps.database.db.update(users).set(columns).where(eq(users.id, id));
  }
  const email = confirmed ?? givenEmail ?? null;
  return { id, username, password, email } as BuiltUser & WithEmail<O>;
}

/** Signs a client in with a username and password (POST /api/auth/login must answer 200). */
export async function signIn(
  client: TestClient,
  user: { username: string; password: string },
  headers?: Record<string, string>,
): Promise<TestClient> {
  const login = await client.post(
    '/api/auth/login',
    { username: user.username, password: user.password },
    headers,
  );
  if (login.status !== 200) {
    throw new Error(`login failed: ${login.status} ${JSON.stringify(login.body)}`);
  }
  return client;
}

/**
 * A fresh user (see buildUser) signed in on a client of their own, or on `client` (a browser
 * that already has a visitor id or other cookies).
 */
export async function signedInClient<O extends UserOptions & { client?: TestClient }>(
  app: TestApp,
  roleOrOptions: Role | O = DEFAULT_ROLE,
): Promise<SignedInUser & WithEmail<O>> {
  const options: UserOptions & { client?: TestClient } = optionsOf(roleOrOptions);
  const user = (await buildUser(app, options)) as BuiltUser & WithEmail<O>;
  const client = await signIn(options.client ?? app.client(), user, options.headers);
  return { ...user, client };
}

/**
 * A user row written straight into a database, for tests of a service without the HTTP app
 * (the password hash is not a hash unless one is given: such a user cannot sign in).
 */
export function insertUser(
  db: Db,
  values: { username?: string; email?: string | null; passwordHash?: string; role?: Role } = {},
): Promise<UserRow> {
  return createUsersRepo(db).insert({
    username: values.username ?? uniqueName(),
    email: values.email ?? null,
    passwordHash: values.passwordHash ?? 'not-used',
    ...(values.role ? { role: values.role } : {}),
  });
}

/** A game id no other test uses (game ids start with a letter). */
export const uniqueGameId = (prefix = 'T') => `${prefix}${randomBytes(5).toString('hex')}`;

/**
 * A game made by the admin through POST /api/admin/games, not yet with a build or published;
 * returns its id. `fields` replace the defaults (an html5 game open to everyone).
 */
export async function buildGame(
  admin: TestClient,
  fields: Record<string, unknown> = {},
): Promise<string> {
  const id = typeof fields.id === 'string' ? fields.id : uniqueGameId();
  const response = await admin.post<AdminGameResponse>('/api/admin/games', {
    id,
    title: `Game ${id}`,
    description: 'A test game',
    instructions: 'Press keys.',
    section: 'html5',
    access: 'public',
    ...fields,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return id;
}

/** A small valid build: an index.html that loads game.js, both marked with `label`. */
export const plainBuild = (label = 'v1') =>
  makeZip({
    'index.html': `<!DOCTYPE html><html><body>${label}<script src="game.js"></script></body></html>`,
    'game.js': someScript(label),
  });

export interface UploadOptions {
  /** An admin API token, sent as a Bearer token. */
  token?: string;
  /** `false` keeps the live version (`?activate=false`). */
  activate?: boolean;
  contentType?: string;
  headers?: Record<string, string>;
}

/**
 * PUT /api/admin/games/<id>/build with `body` as `client` (its cookies, if any) or an API token;
 * answers the status and the parsed body, whatever they are (the route is often under test).
 */
export async function uploadBuild<T = unknown>(
  client: TestClient,
  gameId: string,
  body: Buffer | string,
  options: UploadOptions = {},
): Promise<{ status: number; body: T }> {
  const query = options.activate === false ? '?activate=false' : '';
  const cookie = client.cookieHeader;
  const response = await fetch(`${client.baseUrl}/api/admin/games/${gameId}/build${query}`, {
    method: 'PUT',
    body,
    headers: {
      'content-type': options.contentType ?? 'application/zip',
      ...(cookie ? { cookie } : {}),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...options.headers,
    },
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/** A build uploaded as the game's next version (plainBuild() by default; must answer 201). */
export async function buildGameBuild(
  admin: TestClient,
  gameId: string,
  body?: Buffer | Promise<Buffer>,
): Promise<GameBuild> {
  const uploaded = await uploadBuild(admin, gameId, await (body ?? plainBuild()));
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201);
  return GameBuildResponse.parse(uploaded.body).build;
}

/** Publishes a game with a build (PATCH published: true must answer 200). */
export async function publishGame(admin: TestClient, gameId: string): Promise<void> {
  const response = await admin.patch(`/api/admin/games/${gameId}`, { published: true });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
}

/**
 * A game everyone the access rule lets in can play: made (see buildGame), given `build`
 * (plainBuild() by default) and published; returns its id.
 */
export async function buildPublishedGame(
  admin: TestClient,
  fields: Record<string, unknown> & { build?: Buffer | Promise<Buffer> } = {},
): Promise<string> {
  const { build, ...gameFields } = fields;
  const id = await buildGame(admin, gameFields);
  await buildGameBuild(admin, id, build);
  await publishGame(admin, id);
  return id;
}

let boards = 0;

/**
 * A leaderboard the admin defines on a game (PUT …/leaderboards/<key> must answer 201); returns
 * its key, unique unless `key` is given. `fields` replace the defaults (a "desc" number board).
 */
export async function buildBoard(
  admin: TestClient,
  gameId: string,
  fields: Record<string, unknown> = {},
  key?: string,
): Promise<string> {
  boards += 1;
  const board = key ?? `board-${boards}-${randomBytes(3).toString('hex')}`;
  const response = await admin.put(`/api/admin/games/${gameId}/leaderboards/${board}`, {
    name: `Board ${board}`,
    order: 'desc',
    format: 'number',
    ...fields,
  });
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return board;
}

/** An achievement the admin defines on a game (PUT …/achievements/<key> must answer 201). */
export async function buildAchievement(
  admin: TestClient,
  gameId: string,
  key: string,
  fields: Record<string, unknown> = {},
): Promise<string> {
  const response = await admin.put(
    `/api/admin/games/${gameId}/achievements/${encodeURIComponent(key)}`,
    { name: key, points: 10, ...fields },
  );
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return key;
}

/** A devlog post's fields: a unique title and a short body, with `fields` over them. */
export function postFields(fields: Record<string, unknown> = {}) {
  const title = `Post ${uniqueName('t')}`;
  return { title, body: `Hello from **${title}**.`, ...fields };
}

/** A devlog post the admin writes (POST /api/admin/posts must answer 201); a draft by default. */
export async function buildPost(
  admin: TestClient,
  fields: Record<string, unknown> = {},
): Promise<AdminPost> {
  const response = await admin.post<AdminPostResponse>('/api/admin/posts', postFields(fields));
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.post;
}

/**
 * A PNG the admin uploads to the media library (POST /api/admin/media answers 201, or 200 for
 * bytes the library already holds); returns the stored item (URL, thumbnail and variants).
 */
export async function buildImage(
  admin: TestClient,
  options: {
    width?: number;
    height?: number;
    background?: string | { r: number; g: number; b: number };
    fileName?: string;
  } = {},
): Promise<StoredMedia> {
  // loaded here: most tests never need the image library
  const { default: sharp } = await import('sharp');
  const png = await sharp({
    create: {
      width: options.width ?? 64,
      height: options.height ?? 48,
      channels: 3,
      background: options.background ?? '#3366aa',
    },
  })
    .png()
    .toBuffer();
  const response = await fetch(`${admin.baseUrl}/api/admin/media`, {
    method: 'POST',
    body: png,
    headers: {
      'content-type': 'image/png',
      'x-file-name': encodeURIComponent(options.fileName ?? `${uniqueName('image')}.png`),
      cookie: admin.cookieHeader,
    },
  });
  const text = await response.text();
  expect([200, 201], text).toContain(response.status);
  return MediaUploadResponse.parse(JSON.parse(text)).media;
}
