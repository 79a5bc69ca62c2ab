// The first hour of a self-signed-up company (issue 25 items 4 and 5), in Chromium: signup asks
// for the person's name, the company's name and the subdomain (prefilled, checked live, the
// address shown); the new admin invites a teammate from the first-steps card and /team; the
// teammate takes the mailed link from the SMTP sink, sets a password and signs in. The Platform
// settings switch turns company admins' invitations off (the card and /team then say whom to
// ask); a company admin moves the company to another address. Axe and screenshots at 1366/390 px.
import type { Page } from '@playwright/test';
import {
  adminApi,
  E2E_ADMIN,
  expect,
  expectNoSeriousA11yViolations,
  mails,
  mainUrl,
  PASSWORD,
  seedCompany,
  seedUser,
  shotsIn,
  signInUi,
  tenantUrl,
  test,
  unique,
} from './console-fixtures.ts';

const shot = shotsIn('console-signup-team');
const unQp = (s: string) => s.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

async function mailedLink(email: string, path: string): Promise<string> {
  await expect.poll(() => mails.some((m) => m.to.includes(email)), { timeout: 10_000 }).toBe(true);
  const raw = unQp(mails.filter((m) => m.to.includes(email)).at(-1)!.raw);
  return raw.match(new RegExp(`https?://\\S+/${path}\\?token=[\\w-]+`))![0];
}

async function atWidths(page: Page, name: string): Promise<void> {
  for (const width of [1366, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
    await shot(page, `${name}-${width}`);
  }
  await page.setViewportSize({ width: 1366, height: 900 });
}

test('a self-signed-up company admin invites a teammate who signs in', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const api = await adminApi();
  const other = await seedCompany(api);
  await api.dispose();
  const tag = unique('r');
  const company = `Rocket ${tag}`;
  const subdomain = `rocket-${tag}`.toLowerCase();
  const founder = `${tag}-founder@example.com`;
  const teammate = `${tag}-mate@example.com`;

  await page.goto(mainUrl('/signup'));
  await page.getByLabel('Your name').fill('Sam Founder');
  await page.getByLabel('Company name').fill(company);
  // the subdomain follows the company's name, and the live check shows the address
  const sub = page.getByLabel('Subdomain');
  const status = page.getByTestId('subdomain-status');
  await expect(sub).toHaveValue(subdomain);
  await expect(status).toHaveText(`✓ Available: the address will be ${tenantUrl(subdomain, '').replace(/\/$/, '')}`);
  // someone else's subdomain, then a reserved word: said at once, before sending
  await sub.fill(other.subdomain);
  await expect(status).toHaveText('This subdomain is already taken. Please choose another.');
  await sub.fill('admin');
  await expect(status).toHaveText("The subdomain 'admin' is reserved. Please choose another.");
  await sub.fill(subdomain);
  await expect(status).toContainText('✓ Available');
  await page.getByLabel('Email').fill(founder);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await expectNoSeriousA11yViolations(page);
  await atWidths(page, 'signup');
  await page.getByRole('button', { name: 'Sign up', exact: true }).click();
  await expect(page.getByRole('alert')).toHaveText('Check your e-mail to finish creating your account.');

  // the mailed link creates the company at the chosen address and signs the founder in there
  await page.goto(await mailedLink(founder, 'signup'));
  await page.waitForURL(tenantUrl(subdomain, '/dashboard'));
  await expect(page.getByText('Sam Founder').or(page.getByText(founder)).first()).toBeVisible();
  const card = page.getByRole('region', { name: 'First steps' });
  await expect(card.getByRole('link', { name: 'Invite your team' })).toHaveAttribute('href', '/team');
  await card.getByRole('link', { name: 'Invite your team' }).click();
  await page.waitForURL(tenantUrl(subdomain, '/team'));
  await page.getByRole('button', { name: 'Invite user' }).click();
  const dialog = page.getByRole('dialog', { name: 'Invite user' });
  // a company admin invites to their own company: no company to choose
  await expect(dialog.getByLabel('Company')).toHaveCount(0);
  await dialog.getByLabel('Full Name').fill('Mia Mate');
  await dialog.getByLabel('Email').fill(teammate);
  await dialog.getByLabel('Role').selectOption({ label: 'User/Viewer' });
  await expectNoSeriousA11yViolations(page);
  await dialog.getByRole('button', { name: 'Send invitation' }).click();
  await expect(page.getByRole('alert')).toHaveText(`Invitation sent to ${teammate}.`);
  await expect(page.getByRole('row').filter({ hasText: teammate })).toContainText('Invited');
  await atWidths(page, 'team-invited');

  // the teammate opens the link on the company's address, sets a password and signs in there
  const link = await mailedLink(teammate, 'invite');
  expect(link.startsWith(tenantUrl(subdomain, '/invite?token='))).toBe(true);
  const mate = await (await browser.newContext()).newPage();
  await mate.goto(link);
  await expect(mate.getByText(`Welcome, Mia Mate. Choose a password for ${teammate} at ${company}.`)).toBeVisible();
  await mate.getByLabel('Password (at least 8 characters)').fill('Mia-picks-a-pass-1');
  await mate.getByLabel('Confirm Password').fill('Mia-picks-a-pass-1');
  await mate.getByRole('button', { name: 'Set password' }).click();
  await expect(mate.getByRole('status')).toContainText('Your password is set.');
  await mate.getByRole('link', { name: 'Sign in' }).click();
  await mate.getByLabel('Email').fill(teammate);
  await mate.getByLabel('Password', { exact: true }).fill('Mia-picks-a-pass-1');
  await mate.getByRole('button', { name: 'Sign in' }).click();
  await mate.waitForURL(tenantUrl(subdomain, '/dashboard'));
  await mate.goto(tenantUrl(subdomain, '/team'));
  await expect(mate.getByRole('row').filter({ hasText: teammate })).toContainText('Active');

  // the founder's team step is done
  await page.goto(tenantUrl(subdomain, '/dashboard'));
  await expect(card.getByRole('listitem').filter({ hasText: 'Invite your team' })).toContainText('(done)');
});

test('with company admins’ invitations off, the card and /team say whom to ask', async ({ page, browser }) => {
  test.setTimeout(60_000);
  const api = await adminApi();
  const co = await seedCompany(api);
  const admin = await seedUser(api, 2, co.id);
  await api.dispose();
  // the super admin turns it off on the Platform settings screen
  const root = await (await browser.newContext()).newPage();
  await signInUi(root, mainUrl(), E2E_ADMIN);
  await root.goto(mainUrl('/settings/platform'));
  const toggle = root.getByLabel('Company admins may invite teammates');
  await expect(toggle).toBeChecked();
  await toggle.uncheck();
  await expect(root.getByRole('alert')).toHaveText('Only super admins invite people now.');
  await expect(toggle).not.toBeChecked();
  await expect(root.getByRole('region', { name: 'Team invitations' })).toContainText('Every change is recorded in the audit log.');
  await expectNoSeriousA11yViolations(root);
  await atWidths(root, 'platform-invitations');
  try {
    await signInUi(page, tenantUrl(co.subdomain), admin);
    const card = page.getByRole('region', { name: 'First steps' });
    const step = card.getByRole('listitem').filter({ hasText: 'Get your team added' });
    await expect(step).toContainText('Only the platform administrator adds people here: ask them to invite your colleagues.');
    await expect(card.getByRole('link', { name: /team/i })).toHaveCount(0);
    await atWidths(page, 'first-steps-ask');
    await page.goto(tenantUrl(co.subdomain, '/team'));
    await expect(page.getByText('Only the platform administrator adds people here: ask them to invite your colleagues.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Invite user' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    await atWidths(page, 'team-ask');
  } finally {
    await root.goto(mainUrl('/settings/platform'));
    await root.getByLabel('Company admins may invite teammates').check();
    await expect(root.getByRole('alert')).toHaveText('Company admins may now invite teammates.');
  }
});

test('a company admin moves the company to another address and lands there signed in', async ({ page }) => {
  const api = await adminApi();
  const co = await seedCompany(api);
  const taken = await seedCompany(api);
  const admin = await seedUser(api, 2, co.id);
  await api.dispose();
  const next = `${co.subdomain}-new`;
  await signInUi(page, tenantUrl(co.subdomain), admin);
  await page.goto(tenantUrl(co.subdomain, '/settings/company'));
  const section = page.getByRole('region', { name: 'Address' });
  const sub = section.getByLabel('Subdomain');
  await expect(sub).toHaveValue(co.subdomain);
  await expect(section.getByTestId('subdomain-status')).toHaveText(`Current address: ${tenantUrl(co.subdomain, '').replace(/\/$/, '')}`);
  await sub.fill(taken.subdomain);
  await expect(section.getByTestId('subdomain-status')).toHaveText('This subdomain is already taken. Please choose another.');
  await sub.fill(next);
  await expect(section.getByTestId('subdomain-status')).toHaveText(
    `✓ Available: the address will be ${tenantUrl(next, '').replace(/\/$/, '')}`,
  );
  await expectNoSeriousA11yViolations(page);
  await atWidths(page, 'settings-address');
  await section.getByRole('button', { name: 'Change address' }).click();
  const confirm = page.getByRole('dialog', { name: "Change the company's address" });
  await expect(confirm).toContainText(`to ${next}?`);
  await confirm.getByRole('button', { name: 'Change address' }).click();
  await page.waitForURL(tenantUrl(next, '/settings/company'));
  await expect(page.getByRole('region', { name: 'Address' }).getByLabel('Subdomain')).toHaveValue(next);
  // the old address leads nowhere now
  await page.goto(tenantUrl(co.subdomain, '/'));
  await expect(page.getByText('Status Page Not Found')).toBeVisible();
});
