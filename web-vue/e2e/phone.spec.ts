/**
 * A phone that works (adr/0054): every screen at a desktop's 1280×900 and a phone's 390×844
 * and 320×640 scrolls only up and down (the page is never wider than the screen), passes
 * axe, and is kept as a screenshot. The customer has movements with a long IBAN and a long
 * note, the cases that once overflowed.
 */
import { expect, expectNoSeriousA11yViolations, saveScreenshot, test } from './fixtures.ts';
import { seedMovements } from './seed.ts';
import { expectNoHorizontalOverflow, viewports } from './viewports.ts';

for (const viewport of viewports) {
  test(`every signed-in screen fits a ${viewport.width}×${viewport.height} screen`, async ({ page, signUpViaBff }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    const customer = await signUpViaBff();
    const accountId = await seedMovements(page.request, customer);
    const screens: Array<[string, string, string]> = [
      ['dashboard', '/', 'Hello, Ada'],
      ['movements', `/accounts/${accountId}`, 'Everyday'],
      ['deposit', `/accounts/${accountId}/deposit`, 'Deposit money into Everyday'],
      ['withdraw', `/accounts/${accountId}/withdraw`, 'Withdraw money from Everyday'],
      ['manage', `/accounts/${accountId}/manage`, 'Manage Everyday'],
      ['transfer', '/transfer', 'Transfer money'],
      ['check-by-key', `/accounts/${accountId}/check/7c9e6679-7425-40de-944b-e07fc1f90ae7`, 'Check a send'],
    ];
    for (const [name, path, heading] of screens) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
      await page.waitForLoadState('networkidle');
      if (name === 'movements') await expect(page.getByText('Grace Brewster Murray Hopper').first()).toBeVisible();
      await saveScreenshot(page, `${name}-${viewport.name}`);
      await expectNoHorizontalOverflow(page, `${name} at ${viewport.width}×${viewport.height}`);
      await expectNoSeriousA11yViolations(page, `${name} at ${viewport.width} px`);
    }
  });

  test(`every signed-out screen fits a ${viewport.width}×${viewport.height} screen`, async ({ page }) => {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    for (const [name, path] of [
      ['sign-in', '/sign-in'],
      ['sign-up', '/sign-up'],
      ['not-found', '/no-such-page'],
    ]) {
      await page.goto(path!);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await saveScreenshot(page, `${name}-${viewport.name}`);
      await expectNoHorizontalOverflow(page, `${name} at ${viewport.width}×${viewport.height}`);
      await expectNoSeriousA11yViolations(page, `${name} at ${viewport.width} px`);
    }
  });
}
