// First run: /setup creates the first super admin and is gone afterwards.
import { test, expect } from '@playwright/test';
import { startServer } from './support/server.ts';
import { contrastWithWhite } from '../../src/lib/contrast.ts';

const hex = (rgb: string) =>
  '#' +
  rgb
    .match(/\d+/g)!
    .slice(0, 3)
    .map((n) => Number(n).toString(16).padStart(2, '0'))
    .join('');

test('the first super admin is created on /setup, which then disappears', async ({ page }) => {
  const server = await startServer({ LOG_LEVEL: 'info' });
  try {
    // an empty database: the start log names the page to open
    await expect
      .poll(() => server.output())
      .toContain(`open http://localhost:${server.port}/setup to create the first super administrator`);
    await page.goto(server.baseUrl + '/');
    await expect(page).toHaveURL(/\/setup$/);
    await expect(page.getByRole('heading', { name: 'Welcome to StatusWatch' })).toBeVisible();
    // the button's white text on its background meets WCAG AA (4.5:1)
    const button = page.getByRole('button', { name: 'Create administrator' });
    expect(await button.evaluate((b) => getComputedStyle(b).color)).toBe('rgb(255, 255, 255)');
    const background = hex(await button.evaluate((b) => getComputedStyle(b).backgroundColor));
    expect(contrastWithWhite(background)).toBeGreaterThanOrEqual(4.5);
    await page.getByLabel('Email').fill('owner@example.com');
    await page.getByLabel('Password (8+ characters)').fill('short');
    await page.getByLabel('Confirm password').fill('short');
    await page.getByRole('button', { name: 'Create administrator' }).click();
    // the browser's own minlength check keeps the form on the page
    await expect(page).toHaveURL(/\/setup$/);
    await page.getByLabel('Password (8+ characters)').fill('a-long-password');
    await page.getByLabel('Confirm password').fill('another-password');
    await page.getByRole('button', { name: 'Create administrator' }).click();
    await expect(page.getByRole('alert')).toHaveText('The two passwords do not match.');
    await page.getByLabel('Password (8+ characters)').fill('a-long-password');
    await page.getByLabel('Confirm password').fill('a-long-password');
    await page.getByRole('button', { name: 'Create administrator' }).click();
    // the operator is signed in and lands on the dashboard
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByTestId('role-badge')).toHaveText('Super Administrator');
    const me = await page.request.get(server.baseUrl + '/api/v1/auth/me');
    expect(me.status()).toBe(200);
    expect(((await me.json()) as { email: string }).email).toBe('owner@example.com');
    const again = await page.goto(server.baseUrl + '/setup');
    expect(again?.status()).toBe(404);
  } finally {
    await server.stop();
  }
});
