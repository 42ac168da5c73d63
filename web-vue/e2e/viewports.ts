/** The screens every page is checked at (adr/0054), and the check that a page never scrolls sideways. */
import type { Page } from '@playwright/test';
import { expect } from './fixtures.ts';

/** A desktop, a phone, and the narrowest phone still sold. */
export const viewports = [
  { name: 'desktop', width: 1280, height: 900 },
  { name: 'phone', width: 390, height: 844 },
  { name: 'small-phone', width: 320, height: 640 },
] as const;

/** Fails the test (and goes on, so every screen is checked and kept) when the page scrolls sideways: the document is wider than the viewport. */
export async function expectNoHorizontalOverflow(page: Page, label: string): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect.soft(scrollWidth, `${label}: the page is ${scrollWidth - clientWidth} px wider than the screen`).toBeLessThanOrEqual(clientWidth);
}
