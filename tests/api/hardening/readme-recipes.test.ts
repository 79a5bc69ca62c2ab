// The docs' curl recipes (docs/api.md, "Monitoring in five minutes", and docs/features/telemetry.md),
// run as written by the real curl binary against a real server: the blocks marked
// `<!-- recipe: NAME -->` in any page of the docs run in one shell, with only the port and the super
// administrator's password put in. What each block claims to do is then checked.
import { execFile } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedUser, signIn, TEST_PASSWORD } from '../../support/fixtures.ts';
import { tempDir } from '../../support/test-db.ts';
import { allDocs } from '../../support/docs.ts';

/** The marked sh blocks of the docs by name, dedented (some sit inside list items). */
export function recipeBlocks(markdown: string): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const m of markdown.matchAll(/<!-- recipe: (\S+)[^>]*-->\s*\n([ \t]*)```sh\n([\s\S]*?)\n[ \t]*```/g)) {
    const indent = m[2];
    blocks.set(
      m[1],
      m[3]
        .split('\n')
        .map((l) => (l.startsWith(indent) ? l.slice(indent.length) : l))
        .join('\n'),
    );
  }
  return blocks;
}

/** The JSON documents curl printed one after another (its answers end with no newline). */
function jsonValues(text: string): unknown[] {
  const values: unknown[] = [];
  let depth = 0;
  let inString = false;
  let start = -1;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') {
      if (depth++ === 0) start = i;
    } else if ((ch === '}' || ch === ']') && --depth === 0) values.push(JSON.parse(text.slice(start, i + 1)));
  }
  return values;
}

function runShell(script: string, cwd: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['-e', '-o', 'pipefail', '-c', script], { cwd, timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('curl recipes of the docs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: 'sqlite' });
    await seedUser(t.services, { userType: 1, email: 'root@example.com' });
  });
  afterAll(async () => t?.close());

  it('work as written with the installed curl', async () => {
    const blocks = recipeBlocks(allDocs());
    const order = ['main-host', 'company-host', 'api-key'];
    expect([...blocks.keys()].sort()).toEqual([...order].sort());
    const script = order
      .map((name) => `echo "@@ ${name}"\n${blocks.get(name)!}\necho`)
      .join('\n')
      .replace(/\b4321\b/g, String(t.port))
      .replace('your-password', TEST_PASSWORD);
    const run = await runShell(script, tempDir());
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const out = Object.fromEntries(
      run.stdout
        .split(/^@@ /m)
        .filter(Boolean)
        .map((s) => [s.slice(0, s.indexOf('\n')), s.slice(s.indexOf('\n') + 1)]),
    );

    // main host: signed in, then a company, its monitor and its admin exist
    expect(out['main-host']).toContain('"email":"root@example.com"');
    const admin = t.client();
    await signIn(admin, { email: 'root@example.com', password: TEST_PASSWORD });
    const companies = (await admin.get('/api/v1/admin/companies')).body as Array<{ id: string; subdomain: string; plan: string }>;
    const acme = companies.find((c) => c.subdomain === 'acme')!;
    expect(acme).toMatchObject({ plan: 'professional' });
    const monitors = (await admin.get('/api/v1/monitors')).body as Array<{ name: string; company_id: string; is_public: boolean }>;
    expect(monitors).toEqual([expect.objectContaining({ name: 'Website', company_id: acme.id, is_public: true })]);
    const users = (await admin.get('/api/v1/admin/users')).body as Array<{ email: string; company_id: string | null }>;
    expect(users).toContainEqual(expect.objectContaining({ email: 'ops@acme.test', company_id: acme.id }));

    // company host: the company admin's monitors, and the public summary
    const [monitorList, summary] = jsonValues(out['company-host']);
    expect(monitorList).toEqual([expect.objectContaining({ name: 'Website' })]);
    expect(summary).toMatchObject({ page: { name: 'Acme' }, components: [expect.objectContaining({ name: 'Website' })] });

    // keys: one by the company admin, one by the super admin, which the ingest endpoint takes
    const [companyKey, ingest, extra] = jsonValues(out['api-key']);
    expect(companyKey).toMatchObject({ name: 'checkout', scope: 'ingest', company_id: acme.id, key: expect.stringMatching(/^sw_live_/) });
    expect(ingest).toEqual(expect.any(Object));
    expect(extra).toBeUndefined();
    const keys = (await admin.get(`/api/v1/api-keys?company_id=${acme.id}`)).body as Array<{ name: string }>;
    expect(keys.map((k) => k.name).sort()).toEqual(['checkout', 'deploys']);
  });
});
