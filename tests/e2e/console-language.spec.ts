// The console's language (issue 32) in Chromium: English for a browser that asks for English, a
// user switching to Deutsch on the Appearance card sees the navigation, the header and the tab's
// title in German at once and after a reload, 'As my browser says' brings the browser's language
// back, and a German browser gets German without any choice. Screenshots at 1280 and 375 px.
import {
  adminApi,
  expect,
  seedCompany,
  seedUser,
  shotsIn,
  signInUi,
  tenantUrl,
  test,
  type SeededCompany,
  type SeededUser,
} from './console-fixtures.ts';

const shot = shotsIn('console-language', false);

let company: SeededCompany;
let admin: SeededUser;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  const api = await adminApi();
  company = await seedCompany(api);
  admin = await seedUser(api, 2, company.id);
  await api.dispose();
});

test('a user switches the console to Deutsch and back to the browser language', async ({ page }) => {
  await page.setViewportSize({ width: 1280, height: 900 });
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.goto(tenantUrl(company.subdomain, '/settings/account'));
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'My Monitors' })).toBeVisible();
  const card = page.getByTestId('appearance');
  await expect(card.getByLabel('Language')).toHaveValue('');

  await card.getByLabel('Language').selectOption({ label: 'Deutsch' });
  await card.getByRole('button', { name: 'Save appearance' }).click();
  // the console draws itself again in German: navigation, header, the card itself, the tab's title
  const navDe = page.getByRole('navigation', { name: 'Hauptnavigation' });
  await expect(navDe.getByRole('link', { name: 'Meine Monitore' })).toBeVisible();
  await expect(navDe.getByRole('link', { name: 'Bereitschaft' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Abmelden' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Konto', level: 1 })).toBeVisible();
  await expect(page.getByTestId('appearance').getByLabel('Sprache')).toHaveValue('de');
  await expect(page).toHaveTitle(/^Konto · /);
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('de');
  await shot(page, 'account-de-1280');

  // kept: the next page comes in German from the server (an English browser notwithstanding)
  await page.goto(tenantUrl(company.subdomain, '/monitors'));
  await expect(page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Meine Monitore' })).toBeVisible();
  await expect(page).toHaveTitle(/^Monitore · /);
  await page.setViewportSize({ width: 375, height: 800 });
  await page.goto(tenantUrl(company.subdomain, '/settings/account'));
  await expect(page.getByRole('heading', { name: 'Konto', level: 1 })).toBeVisible();
  await shot(page, 'account-de-375');
  await page.setViewportSize({ width: 1280, height: 900 });

  // back to what the browser says (English here)
  const cardDe = page.getByTestId('appearance');
  await cardDe.getByLabel('Sprache').selectOption({ label: 'Wie mein Browser es sagt' });
  await cardDe.getByRole('button', { name: 'Darstellung speichern' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'My Monitors' })).toBeVisible();
  await page.reload();
  await expect(page.getByRole('heading', { name: 'Account', level: 1 })).toBeVisible();
  await expect(page.getByTestId('appearance').getByLabel('Language')).toHaveValue('');
});

test('a German browser gets the console in German without choosing', async ({ browser }) => {
  const english = await browser.newContext();
  await signInUi(await english.newPage(), tenantUrl(company.subdomain), admin);
  // the same session in a German Chromium (its Accept-Language asks for German first)
  const ctx = await browser.newContext({
    locale: 'de-DE',
    viewport: { width: 1280, height: 900 },
    storageState: await english.storageState(),
  });
  await english.close();
  const page = await ctx.newPage();
  await page.goto(tenantUrl(company.subdomain, '/dashboard'));
  await expect(page.getByRole('navigation', { name: 'Hauptnavigation' }).getByRole('link', { name: 'Dashboard' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Abmelden' })).toBeVisible();
  await shot(page, 'dashboard-de-1280');
  await ctx.close();
});
