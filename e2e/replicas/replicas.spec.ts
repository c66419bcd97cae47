import { type Browser, type BrowserContext, type Page, request } from '@playwright/test';
import sharp from 'sharp';

import { zipExport } from '../../apps/server/src/test/engine-exports';
import { expect, registerAccount, signIn, test, uniqueName } from '../fixtures';
import { publishRoomsGame } from '../fixtures/rooms-game';
import { ADMIN, missingPrerequisite, PORTS, SITE, type Stack, startStack } from './stack';

/*
 * Two replicas behind nginx, proven in Chromium (issue: operate): deploy/nginx.conf in front of
 * two server processes that share only PostgreSQL, Redis and one bucket (STORAGE=s3 on a test
 * S3 server; each replica's folders are its own and empty). Every browser
 * context is a client of its own address (X-Test-Client, honoured by the test's nginx only), so
 * ip_hash sends it to the replica the test chose for it.
 */

test.describe.configure({ mode: 'serial' });

const missing = missingPrerequisite();
let stack: Stack | undefined;
/** A client address that ip_hash sends to each replica. */
const clientOf: Record<'a' | 'b', string> = { a: '', b: '' };
const upstreamOf = { a: `127.0.0.1:${PORTS.a}`, b: `127.0.0.1:${PORTS.b}` };

test.beforeAll(async () => {
  test.skip(missing !== undefined, missing);
  test.setTimeout(180_000);
  stack = await startStack();
  const api = await request.newContext({ baseURL: SITE });
  try {
    for (let n = 1; n < 64 && (!clientOf.a || !clientOf.b); n++) {
      const address = `10.${n}.${n * 3}.7`;
      const response = await api.get('/api/health', { headers: { 'X-Test-Client': address } });
      const upstream = response.headers()['x-upstream'];
      const replica = upstream === upstreamOf.a ? 'a' : upstream === upstreamOf.b ? 'b' : undefined;
      if (replica && !clientOf[replica]) {
        clientOf[replica] = address;
      }
    }
  } finally {
    await api.dispose();
  }
  expect(clientOf.a && clientOf.b, 'addresses for both replicas').toBeTruthy();
});

test.afterAll(async () => {
  await stack?.stop();
});

/** A browser of its own (cookies, client address) that the proxy sends to `replica`. */
async function clientOn(browser: Browser, replica: 'a' | 'b'): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL: SITE,
    extraHTTPHeaders: { 'X-Test-Client': clientOf[replica] },
  });
  return context;
}

/** Which replicas answered the page's own requests (documents, API calls) from now on. */
function recordUpstreams(page: Page): Set<string> {
  const seen = new Set<string>();
  page.on('response', (response) => {
    if (response.url().startsWith(SITE)) {
      const upstream = response.headers()['x-upstream'];
      if (upstream) {
        seen.add(upstream);
      }
    }
  });
  return seen;
}

/** The signed-in member on replica B, shared by the tests below, and the admin on A. */
let member: { context: BrowserContext; page: Page; username: string; id: string };
let admin: { context: BrowserContext; page: Page };
const game = { id: uniqueName('Replicated'), title: '', marker: `played-${Date.now()}` };

/** A build page that shows `marker`, as the zip an admin uploads. */
const buildOf = (marker: string) =>
  zipExport({
    'index.html': Buffer.from(
      `<!DOCTYPE html><html lang="en"><head><title>${marker}</title></head><body><p id="marker">${marker}</p></body></html>`,
    ),
  });

test('a sign-in through the proxy stays on its replica (sticky): pages, API calls, Socket.IO polling', async ({
  browser,
}) => {
  const context = await clientOn(browser, 'b');
  const page = await context.newPage();
  const upstreams = recordUpstreams(page);
  const account = await registerAccount(context.request, 'replica');
  await signIn(page, account);
  await expect(page).toHaveURL(/\/$/);
  await expect(
    page.getByRole('banner').getByRole('link', { name: account.username }),
  ).toBeVisible();
  await page.goto('/games');
  await expect(
    page.getByRole('banner').getByRole('link', { name: account.username }),
  ).toBeVisible();
  expect([...upstreams]).toEqual([upstreamOf.b]);
  member = { context, page, username: account.username, id: account.id };
});

test('Live Activity on one replica counts the guests of both', async ({ browser }) => {
  const context = await clientOn(browser, 'a');
  const page = await context.newPage();
  await signIn(page, ADMIN, '/login?admin=true&redirect=/admin');
  await expect(page.getByRole('heading', { name: 'Live Activity' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText('Live');
  admin = { context, page };
  const anonymous = page
    .locator('.stat-card')
    .filter({ has: page.getByText('Anonymous Users', { exact: true }) })
    .locator('dd');
  const before = Number(await anonymous.innerText());
  const guests = [await clientOn(browser, 'a'), await clientOn(browser, 'b')];
  try {
    for (const guest of guests) {
      const guestPage = await guest.newPage();
      await guestPage.goto('/games');
    }
    // B's guest is pushed to A's admin through Redis (presence and the Socket.IO adapter)
    await expect(anonymous).toHaveText(String(before + 2), { timeout: 15_000 });
    // the signed-in member on B is listed as active
    await expect(
      page.getByRole('table', { name: 'Active Users' }).getByRole('rowheader', {
        name: member.username,
      }),
    ).toBeVisible({ timeout: 15_000 });
  } finally {
    await Promise.all(guests.map((guest) => guest.close()));
  }
});

test("an admin's role change on one replica applies on the other at the next request", async () => {
  const changed = await admin.page.request.post('/api/update-role', {
    data: { userId: member.id, role: 'admin' },
  });
  expect(changed.status(), await changed.text()).toBe(200);
  expect(changed.headers()['x-upstream']).toBe(upstreamOf.a);
  const current = await member.page.request.get('/api/auth/current-user');
  expect(current.headers()['x-upstream']).toBe(upstreamOf.b);
  expect(((await current.json()) as { user: { role: string } }).user.role).toBe('admin');
  // and back: the admin pages of B refuse the member again at once
  expect(
    (
      await admin.page.request.post('/api/update-role', {
        data: { userId: member.id, role: 'user' },
      })
    ).status(),
  ).toBe(200);
  expect((await member.page.request.get('/api/users')).status()).toBe(403);
});

test('a build published through one replica is played through the other', async () => {
  game.title = `Replicated ${game.id}`;
  const api = admin.page.request;
  const created = await api.post('/api/admin/games', {
    data: {
      id: game.id,
      title: game.title,
      description: 'Published on one replica, played on the other.',
      instructions: 'Watch.',
      section: 'html5',
      access: 'public',
    },
  });
  expect(created.status(), await created.text()).toBe(201);
  const uploaded = await api.put(`/api/admin/games/${game.id}/build`, {
    headers: { 'Content-Type': 'application/zip' },
    data: await buildOf(game.marker),
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  expect(uploaded.headers()['x-upstream']).toBe(upstreamOf.a);
  const published = await api.patch(`/api/admin/games/${game.id}`, { data: { published: true } });
  expect(published.status()).toBe(200);

  // the member, on B, finds it on the games page and plays it
  const { page } = member;
  await page.goto('/games');
  await expect(page.getByRole('link', { name: game.title }).first()).toBeVisible();
  await page.goto(`/games?play=${game.id}`);
  await expect(
    page.frameLocator(`iframe[title="${game.title} (game)"]`).locator('#marker'),
  ).toHaveText(game.marker);
});

test('media uploaded through one replica shows through the other', async () => {
  const png = await sharp({
    create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 40, b: 90 } },
  })
    .png()
    .toBuffer();
  const uploaded = await admin.page.request.post('/api/admin/media', {
    headers: { 'Content-Type': 'image/png', 'X-File-Name': `${uniqueName('replica')}.png` },
    data: png,
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  expect(uploaded.headers()['x-upstream']).toBe(upstreamOf.a);
  const { media } = (await uploaded.json()) as { media: { url: string } };

  // the member's browser, on B, loads it as an image
  const { page } = member;
  await page.goto('/games');
  const served = await page.request.get(media.url);
  expect(served.status()).toBe(200);
  expect(served.headers()['x-upstream']).toBe(upstreamOf.b);
  const width = await page.evaluate(async (url) => {
    const image = new Image();
    image.src = url;
    await image.decode();
    return image.naturalWidth;
  }, media.url);
  expect(width).toBeGreaterThan(0);
});

test('a new version and a rollback through one replica are live on the other', async () => {
  const api = admin.page.request;
  const marker = `${game.marker}-v2`;
  const uploaded = await api.put(`/api/admin/games/${game.id}/build`, {
    headers: { 'Content-Type': 'application/zip' },
    data: await buildOf(marker),
  });
  expect(uploaded.status(), await uploaded.text()).toBe(201);
  expect(uploaded.headers()['x-upstream']).toBe(upstreamOf.a);
  const { page } = member;
  const frame = () => page.frameLocator(`iframe[title="${game.title} (game)"]`).locator('#marker');
  await page.goto(`/games?play=${game.id}`);
  await expect(frame()).toHaveText(marker);

  const rolledBack = await api.post(`/api/admin/games/${game.id}/builds/1/activate`, {
    data: {},
  });
  expect(rolledBack.status(), await rolledBack.text()).toBe(200);
  expect(rolledBack.headers()['x-upstream']).toBe(upstreamOf.a);
  // B learns of it through Redis (the catalogue's invalidation), not a folder they share
  await page.goto('/');
  await page.goto(`/games?play=${game.id}`);
  await expect(frame()).toHaveText(game.marker);
});

test('players on the two replicas share a private room of an uploaded game (rooms through Redis)', async () => {
  const board = await publishRoomsGame(
    admin.page.request,
    { guests: false, chat: true, graceSeconds: 20, maxPlayers: 4 },
    ADMIN,
  );
  const frameOf = (page: Page) => page.frameLocator(`iframe[title="${board.title} (game)"]`);

  // the admin, on A, creates a private room in the game
  const seenA = recordUpstreams(admin.page);
  await admin.page.goto(`/games?play=${board.id}`);
  const frameA = frameOf(admin.page);
  await frameA.getByRole('button', { name: 'Create private room' }).click();
  await expect(frameA.locator('#room')).toContainText(/Room [A-Z2-9]{6}/);
  const code = /Room ([A-Z2-9]{6})/.exec((await frameA.locator('#room').textContent()) ?? '')?.[1];
  expect(code).toBeTruthy();

  // the member, on B, opens the invite link and lands in the same room
  const seenB = recordUpstreams(member.page);
  await member.page.goto(`/games?play=${board.id}&room=${code}`);
  const frameB = frameOf(member.page);
  await expect(frameB.locator('#room')).toContainText(`Room ${code}`);
  await expect(frameA.getByRole('list', { name: 'Players' })).toContainText(member.username);

  // moves cross from one replica to the other, both ways
  await frameA.getByRole('button', { name: 'Cell 1', exact: true }).click();
  await expect(frameB.getByRole('button', { name: `Cell 1: ${ADMIN.username}` })).toBeVisible();
  await frameB.getByRole('button', { name: 'Cell 9', exact: true }).click();
  await expect(frameA.getByRole('button', { name: `Cell 9: ${member.username}` })).toBeVisible();
  expect([...seenA]).toEqual([upstreamOf.a]);
  expect([...seenB]).toEqual([upstreamOf.b]);

  // the admin's live rooms list it, whichever replica answers
  const rooms = await admin.page.request.get(`/api/admin/rooms?gameId=${board.id}`);
  expect(rooms.status()).toBe(200);
  expect(((await rooms.json()) as { rooms: { code: string; players: number }[] }).rooms).toEqual([
    expect.objectContaining({ code, players: 2 }),
  ]);
  await member.page.goto(`/games?play=${game.id}`);
});

test('a replica killed mid-session leaves its players signed in and playing', async () => {
  const { page } = member;
  await stack?.kill('b');
  // the next request of B's player reaches A (nginx passes a refused connection on)
  const reloaded = await page.reload();
  expect(reloaded?.status()).toBe(200);
  expect(reloaded?.headers()['x-upstream']).toMatch(new RegExp(`:${PORTS.a}$`));
  await expect(page.getByRole('banner').getByRole('link', { name: member.username })).toBeVisible();
  await expect(
    page.frameLocator(`iframe[title="${game.title} (game)"]`).locator('#marker'),
  ).toHaveText(game.marker);
  const current = await page.request.get('/api/auth/current-user');
  expect(((await current.json()) as { user: { username: string } }).user.username).toBe(
    member.username,
  );
  expect(current.headers()['x-upstream']).toBe(upstreamOf.a);
  await member.context.close();
  await admin.context.close();
});
