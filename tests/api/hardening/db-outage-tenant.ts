// The tenant both database-outage tests watch: Acme with a monitor, its history and an incident
// (a status page with something to show), and its company admin signed in to try writes.
import { ApiClient, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { seedIncident, seedMonitor, seedScriptedHistory } from '../public/fixtures.ts';

export async function seedOutageTenant(t: TestApp): Promise<{ acme: { id: string; subdomain: string }; admin: ApiClient }> {
  const acme = await seedCompany(t.services, { name: 'Acme Corp' });
  const now = Date.now();
  const api = await seedMonitor(t.services.db, acme.id, now, { name: 'API' });
  await seedScriptedHistory(t.services.db, api, now);
  await seedIncident(t.services.db, acme.id, now, { monitorId: api.id, title: 'Elevated error rates' });
  const user = await seedUser(t.services, { userType: 2, companyId: acme.id });
  const admin = new ApiClient(t.baseUrl, `${acme.subdomain}.${t.config.productDomain}`);
  await signIn(admin, user);
  return { acme, admin };
}
