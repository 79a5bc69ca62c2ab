// Passkeys in Chromium with its virtual authenticator (CDP WebAuthn: a platform authenticator
// with resident keys and user verification, as a laptop's fingerprint reader): a company user
// adds a passkey on the Account screen (the password again, then the device's prompt) and keeps
// the recovery codes; signs out and signs in with the passkey alone (picked from the email
// field's suggestions, then with the button where the browser has no conditional UI); signs in with
// the password and the passkey as the second step; removes it, after which it signs in nobody.
// At 1280 and 375 px, with axe and screenshots (test-results/passkeys/).
import type { CDPSession, Page } from '@playwright/test';
import {
  adminApi,
  expectNoSeriousA11yViolations,
  seedCompany,
  seedUser,
  shotsIn,
  signInUi,
  tenantUrl,
  expect,
  test,
} from './console-fixtures.ts';

const shot = shotsIn('passkeys');

async function virtualAuthenticator(page: Page): Promise<{ cdp: CDPSession; id: string }> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, id: authenticatorId };
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('dialog', { name: 'Sign out' }).getByRole('button', { name: 'Sign out' }).click();
  await page.waitForURL((u) => ['/login', '/company-login'].includes(u.pathname));
}

const leftLogin = (u: URL) => !['/login', '/company-login'].includes(u.pathname) && !u.pathname.startsWith('/auth/');

for (const width of [1280, 375]) {
  test(`passkeys at ${width} px: add on the Account screen, sign in with it alone, as the second step, remove it`, async ({ page }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: 900 });
    const { cdp, id } = await virtualAuthenticator(page);
    const api = await adminApi();
    const co = await seedCompany(api);
    const user = await seedUser(api, 2, co.id);
    await signInUi(page, tenantUrl(co.subdomain), user);
    await page.goto(tenantUrl(co.subdomain, '/settings/account'));
    const card = page.getByTestId('passkeys');
    await expect(card).toContainText('No passkeys yet.');

    // add: a name and the password; a wrong password is refused before the device is asked
    await card.getByRole('button', { name: 'Add a passkey' }).click();
    await card.getByLabel('Name').fill('Work laptop');
    await card.getByLabel('Your password').fill('Not-the-password-1');
    await card.getByRole('button', { name: 'Continue' }).click();
    await expect(card.getByText('The password is not correct.')).toBeVisible();
    expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId: id })).credentials).toHaveLength(0);
    await card.getByLabel('Your password').fill(user.password);
    await expectNoSeriousA11yViolations(page);
    await shot(page, `account-add-${width}`);
    await card.getByRole('button', { name: 'Continue' }).click();
    await expect(card.getByTestId('recovery-codes').getByRole('listitem')).toHaveCount(10);
    await expect(card).toContainText('Passkey “Work laptop” added.');
    await expect(card.getByRole('row').filter({ hasText: 'Work laptop' })).toContainText('Never');
    await shot(page, `account-recovery-${width}`);
    await card.getByRole('button', { name: 'I have saved them' }).click();
    await expect(card.getByTestId('passkey-recovery-left')).toHaveText('10 of 10 recovery codes left.');
    const stored = (await cdp.send('WebAuthn.getCredentials', { authenticatorId: id })).credentials;
    expect(stored).toHaveLength(1);
    expect(stored[0].isResidentCredential).toBe(true);
    // PRODUCT_DOMAIN=localhost here: browsers refuse acme.localhost the RP ID localhost, so it is the host
    expect(stored[0].rpId).toBe(`${co.subdomain}.localhost`);

    // rename
    await card.getByRole('button', { name: 'Rename Work laptop' }).click();
    await card.getByLabel('New name').fill('Fingerprint reader');
    await card.getByRole('button', { name: 'Save' }).click();
    await expect(card.getByRole('row').filter({ hasText: 'Fingerprint reader' })).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await shot(page, `account-list-${width}`);

    // password-less, conditional UI: on the login page the browser offers the site's passkeys
    // among the email field's suggestions; the virtual authenticator picks the only one at once
    await signOut(page);
    await page.waitForURL(leftLogin);
    let me = await page.evaluate(() => fetch('/api/v1/auth/me').then((r) => r.json()));
    expect(me.email).toBe(user.email);

    // from here on, a browser without conditional UI: the button asks for the passkey
    await page.addInitScript(() => {
      Object.defineProperty(PublicKeyCredential, 'isConditionalMediationAvailable', { value: async () => false });
    });
    await signOut(page);
    await expectNoSeriousA11yViolations(page);
    await shot(page, `login-${width}`);
    await page.getByRole('button', { name: 'Use a passkey instead of a password' }).click();
    await page.waitForURL(leftLogin);
    me = await page.evaluate(() => fetch('/api/v1/auth/me').then((r) => r.json()));
    expect(me.email).toBe(user.email);
    expect((await cdp.send('WebAuthn.getCredentials', { authenticatorId: id })).credentials[0].signCount).toBeGreaterThan(1);

    // the password, then the passkey as the second step
    await signOut(page);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByText('Use one of your passkeys to finish signing in.')).toBeVisible();
    await expectNoSeriousA11yViolations(page);
    await shot(page, `login-second-step-${width}`);
    await page.getByRole('button', { name: 'Use a passkey', exact: true }).click();
    await page.waitForURL(leftLogin);

    // the list shows the use; remove it with the password
    await page.goto(tenantUrl(co.subdomain, '/settings/account'));
    const row = card.getByRole('row').filter({ hasText: 'Fingerprint reader' });
    await expect(row).not.toContainText('Never');
    await card.getByRole('button', { name: 'Remove Fingerprint reader' }).click();
    await card.getByLabel(/Your password, to remove/).fill(user.password);
    await shot(page, `account-remove-${width}`);
    await card.getByRole('button', { name: 'Remove passkey' }).click();
    await expect(card).toContainText('Passkey “Fingerprint reader” removed. It no longer signs you in.');
    await expect(card).toContainText('No passkeys yet.');

    // the authenticator still holds it, but it signs in nobody now
    await signOut(page);
    await page.getByRole('button', { name: 'Use a passkey instead of a password' }).click();
    await expect(page.getByRole('alert')).toContainText('This passkey is not registered with StatusWatch.');
    await shot(page, `login-removed-${width}`);
    await expect(page).toHaveURL(/\/(company-)?login/);
  });
}
