import { type Frame, type Page, request } from '@playwright/test';

import { E2E_ADMIN } from '../fixtures/constants';
import {
  expect,
  expectNoSeriousA11yViolations,
  registerAccount,
  signIn,
  test,
  uniqueName,
} from '../fixtures';

/*
 * A guest plays, then signs in: what the game saved, unlocked and scored was kept in the browser
 * (nothing written to the server while a guest) and is carried into the account when the player
 * says so; a newer save the account already has from another device is kept unless the player
 * chooses this browser's.
 */

const SITE_PORT = Number(process.env.E2E_PORT ?? 4300);
const SITE = `http://127.0.0.1:${SITE_PORT}`;
const GAMES_ORIGIN = `http://localhost:${SITE_PORT + 1}`;
const GAME = 'CoopAdventure';

async function gameFrame(page: Page): Promise<Frame> {
  await expect
    .poll(() => page.frames().some((frame) => frame.url().startsWith(`${GAMES_ORIGIN}/${GAME}/`)))
    .toBe(true);
  const frame = page.frames().find((candidate) => candidate.url().includes(`/${GAME}/`));
  if (!frame) {
    throw new Error(`no frame for ${GAME}`);
  }
  await frame.waitForFunction(() => 'GameSDK' in window);
  return frame;
}

async function defineBoard(): Promise<string> {
  const board = uniqueName('guest').replace(/_/g, '-');
  const api = await request.newContext({ baseURL: SITE });
  expect((await api.post('/api/auth/login', { data: E2E_ADMIN })).status()).toBe(200);
  const put = await api.put(`/api/admin/games/${GAME}/leaderboards/${board}`, {
    data: { name: `Guest ${board}`, order: 'desc', format: 'number' },
  });
  expect(put.status()).toBe(201);
  await api.dispose();
  return board;
}

/** Plays as a guest: a save, an achievement and a score, none of them sent to the server. */
async function playAsGuest(page: Page, board: string, save: unknown) {
  const writes: string[] = [];
  page.on('request', (sent) => {
    if (sent.method() !== 'GET' && /\/api\/(games|me)\//.test(sent.url())) {
      writes.push(`${sent.method()} ${sent.url()}`);
    }
  });
  await page.goto(`/games?play=${GAME}`);
  const frame = await gameFrame(page);
  const answer = await frame.evaluate(
    async ({ key, data }) => {
      window.GameSDK.start();
      await window.GameSDK.save(data);
      await window.GameSDK.unlock('Guest Explorer');
      const score = await window.GameSDK.submitScore(key, 4200);
      return { score, loaded: await window.GameSDK.load() };
    },
    { key: board, data: save },
  );
  expect(answer.loaded).toEqual(save);
  expect(answer.score).toMatchObject({ isBest: true });
  expect(writes).toEqual([]);
}

async function myRecord(page: Page) {
  const response = await page.request.get('/api/me/games');
  const body = (await response.json()) as {
    games: Array<{ gameId: string; hasSave: boolean; achievements: Array<{ name: string }> }>;
  };
  return body.games.find((game) => game.gameId === GAME);
}

test('a guest who signs up keeps their save, best score and achievements', async ({ page }) => {
  test.setTimeout(90_000);
  const board = await defineBoard();
  await playAsGuest(page, board, { level: 5, from: 'guest' });

  // the guest registers (the form), then signs in
  const username = uniqueName('guestup');
  await page.goto('/register');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password', { exact: true }).fill('guest-password-123');
  await page.getByLabel(/confirm password/i).fill('guest-password-123');
  await page.getByRole('button', { name: /register/i }).click();
  await expect(page).toHaveURL(/\/login/);
  await signIn(page, { username, password: 'guest-password-123' });
  await expect(page).toHaveURL(/\/$/);

  await page.goto('/games');
  const offer = page.getByRole('region', { name: 'Progress from playing as a guest' });
  await expect(offer).toContainText('1 save, 1 achievement and 1 best score');
  await expectNoSeriousA11yViolations(page);
  await offer.getByRole('button', { name: 'Keep it in my account' }).click();
  await expect(offer.getByRole('status')).toHaveText(
    'Your progress in Co-op Adventure is now in your account.',
  );

  const record = await myRecord(page);
  expect(record?.hasSave).toBe(true);
  expect(record?.achievements.map((achievement) => achievement.name)).toEqual(['Guest Explorer']);
  const save = await page.request.get(`/api/games/${GAME}/save`);
  expect(((await save.json()) as { data: unknown }).data).toEqual({ level: 5, from: 'guest' });
  const top = await page.request.get(`/api/games/${GAME}/leaderboards/${board}?period=all`);
  expect(
    ((await top.json()) as { entries: Array<{ username: string; value: number }> }).entries,
  ).toEqual([expect.objectContaining({ username, value: 4200 })]);

  // carried over once: the offer is gone after a reload
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Games', level: 1 })).toBeVisible();
  await expect(offer).toBeHidden();
});

test('a newer save from another device is not overwritten without asking', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const board = await defineBoard();
  const account = await registerAccount(page.request, 'twodev');
  await playAsGuest(page, board, { level: 1, from: 'this browser' });

  // later, another device saves in the account
  const other = await browser.newContext({ baseURL: SITE });
  const login = await other.request.post('/api/auth/login', {
    data: { username: account.username, password: account.password },
  });
  expect(login.status()).toBe(200);
  const put = await other.request.put(`/api/games/${GAME}/save`, {
    data: { data: { level: 9, from: 'other device' } },
  });
  expect(put.status()).toBe(200);
  await other.close();

  await signIn(page, account);
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/games');
  const offer = page.getByRole('region', { name: 'Progress from playing as a guest' });
  await offer.getByRole('button', { name: 'Keep it in my account' }).click();
  // asked: the account's save is the newer one and is chosen unless the player changes it
  const slot = offer.getByRole('group', { name: 'Save slot 0' });
  await expect(slot.getByRole('radio', { name: /Your account’s save .*, newer$/ })).toBeChecked();
  await expect(slot.getByRole('radio', { name: /This browser’s save/ })).not.toBeChecked();
  await expectNoSeriousA11yViolations(page);
  // nothing written yet
  const before = await page.request.get(`/api/games/${GAME}/save`);
  expect(((await before.json()) as { data: unknown }).data).toEqual({
    level: 9,
    from: 'other device',
  });
  await offer.getByRole('button', { name: 'Continue' }).click();
  await expect(offer.getByRole('status')).toContainText('is now in your account');
  const after = await page.request.get(`/api/games/${GAME}/save`);
  expect(((await after.json()) as { data: unknown }).data).toEqual({
    level: 9,
    from: 'other device',
  });
  // the achievement still came along
  expect((await myRecord(page))?.achievements.map((achievement) => achievement.name)).toContain(
    'Guest Explorer',
  );
});

test('kept progress shows on the profile with the time it happened, not the time it was kept', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const game = 'TopDownRogueLike';
  // the guest played three days ago: the browser's clock says so while they play
  const unlockedAt = new Date(Date.now() - 3 * 24 * 60 * 60_000);
  const then = await browser.newContext();
  await then.clock.setFixedTime(unlockedAt);
  const guestPage = await then.newPage();
  await guestPage.goto(`/games?play=${game}`);
  await expect
    .poll(() =>
      guestPage.frames().some((frame) => frame.url().startsWith(`${GAMES_ORIGIN}/${game}/`)),
    )
    .toBe(true);
  const frame = guestPage.frames().find((candidate) => candidate.url().includes(`/${game}/`));
  if (!frame) {
    throw new Error(`no frame for ${game}`);
  }
  await frame.waitForFunction(() => 'GameSDK' in window);
  await frame.evaluate(async () => {
    window.GameSDK.start();
    await window.GameSDK.unlock('First Blood');
  });
  // kept in this browser (nothing is sent while a guest)
  await expect
    .poll(() =>
      guestPage.evaluate(
        (key) => localStorage.getItem(key) ?? '',
        `portfolio-guest-progress:${game}`,
      ),
    )
    .toContain('First Blood');
  // the same browser today: what it stored comes along, the clock is today's
  const storage = await then.storageState();
  await then.close();
  const now = await browser.newContext({ storageState: storage });
  try {
    const page = await now.newPage();
    const account = await registerAccount(page.request, 'kept');
    await signIn(page, account);
    await expect(page).toHaveURL(/\/$/);
    await page.goto('/games');
    const offer = page.getByRole('region', { name: 'Progress from playing as a guest' });
    await expect(offer).toContainText('0 saves, 1 achievement and 0 best scores');
    await offer.getByRole('button', { name: 'Keep it in my account' }).click();
    await expect(offer.getByRole('status')).toHaveText(
      'Your progress in TopDown RogueLike is now in your account.',
    );

    // /profile lists the game (it said "No games played yet.") with the unlock's own time
    await page.goto('/profile');
    const usage = page.getByRole('region', { name: 'Usage Statistics' });
    await expect(usage.getByText('TopDown RogueLike', { exact: true })).toBeVisible();
    await expect(usage).not.toContainText('No games played yet.');
    const unlock = usage
      .getByRole('list', { name: 'TopDown RogueLike achievements' })
      .getByRole('listitem')
      .filter({ hasText: 'First Blood' });
    const time = unlock.locator('time');
    await expect(time).toHaveAttribute('datetime', unlockedAt.toISOString());
    const shown = await page.evaluate(
      (iso) => new Date(iso).toLocaleString(),
      unlockedAt.toISOString(),
    );
    await expect(time).toHaveText(shown);
    await expectNoSeriousA11yViolations(page);
  } finally {
    await now.close();
  }
});
