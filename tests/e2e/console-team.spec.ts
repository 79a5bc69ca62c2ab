// /team in the browser: a company admin renames, switches admin <-> viewer, deactivates (the
// user's open session ends) and reactivates; a viewer sees the list with no buttons; a super
// admin invites, the invitee opens the mailed link on the company's host, sets a password and
// signs in there; a used, revoked or replaced link gets a clear page. Axe and screenshots.
import type { Page } from '@playwright/test';
import {
  adminApi,
  E2E_ADMIN,
  expectNoSeriousA11yViolations,
  mails,
  mainUrl,
  seedCompany,
  seedUser,
  shot,
  signInUi,
  tenantUrl,
  unique,
  expect,
  test,
} from './console-fixtures.ts';

const unQp = (s: string) => s.replace(/=\r?\n/g, '').replace(/=3D/g, '=');

async function inviteLink(email: string, nth = 1): Promise<string> {
  await expect.poll(() => mails.filter((m) => m.to.includes(email)).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(nth);
  const raw = unQp(mails.filter((m) => m.to.includes(email))[nth - 1].raw);
  return raw.match(/https?:\/\/\S+\/invite\?token=[\w-]+/)![0];
}

const row = (page: Page, email: string) => page.getByRole('row').filter({ hasText: email });

test.describe('Team', () => {
  test('company admin manages the team; a deactivated user is signed out at once', async ({ page, browser }) => {
    const api = await adminApi();
    const co = await seedCompany(api);
    const admin = await seedUser(api, 2, co.id);
    const member = await seedUser(api, 3, co.id);
    // the member is signed in elsewhere
    const other = await (await browser.newContext()).newPage();
    await signInUi(other, tenantUrl(co.subdomain), member);

    await signInUi(page, tenantUrl(co.subdomain), admin);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Team' }).click();
    await expect(page.getByRole('heading', { name: 'Members (2)' })).toBeVisible();
    await expect(page.getByText('Coming Soon')).toHaveCount(0);
    await expect(row(page, member.email)).toContainText('Active');
    await expect(row(page, member.email)).toContainText('User/Viewer');
    // no buttons that would fail: nothing that changes the admin's own access; inviting is on
    // because this platform has self-service signup (console-signup-team.spec.ts has it off)
    await expect(page.getByRole('button', { name: 'Invite user' })).toBeVisible();
    await expect(page.getByRole('button', { name: `Deactivate ${admin.email}` })).toHaveCount(0);
    await expect(page.getByRole('button', { name: new RegExp(`Make viewer: ${admin.email}`) })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
    await page.setViewportSize({ width: 1280, height: 800 });
    await shot(page, 'team-admin-1280');

    await page.getByRole('button', { name: `Rename ${member.email}` }).click();
    const dialog = page.getByRole('dialog', { name: 'Rename user' });
    await dialog.getByLabel('Full Name').fill('Marta Member');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('alert')).toHaveText('Marta Member renamed.');
    await expect(row(page, member.email)).toContainText('Marta Member');

    await page.getByRole('button', { name: `Make admin: ${member.email}` }).click();
    await expect(row(page, member.email)).toContainText('Company Admin');
    await page.getByRole('button', { name: `Make viewer: ${member.email}` }).click();
    await expect(row(page, member.email)).toContainText('User/Viewer');

    await page.getByRole('button', { name: `Deactivate ${member.email}` }).click();
    await page.getByRole('dialog', { name: 'Deactivate user' }).getByRole('button', { name: 'Deactivate' }).click();
    await expect(row(page, member.email)).toContainText('Deactivated');
    // the member's open session has ended: the next page load asks them to sign in
    await other.goto(tenantUrl(co.subdomain, '/dashboard'));
    await other.waitForURL((u) => ['/login', '/company-login'].includes(u.pathname));
    await other.getByLabel('Email').fill(member.email);
    await other.getByLabel('Password', { exact: true }).fill(member.password);
    await other.getByRole('button', { name: 'Sign in' }).click();
    await expect(other.getByText('This account is disabled. Please contact your administrator.')).toBeVisible();

    await page.getByRole('button', { name: `Reactivate ${member.email}` }).click();
    await expect(row(page, member.email)).toContainText('Active');
    // a phone opens the page afresh (the navigation starts collapsed there)
    await page.setViewportSize({ width: 375, height: 800 });
    await page.reload();
    await expect(row(page, member.email)).toContainText('Active');
    await shot(page, 'team-admin-375');
    await expectNoSeriousA11yViolations(page);
  });

  test('a viewer sees the team read-only', async ({ page }) => {
    const api = await adminApi();
    const co = await seedCompany(api);
    await seedUser(api, 2, co.id);
    const viewer = await seedUser(api, 3, co.id);
    await signInUi(page, tenantUrl(co.subdomain), viewer);
    await page.goto(tenantUrl(co.subdomain, '/team'));
    await expect(page.getByRole('heading', { name: 'Members (2)' })).toBeVisible();
    await expect(
      page.getByText(
        /^You can see your team; only company admins change it\. To add someone, ask a company admin \(.+\) to invite them\.$/,
      ),
    ).toBeVisible();
    await expect(page.getByRole('main').getByRole('button')).toHaveCount(0);
    await expect(page.getByRole('columnheader', { name: 'Actions' })).toHaveCount(0);
    await expectNoSeriousA11yViolations(page);
  });

  test('super admin invites; the invitee sets a password through the link and signs in on the company host', async ({ page, browser }) => {
    const api = await adminApi();
    const co = await seedCompany(api);
    const email = `${unique('inv')}@example.com`;
    await signInUi(page, mainUrl(), E2E_ADMIN);
    await page.goto(mainUrl('/team'));
    await page.getByRole('button', { name: 'Invite user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite user' });
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await expect(dialog.getByText('Full Name is required')).toBeVisible();
    await dialog.getByLabel('Full Name').fill('Ines Invitee');
    await dialog.getByLabel('Email').fill(email);
    await dialog.getByLabel('Company').selectOption({ label: co.name });
    await dialog.getByLabel('Role').selectOption({ label: 'Company Admin' });
    await expectNoSeriousA11yViolations(page);
    await dialog.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page.getByRole('alert')).toHaveText(`Invitation sent to ${email}.`);
    await expect(row(page, email)).toContainText('Invited');
    await expect(row(page, email)).toContainText(co.name);
    await page.setViewportSize({ width: 1280, height: 800 });
    await shot(page, 'team-super-1280');

    // resend: a new link, the first one dies (after the one-minute pause, so only its refusal is seen here)
    await page.getByRole('button', { name: `Resend invitation to ${email}` }).click();
    await expect(page.getByRole('alert')).toContainText('This invitation was sent moments ago.');

    const link = await inviteLink(email);
    expect(link.startsWith(tenantUrl(co.subdomain, '/invite?token='))).toBe(true);
    const invitee = await (await browser.newContext()).newPage();
    await invitee.goto(link);
    await expect(invitee.getByRole('heading', { name: 'Accept your invitation' })).toBeVisible();
    await expect(invitee.getByText(`Welcome, Ines Invitee. Choose a password for ${email} at ${co.name}.`)).toBeVisible();
    await expectNoSeriousA11yViolations(invitee);
    await invitee.setViewportSize({ width: 375, height: 800 });
    await invitee.screenshot({ path: '.tmp/console-shots/invite-375.png', fullPage: true });
    await invitee.getByLabel('Password (at least 8 characters)').fill('password');
    await invitee.getByLabel('Confirm Password').fill('password');
    await invitee.getByRole('button', { name: 'Set password' }).click();
    await expect(invitee.getByRole('alert')).toHaveText('This password is too common. Choose another.');
    await invitee.getByLabel('Password (at least 8 characters)').fill('Ines-picks-1');
    await invitee.getByLabel('Confirm Password').fill('Ines-picks-1');
    await invitee.getByRole('button', { name: 'Set password' }).click();
    await expect(invitee.getByRole('status')).toContainText('Your password is set.');
    await invitee.getByRole('link', { name: 'Sign in' }).click();
    await invitee.getByLabel('Email').fill(email);
    await invitee.getByLabel('Password', { exact: true }).fill('Ines-picks-1');
    await invitee.getByRole('button', { name: 'Sign in' }).click();
    await invitee.waitForURL(tenantUrl(co.subdomain, '/dashboard'));

    // the link works once
    const again = await (await browser.newContext()).newPage();
    await again.goto(link);
    await expect(again.getByRole('alert')).toHaveText(
      'This invitation has already been used. Please sign in with your email and password.',
    );
    await again.setViewportSize({ width: 1280, height: 800 });
    await again.screenshot({ path: '.tmp/console-shots/invite-used-1280.png', fullPage: true });
    await expectNoSeriousA11yViolations(again);

    // the new member is on the team, no longer an invitation
    await page.reload();
    await expect(row(page, email)).toContainText('Active');
    await page.setViewportSize({ width: 375, height: 800 });
    await page.reload();
    await expect(row(page, email)).toContainText('Active');
    await shot(page, 'team-super-375');
  });

  test('a revoked link gets a clear page', async ({ page }) => {
    const api = await adminApi();
    const co = await seedCompany(api);
    const email = `${unique('rev')}@example.com`;
    const r = await api.post('/api/v1/admin/invitations', { data: { email, name: 'Rex', company_id: co.id, user_type: '3' } });
    expect(r.status()).toBe(201);
    const link = await inviteLink(email);
    await signInUi(page, mainUrl(), E2E_ADMIN);
    await page.goto(mainUrl('/team'));
    await page.getByRole('button', { name: `Revoke invitation to ${email}` }).click();
    await expect(page.getByRole('alert')).toHaveText(`Invitation to ${email} revoked.`);
    await expect(row(page, email)).toHaveCount(0);
    await page.goto(link);
    await expect(page.getByRole('alert')).toContainText('This invitation link is not valid.');
    await expect(page.getByRole('button', { name: 'Set password' })).toHaveCount(0);
  });
});
