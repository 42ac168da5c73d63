/**
 * The Manage page reads its account again when it opens. The name field shows the
 * dashboard's copy at once, so a visitor can type before that read answers; when it
 * does, what they typed stays. (CI once saw the late read overwrite "Rainy day" with
 * "Everyday", and the rename then sent the old name.)
 */
import { expect, test } from './fixtures.ts';

test('a name typed before the page has read its account again is kept, and it is the name that is saved', async ({ page, signUpViaBff }) => {
  await signUpViaBff();
  let release: () => void = () => undefined;
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = 0;
  await page.route(
    (url) => /\/api\/accounts\/[^/]+$/.test(url.pathname),
    async (route) => {
      if (route.request().method() !== 'GET') return route.fallback();
      held += 1;
      await released;
      return route.fallback();
    },
  );
  await page.goto('/');
  await page.getByRole('link', { name: 'Everyday', exact: true }).click();
  await page.getByRole('link', { name: 'Manage' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Manage Everyday');
  const field = page.getByLabel('Account name');
  await expect(field).toHaveValue('Everyday');
  await expect.poll(() => held, { message: 'the Manage page reads its account again' }).toBeGreaterThan(0);
  await field.fill('Rainy day');

  const reread = page.waitForResponse((response) => response.request().method() === 'GET' && /\/api\/accounts\/[^/]+$/.test(new URL(response.url()).pathname));
  release();
  await reread;
  await expect(field).toHaveValue('Rainy day');

  const renamed = page.waitForResponse((response) => response.request().method() === 'PATCH');
  await page.getByRole('button', { name: 'Save name' }).click();
  expect((await renamed).request().postDataJSON()).toEqual({ name: 'Rainy day' });
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Manage Rainy day');
});
