import type { Page } from '@playwright/test';

import { expect, expectNoSeriousA11yViolations, signIn, test } from '../fixtures';
import { routeStripe } from '../fixtures/stripe';

/** Fails the test on any Content-Security-Policy refusal in the page. */
function watchCsp(page: Page): string[] {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) {
      refused.push(message.text());
    }
  });
  return refused;
}

test.describe('subscription', () => {
  test('a guest logs in, subscribes, the webhook makes them a subscriber, the top bar shows Sub', async ({
    page,
    account,
    fakeStripe,
  }) => {
    const refused = watchCsp(page);
    await routeStripe(page, fakeStripe);
    await page.goto('/subscribe');
    await expect(page.getByText('$10.00 / quarter')).toBeVisible();
    await expect(page.getByText('Billed every 3 months - Cancel anytime')).toBeVisible();
    await page.getByRole('link', { name: 'log in' }).click();
    await expect(page).toHaveURL(/\/login\?redirect=\/subscribe$/);
    await page.getByLabel('Username').fill(account.username);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: /log ?in/i }).click();

    // back on /subscribe (loaded as its own document, where the CSP allows Stripe.js)
    await expect(page).toHaveURL(/\/subscribe$/);
    const card = page.getByLabel('Card number');
    await expect(card).toBeVisible();
    await expectNoSeriousA11yViolations(page);

    const eventsBefore = fakeStripe.events.length;
    await card.fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Subscribe for $10.00' }).click();
    await expect(page).toHaveURL(/\/games$/);
    const banner = page.getByRole('banner');
    await expect(banner.getByText('Sub', { exact: true })).toBeVisible();

    // Stripe's signed webhooks reached the site and were accepted
    await fakeStripe.settle();
    const events = fakeStripe.events.slice(eventsBefore);
    expect(events.map((event) => event.type)).toEqual([
      'customer.subscription.created',
      'invoice.paid',
      'customer.subscription.updated',
    ]);
    const answers = fakeStripe.deliveries.filter((delivery) =>
      events.some((event) => event.id === delivery.eventId),
    );
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200]);
    const me = await page.request.get('/api/auth/current-user');
    expect(((await me.json()) as { user: { role: string } }).user.role).toBe('subscriber');
    const subscription = await page.request.get('/api/subscription');
    expect(await subscription.json()).toMatchObject({ status: 'active', canManage: true });

    // the subscriber-only game opens now: its card is unlocked and its files are served
    await page.goto('/games');
    await page.getByRole('link', { name: 'Pong', exact: true }).click();
    await expect(page).toHaveURL(/\/games\?play=Pong$/);
    const pong = page.frameLocator('iframe[title="Pong (game)"]');
    await expect(pong.locator('canvas')).toBeVisible();
    expect((await page.request.get('/games/Pong/')).status()).toBe(200);

    // a subscriber sees that, and the way to manage it
    await page.goto('/subscribe');
    await expect(page.getByText(/You are subscribed/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Manage subscription' })).toBeVisible();
    expect(refused).toEqual([]);
  });

  test("a declined card shows the provider's message and gives the form back", async ({
    page,
    account,
    fakeStripe,
  }) => {
    const refused = watchCsp(page);
    await routeStripe(page, fakeStripe);
    await signIn(page, account, '/login?redirect=/subscribe');
    const card = page.getByLabel('Card number');
    await card.fill('4000 0000 0000 0341');
    const submit = page.getByRole('button', { name: 'Subscribe for $10.00' });
    await submit.click();
    await expect(page.getByRole('alert')).toContainText('Your card was declined.');
    await expect(submit).toBeEnabled();
    await expect(card).toBeEnabled();
    await expect(page).toHaveURL(/\/subscribe$/);
    expect(
      (
        (await (await page.request.get('/api/auth/current-user')).json()) as {
          user: { role: string };
        }
      ).user.role,
    ).toBe('user');

    // and a card that pays still goes through afterwards
    await card.fill('4242 4242 4242 4242');
    await submit.click();
    await expect(page.getByRole('banner').getByText('Sub', { exact: true })).toBeVisible();
    expect(refused).toEqual([]);
  });

  test('fits a phone and works by keyboard', async ({ page, account, fakeStripe }) => {
    await routeStripe(page, fakeStripe);
    await page.setViewportSize({ width: 375, height: 740 });
    await signIn(page, account, '/login?redirect=/subscribe');
    const card = page.getByLabel('Card number');
    await expect(card).toBeVisible();
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(375);
    await expectNoSeriousA11yViolations(page);
    // the card entry and the button are reached with Tab
    await card.focus();
    await page.keyboard.type('4242424242424242');
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Subscribe for $10.00' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/games$/);
  });
});
