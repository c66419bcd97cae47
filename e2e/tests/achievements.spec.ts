import { type Frame, type Page, request } from '@playwright/test';

import { E2E_ADMIN } from '../fixtures/constants';
import { expect, expectNoSeriousA11yViolations, registerAccount, signIn, test } from '../fixtures';

/*
 * The achievement catalogue in Chromium: the admin defines a game's achievements (one hidden,
 * one with an icon); a player unlocks through the SDK, sees the toast, the catalogue with what
 * they have and the share of players, and the icon and points on their profile. A key the
 * catalogue does not define is refused. (MainQuest2: no other spec unlocks free-form names there.)
 */

const SITE_PORT = Number(process.env.E2E_PORT ?? 4300);
const SITE = `http://127.0.0.1:${SITE_PORT}`;
const GAMES_ORIGIN = `http://localhost:${SITE_PORT + 1}`;
const GAME = 'MainQuest2';
/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

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

test('a player unlocks defined achievements: toast, catalogue, share and profile', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const api = await request.newContext({ baseURL: SITE });
  expect((await api.post('/api/auth/login', { data: E2E_ADMIN })).status()).toBe(200);
  for (const [key, body] of [
    ['first-steps', { name: 'First Steps', description: 'Leave the village', points: 10 }],
    [
      'secret-cave',
      { name: 'Secret Cave', description: 'Find the cave', points: 50, hidden: true },
    ],
  ] as const) {
    const put = await api.put(`/api/admin/games/${GAME}/achievements/${key}`, { data: body });
    expect(put.ok(), await put.text()).toBe(true);
  }
  const icon = await api.put(`/api/admin/games/${GAME}/achievements/first-steps/icon`, {
    headers: { 'content-type': 'image/png' },
    data: PNG,
  });
  expect(icon.status(), await icon.text()).toBe(200);
  await api.dispose();

  const account = await registerAccount(page.request, 'achiever');
  await signIn(page, account);
  await expect(page).toHaveURL(/\/$/);
  await page.goto(`/games?play=${GAME}`);
  const frame = await gameFrame(page);
  const panel = page.getByRole('region', { name: 'Achievements' });
  await expect(panel).toContainText('0 of 2 unlocked, 0 points');
  await expect(panel).toContainText('Hidden achievement');
  await expect(panel).not.toContainText('Secret Cave');

  await frame.evaluate(async () => {
    await window.GameSDK.unlock('first-steps');
    await window.GameSDK.unlock('not-in-the-catalogue');
  });
  await expect(page.getByRole('status').filter({ hasText: 'Achievement unlocked' })).toHaveText(
    'Achievement unlocked: First Steps (10 points)',
  );
  await expect(panel).toContainText('1 of 2 unlocked, 10 points');
  const item = panel.getByRole('listitem').filter({ hasText: 'First Steps' });
  await expect(item).toContainText('Unlocked');
  await expect(item).toContainText('10 points · 100% of players');
  await expect(item.locator('img')).toHaveJSProperty('naturalWidth', 1);
  await expectNoSeriousA11yViolations(page);

  // the undefined key was refused: only the defined one is recorded
  const mine = await page.request.get('/api/me/games');
  const record = (
    (await mine.json()) as {
      games: Array<{ gameId: string; achievements: Array<{ name: string }> }>;
    }
  ).games.find((game) => game.gameId === GAME);
  expect(record?.achievements.map((achievement) => achievement.name)).toEqual(['first-steps']);

  // the profile shows its name, icon and points
  await page.goto('/profile');
  const achievements = page.getByRole('list', { name: 'Android Mobile Game achievements' });
  await expect(achievements).toContainText('First Steps (10 points)');
  await expect(achievements.locator('img')).toHaveCount(1);
});
