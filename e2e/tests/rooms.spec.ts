import {
  type APIRequestContext,
  type Browser,
  type BrowserContext,
  type FrameLocator,
  type Page,
  request,
} from '@playwright/test';

import { E2E_ADMIN } from '../fixtures/constants';
import {
  type Account,
  expect,
  expectFitsPhoneWidth,
  expectNoSeriousA11yViolations,
  registerAccount,
  signIn,
  test,
} from '../fixtures';
import { publishRoomsGame } from '../fixtures/rooms-game';

/*
 * Rooms for an uploaded game that uses nothing but sdk.js (fixtures/rooms-game.ts), in Chromium:
 * A creates a private room and copies its invite link; B, a guest, opens it, signs in and lands
 * in the room; both see each other's moves; B's network drops and comes back within the grace
 * period and B keeps the seat (A hears no 'leave'); C watches, sees the moves and cannot move;
 * a chat message with markup shows as text; a player the admin muted cannot chat after
 * reconnecting; the viewer with its room bar and chat passes axe and fits a phone.
 */

const SITE = `http://127.0.0.1:${Number(process.env.E2E_PORT ?? 4300)}`;

async function adminApi(): Promise<APIRequestContext> {
  return request.newContext({ baseURL: SITE });
}

function gameFrame(page: Page, title: string): FrameLocator {
  return page.frameLocator(`iframe[title="${title} (game)"]`);
}

/** The seat's player id the game shows ("Room CODE me=<id>"). */
async function playerIdIn(frame: FrameLocator): Promise<string> {
  const text = (await frame.locator('#room').textContent()) ?? '';
  return /me=(\S+)/.exec(text)?.[1] ?? '';
}

async function newPlayer(browser: Browser, prefix: string) {
  const context = await browser.newContext({ baseURL: SITE });
  const page = await context.newPage();
  // a chat line must never run as script
  page.on('dialog', (dialog) => {
    throw new Error(`unexpected dialog: ${dialog.message()}`);
  });
  const account = await registerAccount(page.request, prefix);
  return { context, page, account };
}

async function openSignedIn(page: Page, account: Account, path: string) {
  await signIn(page, account);
  await expect(page).toHaveURL(/\/$/);
  await page.goto(path);
}

/** Cuts the context's network for a moment (within the grace period) and restores it. */
async function dropConnection(context: BrowserContext, page: Page) {
  await context.setOffline(true);
  await page.waitForTimeout(1_500);
  await context.setOffline(false);
}

test('players meet by invite link, keep their seat, watch, chat, and a muted player stays muted', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const admin = await adminApi();
  const game = await publishRoomsGame(admin, {
    guests: false,
    chat: true,
    graceSeconds: 20,
    maxPlayers: 4,
  });
  const playPath = `/games?play=${game.id}`;

  // A creates a private room in the game and copies the invite link from the viewer
  const a = await newPlayer(browser, 'ra');
  await a.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: SITE });
  await openSignedIn(a.page, a.account, playPath);
  const frameA = gameFrame(a.page, game.title);
  await frameA.getByRole('button', { name: 'Create private room' }).click();
  await expect(frameA.locator('#room')).toContainText(/Room [A-Z2-9]{6}/);
  const bar = a.page.getByRole('region', { name: 'Room' });
  await expect(bar).toContainText('Private room');
  await bar.getByRole('button', { name: 'Copy invite link' }).click();
  await expect(bar.getByRole('status')).toHaveText('Invite link copied.');
  const invite = await a.page.evaluate(() => navigator.clipboard.readText());
  const code = /[?&]room=([A-Z2-9]{6})/.exec(invite)?.[1] ?? '';
  expect(invite).toBe(`${SITE}/games?play=${encodeURIComponent(game.id)}&room=${code}`);

  // B opens it as a guest: this game wants players signed in, so the login page comes first
  const b = await newPlayer(browser, 'rb');
  await b.page.goto(invite);
  await expect(b.page).toHaveURL(/\/login\?redirect=/);
  await b.page.getByLabel('Username').fill(b.account.username);
  await b.page.getByLabel('Password', { exact: true }).fill(b.account.password);
  await b.page.getByRole('button', { name: /log ?in/i }).click();
  await expect(b.page).toHaveURL(invite);
  const frameB = gameFrame(b.page, game.title);
  await expect(frameB.locator('#room')).toContainText(`Room ${code}`);
  await expect(frameA.getByRole('list', { name: 'Players' })).toContainText(b.account.username);

  // both see each other's moves
  await frameA.getByRole('button', { name: 'Cell 1', exact: true }).click();
  await expect(frameB.getByRole('button', { name: `Cell 1: ${a.account.username}` })).toBeVisible();
  await frameB.getByRole('button', { name: 'Cell 5', exact: true }).click();
  await expect(frameA.getByRole('button', { name: `Cell 5: ${b.account.username}` })).toBeVisible();

  // B's network drops and comes back within the grace period: same seat, no 'leave' for A
  const seatB = await playerIdIn(frameB);
  expect(seatB).not.toBe('');
  const enteredB = (await frameB.locator('#entered').textContent()) ?? '';
  await dropConnection(b.context, b.page);
  // the viewer took the seat back and told the game (a fresh 'room')
  await expect(frameB.locator('#entered')).not.toHaveText(enteredB, { timeout: 20_000 });
  await expect(frameB.locator('#room')).toContainText(`me=${seatB}`);
  await frameB.getByRole('button', { name: 'Cell 6', exact: true }).click();
  await expect(frameA.getByRole('button', { name: `Cell 6: ${b.account.username}` })).toBeVisible();
  await expect(frameA.locator('#leaves')).toHaveText('leaves: 0');

  // C watches the room: sees the moves, and a move of C's is refused
  const c = await newPlayer(browser, 'rc');
  await openSignedIn(c.page, c.account, playPath);
  const frameC = gameFrame(c.page, game.title);
  await frameC.getByLabel('Room code').fill(code);
  await frameC.getByRole('button', { name: 'Watch' }).click();
  await expect(frameC.locator('#role')).toHaveText('Spectating');
  await expect(frameC.getByRole('list', { name: 'Players' })).toContainText(
    `${c.account.username} (spectator)`,
  );
  await frameA.getByRole('button', { name: 'Cell 2', exact: true }).click();
  await expect(frameC.getByRole('button', { name: `Cell 2: ${a.account.username}` })).toBeVisible();
  await frameC.getByRole('button', { name: 'Cell 3', exact: true }).click();
  await expect(frameC.getByRole('alert')).toContainText('ROOM_SPECTATOR');
  await expect(frameA.getByRole('button', { name: 'Cell 3', exact: true })).toBeVisible();

  // a chat message with markup shows as text
  const chatA = a.page.getByRole('region', { name: 'Chat' });
  const markup = '<script>alert(1)</script>';
  await chatA.getByRole('textbox', { name: 'Message' }).fill(markup);
  await chatA.getByRole('textbox', { name: 'Message' }).press('Enter');
  const chatB = b.page.getByRole('region', { name: 'Chat' });
  await expect(chatB.getByText(markup, { exact: true })).toBeVisible();
  await expect(chatB.locator('script')).toHaveCount(0);

  // the admin mutes C; after C's connection comes back C still cannot chat
  const adminPage = await (await browser.newContext({ baseURL: SITE })).newPage();
  await signIn(adminPage, E2E_ADMIN, `/login?admin=true&redirect=/admin/users/${c.account.id}`);
  const chatCard = adminPage.getByRole('region', { name: 'Chat' });
  await chatCard.getByLabel('Chat status').selectOption('muted');
  await chatCard.getByLabel('Reason').fill('Spamming the room');
  await chatCard.getByRole('button', { name: 'Save Chat Status' }).click();
  await expect(chatCard.getByRole('status')).toHaveText('Chat: Muted (reads chat, cannot send)');
  await expect(chatCard).toContainText('Now: Muted');
  await expectNoSeriousA11yViolations(adminPage);
  await adminPage.context().close();
  const enteredC = (await frameC.locator('#entered').textContent()) ?? '';
  await dropConnection(c.context, c.page);
  await expect(frameC.locator('#entered')).not.toHaveText(enteredC, { timeout: 20_000 });
  await expect(frameC.locator('#role')).toHaveText('Spectating');
  const chatC = c.page.getByRole('region', { name: 'Chat' });
  const field = chatC.getByRole('textbox', { name: 'Message' });
  if (await field.isEnabled()) {
    await field.fill('let me talk');
    await field.press('Enter');
  }
  await expect(chatC).toContainText('You cannot use chat right now.');
  await expect(chatB).not.toContainText('let me talk');

  // the viewer with its room bar and chat open: axe, and a phone's width
  await expect(bar).toContainText(b.account.username);
  await expectNoSeriousA11yViolations(a.page);
  await expectFitsPhoneWidth(a.page);

  for (const player of [a, b, c]) {
    await player.context.close();
  }
  await admin.dispose();
});

test('a full, closed or unknown room says so in the viewer', async ({ browser }) => {
  const admin = await adminApi();
  const game = await publishRoomsGame(admin, {
    guests: true,
    chat: false,
    graceSeconds: 5,
    maxPlayers: 1,
  });
  const guest = await browser.newContext({ baseURL: SITE });
  const page = await guest.newPage();

  // unknown
  await page.goto(`/games?play=${game.id}&room=ZZZZZZ`);
  await expect(page.getByRole('region', { name: 'Room' }).getByRole('alert')).toHaveText(
    'That room does not exist.',
  );

  // full (one seat), then closed by the admin
  const host = await browser.newContext({ baseURL: SITE });
  const hostPage = await host.newPage();
  await hostPage.goto(`/games?play=${game.id}`);
  const frame = gameFrame(hostPage, game.title);
  await frame.getByRole('button', { name: 'Create private room' }).click();
  await expect(frame.locator('#room')).toContainText(/Room [A-Z2-9]{6}/);
  const code = /Room ([A-Z2-9]{6})/.exec((await frame.locator('#room').textContent()) ?? '')?.[1];
  await page.goto(`/games?play=${game.id}&room=${code}`);
  await expect(page.getByRole('region', { name: 'Room' }).getByRole('alert')).toHaveText(
    'That room is full.',
  );

  // the admin sees the live room on the dashboard, then on the game's page, and closes it there
  const adminContext = await browser.newContext({ baseURL: SITE });
  const adminPage = await adminContext.newPage();
  await signIn(adminPage, E2E_ADMIN, '/login?admin=true&redirect=/admin');
  const dashboardRooms = adminPage.getByRole('region', { name: 'Live Rooms' }).first();
  const dashboardRow = dashboardRooms.getByRole('row', { name: new RegExp(`${code}`) });
  await expect(dashboardRow).toContainText('1/1');
  await dashboardRow.getByRole('link', { name: game.id }).click();
  await expect(adminPage).toHaveURL(new RegExp(`/admin/games/${game.id}$`));
  const live = adminPage.getByRole('region', { name: 'Live Rooms' }).first();
  const row = live.getByRole('row', { name: new RegExp(`${code}`) });
  await expect(row).toContainText('1/1');
  await expectNoSeriousA11yViolations(adminPage);
  await row.getByRole('button', { name: `Close room ${code}` }).click();
  await adminPage.getByRole('dialog').getByRole('button', { name: 'Close Room' }).click();
  await expect(adminPage.getByText(`Room ${code} closed`)).toBeVisible();
  await expect(hostPage.getByRole('region', { name: 'Room' }).getByRole('alert')).toHaveText(
    'That room has been closed.',
  );
  await expect(frame.locator('#room')).toHaveText('Not in a room');

  // the lobby: the host creates a public room from the viewer (the game is told), the guest
  // finds it listed with its players and watches it
  await hostPage.getByRole('button', { name: 'Rooms', exact: true }).click();
  await hostPage.getByRole('button', { name: 'Create room', exact: true }).click();
  await expect(frame.locator('#room')).toContainText(/Room [A-Z2-9]{6}/);
  const lobbyCode = /Room ([A-Z2-9]{6})/.exec(
    (await frame.locator('#room').textContent()) ?? '',
  )?.[1];
  await page.goto(`/games?play=${game.id}`);
  await page.getByRole('button', { name: 'Rooms', exact: true }).click();
  const listed = page.getByRole('listitem').filter({ hasText: lobbyCode ?? 'none' });
  await expect(listed).toContainText('1/1 players');
  await expect(listed.getByRole('button', { name: `Join room ${lobbyCode}` })).toBeDisabled();
  await expectNoSeriousA11yViolations(page);
  await listed.getByRole('button', { name: `Spectate room ${lobbyCode}` }).click();
  await expect(gameFrame(page, game.title).locator('#role')).toHaveText('Spectating');

  await guest.close();
  await host.close();
  await adminContext.close();
  await admin.dispose();
});
