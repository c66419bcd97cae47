import type { Browser, Frame, Page } from '@playwright/test';

import {
  type Account,
  expect,
  expectFitsPhoneWidth,
  expectNoSeriousA11yViolations,
  registerAccount,
  signIn,
  test,
} from '../fixtures';

interface SeenPlayer {
  name: string;
  isMe: boolean;
  x: number;
  y: number;
}

/** What a Rocket Game page or frame shows of the room (its read-only view of the canvas). */
function seenPlayers(target: Page | Frame): Promise<SeenPlayer[]> {
  return target.evaluate(() =>
    (window as unknown as { RocketGame: { players(): SeenPlayer[] } }).RocketGame.players(),
  );
}

async function signedInContext(browser: Browser, prefix: string) {
  const context = await browser.newContext();
  const account: Account = await registerAccount(context.request, prefix);
  const page = await context.newPage();
  await signIn(page, account);
  await expect(page).toHaveURL(/\/$/);
  return { context, page, account };
}

test('two signed-in players in Rocket Game see each other fly', async ({ browser }) => {
  test.setTimeout(90_000);
  // Alice plays through the site's viewer (the game on the games origin, joined with a play
  // ticket), Bob opens the site's own copy of the game file directly (his session cookie)
  const alice = await signedInContext(browser, 'alice');
  const bob = await signedInContext(browser, 'bob');
  try {
    await alice.page.goto('/games');
    await alice.page.getByRole('link', { name: 'Rocket Game', exact: true }).click();
    await expect(alice.page).toHaveURL(/play=RocketGame/);
    const aliceFrame = alice.page.frameLocator('iframe[title="Rocket Game (game)"]');
    await bob.page.goto('/games/RocketGame/');

    // each sees the other in the same room
    await expect(aliceFrame.locator('#hud')).toContainText(bob.account.username);
    await expect(bob.page.locator('#hud')).toContainText(alice.account.username);
    await expect(aliceFrame.getByRole('status')).toBeHidden();
    await expect(bob.page.getByRole('status')).toBeHidden();

    const aliceAsBobSees = async () =>
      (await seenPlayers(bob.page)).find((player) => player.name === alice.account.username);
    const before = await aliceAsBobSees();
    expect(before).toBeDefined();

    // Alice holds W in the viewer: Bob's page sees her rocket move
    await aliceFrame.locator('canvas').click();
    await alice.page.keyboard.down('KeyW');
    await expect
      .poll(async () => {
        const now = await aliceAsBobSees();
        return Math.hypot((now?.x ?? 0) - (before?.x ?? 0), (now?.y ?? 0) - (before?.y ?? 0));
      })
      .toBeGreaterThan(40);
    await alice.page.keyboard.up('KeyW');

    // Bob's rocket is on Alice's screen too, on a canvas that is not blank
    const frame = alice.page.frame({ url: /\/RocketGame\/\d+\// });
    if (!frame) {
      throw new Error('the game frame is missing');
    }
    const bobOnAlice = (await seenPlayers(frame)).find(
      (player) => player.name === bob.account.username,
    );
    expect(bobOnAlice?.isMe).toBe(false);
    const isDrawn = await frame.evaluate(() => {
      const canvas = document.querySelector('canvas');
      const pixels = canvas?.getContext('2d')?.getImageData(0, 0, canvas.width, canvas.height);
      return (pixels?.data ?? []).some((value, index) => index % 4 !== 3 && value > 100);
    });
    expect(isDrawn).toBe(true);

    // flying forward unlocked 'Lift Off' through the real SDK and the viewer
    await expect
      .poll(async () => {
        const response = await alice.page.request.get('/api/me/games');
        const body = (await response.json()) as {
          games: Array<{ gameId: string; achievements: Array<{ name: string }> }>;
        };
        const rocket = body.games.find((game) => game.gameId === 'RocketGame');
        return rocket?.achievements.map((achievement) => achievement.name) ?? [];
      })
      .toContain('Lift Off');
  } finally {
    await alice.context.close();
    await bob.context.close();
  }
});

test('a guest opening a multiplayer game is asked to sign in', async ({ page }) => {
  for (const game of ['RocketGame', 'WolfScape']) {
    await page.goto(`/games/${game}/`);
    await expect(page.getByRole('status')).toContainText('Sign in to play');
    await expect(page.getByRole('link', { name: 'log in' })).toHaveAttribute('href', '/login');
    await expectNoSeriousA11yViolations(page);
    await expectFitsPhoneWidth(page);
  }
});

test('WolfScape: two players share a room and see each other walk', async ({ browser }) => {
  test.setTimeout(90_000);
  const contexts = await Promise.all([browser.newContext(), browser.newContext()]);
  try {
    const pages = await Promise.all(
      contexts.map(async (context, index) => {
        const account = await registerAccount(context.request, index === 0 ? 'wolf' : 'pack');
        const page = await context.newPage();
        await signIn(page, account);
        await expect(page).toHaveURL(/\/$/);
        await page.goto('/games/WolfScape/');
        return { page, account };
      }),
    );
    const [first, second] = pages;
    if (!first || !second) {
      throw new Error('two players expected');
    }
    await expect(first.page.locator('#hud')).toContainText(second.account.username);
    await expect(second.page.locator('#hud')).toContainText(first.account.username);
    await expect(first.page.getByRole('status')).toBeHidden();

    // the first player steps (arrow keys walk one tile; some neighbours may be trees)
    const seenBySecond = () =>
      second.page.evaluate((name) => {
        const view = (window as unknown as { WolfScape: { wolves(): SeenPlayer[] } }).WolfScape;
        return view.wolves().find((wolf) => wolf.name === name);
      }, first.account.username);
    const start = await seenBySecond();
    await first.page.locator('canvas').focus();
    const keys = ['ArrowLeft', 'ArrowUp', 'ArrowRight', 'ArrowDown'];
    let tries = 0;
    await expect
      .poll(async () => {
        await first.page.keyboard.press(keys[tries++ % keys.length] ?? 'ArrowLeft');
        await first.page.waitForTimeout(500);
        const now = await seenBySecond();
        return Math.hypot((now?.x ?? 0) - (start?.x ?? 0), (now?.y ?? 0) - (start?.y ?? 0));
      })
      .toBeGreaterThan(0.5);
  } finally {
    await Promise.all(contexts.map((context) => context.close()));
  }
});

test('WolfScape: a private room through the room service, joined by its invite link only', async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const host = await signedInContext(browser, 'den');
  const friend = await signedInContext(browser, 'cub');
  const stranger = await signedInContext(browser, 'lone');
  const frameOf = (page: Page) => page.frameLocator('iframe[title="WolfScape (game)"]');
  try {
    // the host opens the game in the viewer and makes a private room
    await host.page.goto('/games?play=WolfScape');
    const hostFrame = frameOf(host.page);
    await expect(hostFrame.getByRole('status')).toBeHidden();
    await hostFrame.getByRole('button', { name: 'Private room' }).click();
    await expect(hostFrame.locator('#hud')).toContainText(/Room [A-Z2-9]{6}: 1 wolves/);
    const code = /Room ([A-Z2-9]{6})/.exec(
      (await hostFrame.locator('#hud').textContent()) ?? '',
    )?.[1];
    expect(code).toBeTruthy();
    // the viewer offers the room's invite link
    const bar = host.page.getByRole('region', { name: 'Room' });
    await expect(bar).toContainText(code ?? '');
    await expect(bar.getByRole('button', { name: 'Copy invite link' })).toBeVisible();

    // a friend with the link lands in that room's own game
    await friend.page.goto(`/games?play=WolfScape&room=${code}`);
    const friendFrame = frameOf(friend.page);
    await expect(friendFrame.locator('#hud')).toContainText(`Room ${code}: 2 wolves`);
    await expect(friendFrame.locator('#hud')).toContainText(host.account.username);
    await expect(hostFrame.locator('#hud')).toContainText(friend.account.username);

    // a plain open never lands in a private room
    await stranger.page.goto('/games?play=WolfScape');
    const strangerFrame = frameOf(stranger.page);
    await expect(strangerFrame.getByRole('status')).toBeHidden();
    await expect(strangerFrame.locator('#hud')).toContainText(stranger.account.username);
    await expect(strangerFrame.locator('#hud')).not.toContainText(code ?? '');
    await expect(hostFrame.locator('#hud')).not.toContainText(stranger.account.username);
  } finally {
    await Promise.all([host, friend, stranger].map((player) => player.context.close()));
  }
});
