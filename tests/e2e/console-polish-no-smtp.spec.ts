// Platform settings on a server without SMTP (issue 25, item 9): "Send test mail" is not offered
// as if it could work while the badge says "No SMTP" (disabled, with the reason beside it), and
// the feature flags read as words ("Bulk operations"), never ENABLE_BULK_OPERATIONS.
import { E2E_ADMIN, expect, expectNoSeriousA11yViolations, mainUrl, shotsIn, signInUi, test } from './console-fixtures.ts';

const shots = shotsIn('console-polish');

test.use({ serverEnv: { SMTP_URL: '' } });

test('without SMTP the test mail is disabled with the reason; flags read as words', async ({ page }) => {
  await signInUi(page, mainUrl(), E2E_ADMIN);
  await page.goto(mainUrl('/settings/platform'));
  const mail = page.getByRole('region', { name: 'Mail' });
  await expect(mail.getByText('No SMTP', { exact: true })).toBeVisible();
  const send = mail.getByRole('button', { name: /^Send test mail/ });
  await expect(send).toBeDisabled();
  await expect(send).toHaveAccessibleDescription(/A test mail needs an SMTP server: set SMTP_URL/);
  await expect(mail.getByText('A test mail needs an SMTP server')).toBeVisible();

  const flags = page.getByRole('region', { name: 'Feature flags' });
  await expect(flags.getByRole('checkbox', { name: 'Bulk operations' })).toBeVisible();
  await expect(flags.getByRole('checkbox', { name: 'Tenant switching' })).toBeVisible();
  await expect(flags).not.toContainText('ENABLE_');
  await expectNoSeriousA11yViolations(page);
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await mail.scrollIntoViewIfNeeded();
    await shots(page, `platform-no-smtp-${width}`);
  }
});
