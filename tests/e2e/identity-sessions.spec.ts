// Sessions in real Chromium: the cross-host handoff leaves host-only, HttpOnly, Secure,
// SameSite=Lax cookies on each host and nothing on a parent domain or another company's host.
import { test, expect, request } from '@playwright/test';
import { E2E_ADMIN, mainUrl, tenantUrl } from './support/env.ts';

function unique(prefix: string): string {
  return `${prefix}${Date.now().toString(36)}${Math.floor(Math.random() * 1e6).toString(36)}`;
}

test('a company admin signing in on the main host is handed over to their subdomain with host-only cookies', async ({ page, context }) => {
  const api = await request.newContext({ baseURL: mainUrl() });
  expect((await api.post('/api/v1/auth/login', { data: E2E_ADMIN })).status()).toBe(200);
  const sub = unique('idco');
  const other = unique('idother');
  const company = await (
    await api.post('/api/v1/admin/companies', { data: { name: `Co ${sub}`, email: `o@${sub}.example.com`, subdomain: sub } })
  ).json();
  expect(
    (
      await api.post('/api/v1/admin/companies', { data: { name: `Co ${other}`, email: `o@${other}.example.com`, subdomain: other } })
    ).status(),
  ).toBe(201);
  const email = `${unique('idu')}@example.com`;
  const password = 'Identity-e2e-pass-1';
  expect(
    (
      await api.post('/api/v1/admin/users', { data: { name: 'E2E Admin', email, password, user_type: '2', company_id: company.id } })
    ).status(),
  ).toBe(201);
  await api.dispose();

  // sign in on the main host, as the console does, then follow redirect_to
  const login = await page.request.post(mainUrl('/api/v1/auth/login'), {
    data: { email, password },
    headers: { origin: mainUrl('').replace(/\/$/, '') },
  });
  expect(login.status()).toBe(200);
  const { redirect_to } = await login.json();
  expect(redirect_to).toMatch(new RegExp(`^${tenantUrl(sub, '/auth/handoff\\?code=')}`));
  // the console leaves the main host's page for redirect_to; typed into the address bar (or
  // opened from a mail) the same link signs nobody in (login CSRF), and the code stays unused
  await page.goto(redirect_to);
  await expect(page).toHaveURL(tenantUrl(sub, '/company-login?error=handoff'));
  await page.goto(mainUrl('/login'));
  await page.evaluate((url) => location.assign(url), redirect_to);
  await expect(page).toHaveURL(tenantUrl(sub, '/dashboard'));

  const cookies = await context.cookies();
  const session = cookies.filter((c) => c.name === 'sw_at' || c.name === 'sw_rt');
  expect(session.map((c) => c.domain).sort()).toEqual([`${sub}.localhost`, `${sub}.localhost`, 'localhost', 'localhost']);
  for (const c of session) {
    expect(c.domain.startsWith('.'), `${c.name} on ${c.domain} must be host-only`).toBe(false);
    expect(c.httpOnly).toBe(true);
    expect(c.secure).toBe(true);
    expect(c.sameSite).toBe('Lax');
  }
  // scripts on the page cannot read the session
  expect(await page.evaluate(() => document.cookie)).not.toContain('sw_');

  // the browser is signed in on its own subdomain, and nowhere else
  // (fetch runs in the browser: Node's resolver does not know *.localhost, Chromium does)
  const me = await page.evaluate(async () => {
    const r = await fetch('/api/v1/auth/me');
    return { status: r.status, body: await r.json() };
  });
  expect(me.status).toBe(200);
  expect(me.body.company.subdomain).toBe(sub);
  const elsewhere = await context.newPage();
  const r = await elsewhere.goto(tenantUrl(other, '/api/v1/auth/me'));
  expect(r!.status()).toBe(401);
  await elsewhere.close();

  // the handoff code was single use
  const again = await context.browser()!.newContext();
  const p2 = await again.newPage();
  await p2.goto(mainUrl('/login'));
  await p2.evaluate((url) => location.assign(url), redirect_to);
  await expect(p2).toHaveURL(tenantUrl(sub, '/company-login?error=handoff'));
  expect((await again.cookies()).filter((c) => c.name.startsWith('sw_'))).toEqual([]);
  await again.close();
});
