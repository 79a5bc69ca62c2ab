// Incident templates in the console (issue 30 item 6), as a company admin on the company's host:
// add an incident template on its screen, then write an incident and schedule maintenance with
// "Use template" filling each form, at 1280 and 375 px. A viewer reads the templates with no
// buttons to change them.
import type { Page } from '@playwright/test';
import {
  adminApi,
  expect,
  expectNoSeriousA11yViolations,
  loopbackTarget,
  seedCompany,
  seedUser,
  shotsIn,
  signInUi,
  tenantUrl,
  test,
} from './console-fixtures.ts';

const target = loopbackTarget((_req, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
const shot = shotsIn('incident-templates');

/** Screenshots at 1280 and 375 px; at 375 nothing may scroll sideways. */
async function shots(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 900 });
  await shot(page, `${name}-1280`);
  await page.setViewportSize({ width: 375, height: 800 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(375);
  await shot(page, `${name}-375`);
  await page.setViewportSize({ width: 1280, height: 900 });
}

test('an admin keeps templates and writes an incident and a maintenance window from them; a viewer only reads', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  const api = await adminApi();
  const company = await seedCompany(api);
  const admin = await seedUser(api, 2, company.id);
  const viewer = await seedUser(api, 3, company.id);
  const monitor = async (name: string) => {
    const r = await api.post('/api/v1/monitors', {
      data: {
        type: 'http',
        company_id: company.id,
        name,
        url: `http://127.0.0.1:${target.port()}/`,
        interval_seconds: 3600,
        is_public: true,
      },
    });
    expect(r.status(), await r.text()).toBe(201);
    return (await r.json()).id as string;
  };
  await monitor('Checkout');
  const search = await monitor('Search');
  const upgrade = await api.post('/api/v1/incident-templates', {
    data: {
      company_id: company.id,
      name: 'Search index rebuild',
      kind: 'maintenance',
      title: 'Search index rebuild',
      message: 'Search results may be incomplete for up to an hour.',
      monitor_ids: [search],
    },
  });
  expect(upgrade.status(), await upgrade.text()).toBe(201);

  // The templates screen: add an incident template.
  await signInUi(page, tenantUrl(company.subdomain), admin);
  await page.goto(tenantUrl(company.subdomain, '/settings/incident-templates'));
  await expect(page.getByRole('heading', { name: 'Incident templates', level: 2 })).toBeVisible();
  await page.getByRole('button', { name: 'Add template' }).click();
  const add = page.getByRole('dialog', { name: 'Add template' });
  await add.getByLabel('Name').fill('Payment provider outage');
  await add.getByLabel('Title').fill('Card payments are failing');
  await add.getByLabel('Impact').selectOption('critical');
  await add.getByLabel('Message').fill('Our payment provider has an outage; card payments fail. We are in touch with them.');
  await add.getByRole('group', { name: 'Affected monitors' }).getByRole('checkbox', { name: 'Checkout' }).check();
  await expectNoSeriousA11yViolations(page);
  await shots(page, 'template-add');
  await add.getByRole('button', { name: 'Add template' }).click();
  await expect(add).toBeHidden();
  await expect(page.getByText('Template "Payment provider outage" added.')).toBeVisible();
  const list = page.getByRole('table', { name: /Templates/ });
  await expect(list.getByRole('row')).toHaveCount(3);
  await expect(list.getByText('Critical: major outage')).toBeVisible();
  await expectNoSeriousA11yViolations(page);
  await shots(page, 'templates-list');

  // Write incident: Use template fills the form; the admin changes the title before publishing.
  await page.goto(tenantUrl(company.subdomain, '/monitors/incidents'));
  await page.getByRole('button', { name: 'Write incident' }).click();
  const write = page.getByRole('dialog', { name: 'Write incident' });
  const useTemplate = write.getByLabel('Use template');
  // Only incident templates are offered here.
  await expect(useTemplate.getByRole('option')).toHaveText(['No template', 'Payment provider outage']);
  await useTemplate.selectOption({ label: 'Payment provider outage' });
  await expect(write.getByLabel('Title')).toHaveValue('Card payments are failing');
  await expect(write.getByLabel('Impact')).toHaveValue('critical');
  await expect(write.getByLabel('Message')).toHaveValue(
    'Our payment provider has an outage; card payments fail. We are in touch with them.',
  );
  await expect(write.getByRole('checkbox', { name: 'Checkout' })).toBeChecked();
  await expect(write.getByRole('checkbox', { name: 'Search' })).not.toBeChecked();
  await write.getByLabel('Title').fill('Card payments are failing in Europe');
  await expectNoSeriousA11yViolations(page);
  await shots(page, 'incident-from-template');
  await write.getByRole('button', { name: 'Publish incident' }).click();
  await expect(page).toHaveURL(/\/monitors\/incidents\/[\w-]+$/);
  await expect(page.getByRole('heading', { name: 'Card payments are failing in Europe' })).toBeVisible();
  await expect(page.getByText('Our payment provider has an outage; card payments fail.', { exact: false })).toBeVisible();

  // Schedule maintenance: the maintenance template fills title, description and monitors.
  await page.goto(tenantUrl(company.subdomain, '/monitors/maintenance'));
  await page.getByRole('button', { name: 'Schedule maintenance' }).click();
  const schedule = page.getByRole('dialog', { name: 'Schedule maintenance' });
  await expect(schedule.getByLabel('Use template').getByRole('option')).toHaveText(['No template', 'Search index rebuild']);
  await schedule.getByLabel('Use template').selectOption({ label: 'Search index rebuild' });
  await expect(schedule.getByLabel('Title')).toHaveValue('Search index rebuild');
  await expect(schedule.getByLabel('Description')).toHaveValue('Search results may be incomplete for up to an hour.');
  await expect(schedule.getByRole('checkbox', { name: 'Search' })).toBeChecked();
  await expectNoSeriousA11yViolations(page);
  await shots(page, 'maintenance-from-template');
  await schedule.getByRole('button', { name: 'Schedule' }).click();
  await expect(schedule).toBeHidden();
  await expect(page.getByText('Maintenance scheduled.')).toBeVisible();
  const row = page.getByRole('row', { name: /Search index rebuild/ });
  await expect(row.getByText('Search results may be incomplete for up to an hour.')).toBeVisible();
  await expect(row.getByRole('cell', { name: 'Search', exact: true })).toBeVisible();

  // A viewer reads the templates, with nothing to change them.
  const context = await browser.newContext();
  const viewerPage = await context.newPage();
  await signInUi(viewerPage, tenantUrl(company.subdomain), viewer);
  await viewerPage.goto(tenantUrl(company.subdomain, '/settings/incident-templates'));
  await expect(viewerPage.getByRole('table', { name: /Templates/ }).getByText('Payment provider outage')).toBeVisible();
  await expect(viewerPage.getByRole('button', { name: 'Add template' })).toHaveCount(0);
  await expect(viewerPage.getByRole('button', { name: /^Edit / })).toHaveCount(0);
  await expect(viewerPage.getByText('Only your company’s admins can add, edit or delete them.')).toBeVisible();
  await context.close();
});
