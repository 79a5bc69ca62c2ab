// Companies for the importer tests, made through the API as an operator would: each with its
// admin signed in and two API tokens (read and write scope), and the CLI's environment for them.
import { expect } from 'vitest';
import { signIn } from './fixtures.ts';
import { ApiClient, type TestApp } from './test-app.ts';

export interface ImportCompanies {
  clients: Record<string, ApiClient>;
  /** STATUSWATCH_URL and STATUSWATCH_TOKEN of the company's read or write token */
  env(company: string, scope?: 'read' | 'write'): Record<string, string>;
  add(subdomain: string, plan: 'starter' | 'enterprise'): Promise<void>;
}

export function importCompanies(t: () => TestApp, root: () => ApiClient): ImportCompanies {
  const tokens: Record<string, string> = {};
  const hosts: Record<string, string> = {};
  const clients: Record<string, ApiClient> = {};
  return {
    clients,
    env: (company, scope = 'write') => ({
      STATUSWATCH_URL: `http://${hosts[company]}:${t().port}`,
      STATUSWATCH_TOKEN: tokens[`${company}:${scope}`] as string,
    }),
    async add(subdomain, plan) {
      const made = await root().post('/api/v1/admin/companies', {
        name: `Company ${subdomain}`,
        email: `hello@${subdomain}.example.com`,
        subdomain,
        plan,
      });
      expect(made.status, made.text).toBe(201);
      const email = `admin@${subdomain}.example.com`;
      const user = await root().post('/api/v1/admin/users', {
        name: 'Admin',
        email,
        password: 'Good-password-1',
        user_type: '2',
        company_id: made.body.id,
      });
      expect(user.status, user.text).toBe(201);
      hosts[subdomain] = `${subdomain}.${t().config.productDomain}`;
      const admin = new ApiClient(t().baseUrl, hosts[subdomain]);
      await signIn(admin, { email, password: 'Good-password-1' });
      clients[subdomain] = admin;
      for (const scope of ['read', 'write']) {
        const r = await admin.post('/api/v1/api-tokens', { name: `cli ${scope}`, scope });
        expect(r.status, r.text).toBe(201);
        tokens[`${subdomain}:${scope}`] = r.body.token;
      }
    },
  };
}
