import { expect, test } from '../fixtures';

test('a mistyped address says the page does not exist and offers the way home and to the games', async ({
  page,
}) => {
  const response = await page.goto('/gmaes');
  expect(response?.status()).toBe(404);
  const main = page.getByRole('main');
  // the spec's error page heading and status stay
  await expect(main.getByRole('heading', { level: 1 })).toHaveText('Unexpected Application Error!');
  await expect(main.getByRole('heading', { level: 2 })).toHaveText('404 Not Found');
  await expect(main).toContainText('This page does not exist.');

  await main.getByRole('link', { name: 'Browse the games' }).click();
  await expect(page).toHaveURL(/\/games$/);
  await expect(page.getByRole('button', { name: 'Multiplayer Browser Games' })).toBeVisible();

  await page.goto('/devlog/no-such-post-at-all');
  await expect(page.getByRole('main')).toContainText('This page does not exist.');
  await page.getByRole('main').getByRole('link', { name: 'Back to the home page' }).click();
  await expect(page).toHaveURL(/\/$/);
});
