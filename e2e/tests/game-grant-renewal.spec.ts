import { expect, registerAccount, signIn, test } from '../fixtures';
import { E2E_ADMIN } from '../fixtures/constants';

/*
 * A subscriber game's play URL is a bearer URL, so its grant opens pages for two
 * minutes only. While the viewer is open it fetches a fresh grant every minute and the game SDK
 * puts it into the frame's address without reloading the game.
 */

const PORT = Number(process.env.E2E_PORT ?? 4300);
const GAMES = `http://localhost:${PORT + 1}`;
const GRANTED = new RegExp(`^${GAMES}/g/([^/]+)/Pong/\\d+/`);

test("the open viewer renews a subscriber game's grant in the running frame, without a reload", async ({
  page,
  request,
}) => {
  test.slow();
  const account = await registerAccount(request, 'renewal');
  expect((await request.post('/api/auth/login', { data: E2E_ADMIN })).status()).toBe(200);
  const promoted = await request.post('/api/update-role', {
    data: { userId: account.id, role: 'subscriber' },
  });
  expect(promoted.status()).toBe(200);

  await page.clock.install();
  await signIn(page, account);
  await expect(page.getByRole('button', { name: /log ?out/i })).toBeVisible();
  await page.goto('/games');
  await page.getByRole('link', { name: 'Pong', exact: true }).click();
  const frameElement = page.locator('iframe[title="Pong (game)"]');
  const src = (await frameElement.getAttribute('src')) ?? '';
  const firstGrant = GRANTED.exec(src)?.[1];
  expect(firstGrant, src).toBeTruthy();
  await expect.poll(() => page.frame({ url: GRANTED }) !== null).toBe(true);
  const frame = page.frame({ url: GRANTED });
  await expect.poll(() => frame?.evaluate(() => typeof window.GameSDK)).toBe('object');
  // marks this document: a reload would lose the mark
  await frame?.evaluate(() => {
    (window as unknown as { renewalMark: number }).renewalMark = 1;
  });

  // A grant is signed to the second (its expiry is the signing second + two minutes), so a renewal
  // read in the same wall-clock second as the first grant is that same grant. The page's clock is
  // fake but the server's is not: on a warm server the frame loads within that second, so let the
  // real second pass before the page's minute does.
  const signedAt = parseInt(firstGrant?.split('.')[0] ?? '0', 36) - 120;
  await expect.poll(() => Math.floor(Date.now() / 1000)).toBeGreaterThan(signedAt);
  const renewed = page.waitForResponse(
    (response) => response.url().endsWith('/api/games') && response.status() === 200,
    { timeout: 10_000 },
  );
  await page.clock.fastForward('01:05');
  await renewed;
  // a second minute: on a busy machine the first renewal may still be on its way (harmless twice)
  await page.clock.fastForward('01:05');
  await expect
    .poll(() => GRANTED.exec(frame?.url() ?? '')?.[1], { timeout: 20_000 })
    .not.toBe(firstGrant);
  const after = await frame?.evaluate(async () => ({
    mark: (window as unknown as { renewalMark?: number }).renewalMark,
    // the game's own later requests resolve against the renewed address and are served
    page: (await fetch(window.location.href)).status,
  }));
  expect(after).toEqual({ mark: 1, page: 200 });
  // the frame element itself was never pointed elsewhere (that would restart the game)
  expect(await frameElement.getAttribute('src')).toBe(src);
});
