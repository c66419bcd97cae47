import { expect, test } from '../fixtures';

test('the top bar Login returns the visitor to the page they were on', async ({
  page,
  account,
}) => {
  await page.goto('/Tutorials');
  await page.getByRole('banner').getByRole('link', { name: 'Login' }).click();
  await expect(page).toHaveURL(/\/login\?redirect=%2FTutorials$/);
  await page.getByLabel('Username').fill(account.username);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: /log ?in/i }).click();
  await expect(page).toHaveURL(/\/Tutorials$/);
  await expect(page.getByRole('banner')).toContainText(account.username);
});
