// The status page screen's card "Embed on your site" (issue 32, docs/features/embeds.md) in
// Chromium against the built server: a company admin picks a banner in German with a dark theme
// and reads the script, iframe and CSP snippets for the page's host; the live preview is the
// frame itself; the screen passes axe. Screenshots at 1280 and 375 px (looked at).
import { adminApi, expect, expectNoSeriousA11yViolations, seedCompany, seedUser, signInUi, tenantUrl, test } from './console-fixtures.ts';

/** The card alone (the screen's other cards have their own spec). */
const SHOTS = 'test-results/console-embed';

test('a company admin chooses an embed and gets its snippets and a live preview', async ({ page }) => {
  test.setTimeout(60_000);
  const api = await adminApi();
  const company = await seedCompany(api);
  const admin = await seedUser(api, 2, company.id);
  await api.dispose();
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.goto(tenantUrl(company.subdomain, '/monitors/status-page'));
  const card = page.getByRole('region', { name: 'Embed on your site' });
  await expect(card).toBeVisible();
  const origin = new URL(tenantUrl(company.subdomain)).origin;
  await expect(card.getByLabel(/^Script/)).toHaveValue(`<script src="${origin}/embed.js" async></script>`);
  // the default preview is the badge frame, with the page's state
  await expect(card.frameLocator('iframe').getByRole('link')).toHaveText(/operational|unknown/i);

  await card.getByLabel('Show').selectOption('banner');
  await card.getByLabel('Theme').selectOption('dark');
  await card.getByLabel('Language').selectOption('de');
  await card.getByLabel('Banner position').selectOption('top');
  await expect(card.getByLabel(/^Script/)).toHaveValue(
    `<script src="${origin}/embed.js" async data-style="banner" data-theme="dark" data-position="top" data-lang="de"></script>`,
  );
  await expect(card.getByLabel(/^Without JavaScript/)).toHaveValue(new RegExp(`src="${origin}/embed/banner\\?theme=dark&amp;lang=de"`));
  await expect(card.getByLabel(/Content-Security-Policy/)).toHaveValue(`script-src ${origin}\nconnect-src ${origin}\nframe-src ${origin}`);
  await expect(card.locator('iframe')).toHaveAttribute('src', `${origin}/embed/banner?theme=dark&lang=de`);
  // a colour not of the form #rrggbb is flagged and left out of the snippet
  await card.getByLabel('Accent colour').fill('orange');
  await expect(card.getByText('Use the form #rrggbb.')).toBeVisible();
  await expect(card.getByLabel(/^Script/)).not.toHaveValue(/accent/);
  await card.getByLabel('Accent colour').fill('#ff6600');
  await expect(card.getByLabel(/^Script/)).toHaveValue(/data-accent="#ff6600"/);
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: `${SHOTS}/card-1280.png` });
  await expectNoSeriousA11yViolations(page);
  await page.setViewportSize({ width: 375, height: 800 });
  await card.scrollIntoViewIfNeeded();
  await card.screenshot({ path: `${SHOTS}/card-375.png` });
});
