// Incident summaries by the operator's language model (issue 33, item 3), on both databases,
// against a loopback OpenAI-compatible fake that checks every request: a company admin opts in;
// a summary is written from the incident's evidence only (nothing of another company, no
// credentials) and stored with its prompt, evidence and tokens; the monthly budget is enforced
// before a call (over budget: no call) and counted from the answer's usage; without the opt-in
// or without a configured model no call is made, and each refusal says why.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { IncidentEvidence } from '../../src/lib/incident-evidence.ts';
import { summarizeOnEvidence } from '../../src/server/domain/incidents/summary/service.ts';
import { seedCompany, seedUser, signIn } from '../support/fixtures.ts';
import { FAKE_ANSWER, startFakeLlm, type FakeLlm } from '../support/fake-llm.ts';
import { startTestApp, type ApiClient, type TestApp } from '../support/test-app.ts';
import { DB_KINDS } from '../support/test-db.ts';

const KEY = 'sk-test-0123456789abcdef';
const MODEL = 'small-model-1';

function evidenceOf(incidentId: string, monitorId: string, hostName: string): IncidentEvidence {
  return {
    incident_id: incidentId,
    monitor_id: monitorId,
    built_at: '2026-11-30T06:50:00.000Z',
    updated_at: '2026-11-30T06:55:00.000Z',
    line: `TLS handshake 18× slower than usual; 2 of 3 locations; certificate of ${hostName} replaced 40 min before`,
    items: [
      {
        kind: 'phase',
        summary: 'TLS handshake 840 ms, baseline 45 ms (p95 of the last 7 days)',
        at: '2026-11-30T06:49:00.000Z',
        source: { label: 'Check results', href: `/monitors/${monitorId}` },
        data: { phase: 'tls', ms: 840, baseline_ms: 45 },
      },
      {
        kind: 'certificate_change',
        summary: `Certificate of ${hostName} replaced: issuer changed; health URL https://ops:hunter2@${hostName}/health?token=abc123xyz`,
        at: '2026-11-30T06:10:00.000Z',
        source: { label: 'SSL monitoring', href: '/security/ssl' },
        data: { host: hostName, old_issuer: 'R10', new_issuer: 'Self-signed', password: 'hunter2' },
      },
    ],
  };
}

describe.each(DB_KINDS)('incident summaries on %s', (kind) => {
  let t: TestApp;
  let off: TestApp;
  let llm: FakeLlm;
  let admin: ApiClient;
  let viewer: ApiClient;
  let globexAdmin: ApiClient;
  let acme: { id: string };
  let globex: { id: string };
  let incidentId: string;
  let bareIncidentId: string;
  let globexIncidentId: string;
  const evidence = new Map<string, IncidentEvidence>();
  const on = { host: 'acme.localhost' };
  const g = { host: 'globex.localhost' };

  const openIncident = async (client: ApiClient, host: { host: string }, monitor: string, title: string) => {
    const m = await client.post(
      '/api/v1/monitors',
      { name: monitor, type: 'http', url: 'http://127.0.0.1:9/', interval_seconds: 300 },
      host,
    );
    const i = await client.post(
      '/api/v1/incidents',
      { title, impact: 'major', message: 'Looking into it', monitor_ids: [m.body.id] },
      host,
    );
    expect(i.status).toBe(201);
    return { incident: i.body.id as string, monitor: m.body.id as string };
  };

  beforeAll(async () => {
    llm = await startFakeLlm({ apiKey: KEY, model: MODEL });
    t = await startTestApp({
      db: kind,
      env: {
        ALLOW_PRIVATE_TARGETS: 'true',
        LLM_BASE_URL: llm.baseUrl,
        LLM_API_KEY: KEY,
        LLM_MODEL: MODEL,
        LLM_MAX_TOKENS: '300',
        LLM_MONTHLY_TOKENS: '50000',
      },
    });
    // The evidence builder's store, as the port the coordinator wires: keyed by company and incident.
    t.services.loadEvidence = async (companyId, id) => evidence.get(`${companyId}/${id}`) ?? null;
    acme = await seedCompany(t.services, { name: 'Acme', subdomain: 'acme' });
    globex = await seedCompany(t.services, { name: 'Globex', subdomain: 'globex' });
    admin = t.client();
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }), 'acme.localhost');
    viewer = t.client();
    await signIn(viewer, await seedUser(t.services, { userType: 3, companyId: acme.id }), 'acme.localhost');
    globexAdmin = t.client();
    await signIn(globexAdmin, await seedUser(t.services, { userType: 2, companyId: globex.id }), 'globex.localhost');
    const a = await openIncident(admin, on, 'Checkout API', 'Checkout API is down');
    incidentId = a.incident;
    evidence.set(`${acme.id}/${a.incident}`, evidenceOf(a.incident, a.monitor, 'checkout.acme.test'));
    bareIncidentId = (await openIncident(admin, on, 'Blog', 'Blog is slow')).incident;
    const b = await openIncident(globexAdmin, g, 'Globex Vault Billing', 'Globex vault outage');
    globexIncidentId = b.incident;
    evidence.set(`${globex.id}/${b.incident}`, evidenceOf(b.incident, b.monitor, 'vault.globex.test'));
  });
  afterAll(async () => {
    await t?.close();
    await off?.close();
    await llm?.close();
  });

  it('makes no call before a company admin opts in, and says how to turn summaries on', async () => {
    const settings = await admin.get('/api/v1/company/incident-summaries', on);
    expect(settings.status).toBe(200);
    expect(settings.body).toMatchObject({ available: true, model: MODEL, enabled: false, monthly_tokens: 50000, used_tokens: 0, calls: 0 });
    const refused = await admin.post(`/api/v1/incidents/${incidentId}/summary`, undefined, on);
    expect(refused.status).toBe(409);
    expect(refused.body.detail).toMatch(/not turned on for this company: a company admin turns them on in Settings/);
    expect(await summarizeOnEvidence(t.services, acme.id, incidentId)).toBeUndefined();
    const none = await viewer.get(`/api/v1/incidents/${incidentId}/summary`, on);
    expect(none.status).toBe(404);
    expect(none.body.detail).toMatch(/no summary.*not turned on/);
    expect(llm.requests).toHaveLength(0);
  });

  it('lets only a company admin opt in (audited), within the operator’s limit', async () => {
    expect((await viewer.put('/api/v1/company/incident-summaries', { enabled: true }, on)).status).toBe(403);
    const tooMuch = await admin.put('/api/v1/company/incident-summaries', { enabled: true, monthly_tokens: 60000 }, on);
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.errors).toEqual({ monthly_tokens: "At most 50000 tokens a month (the operator's limit)" });
    const saved = await admin.put('/api/v1/company/incident-summaries', { enabled: true }, on);
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ enabled: true, own_monthly_tokens: null, monthly_tokens: 50000 });
    expect((await globexAdmin.put('/api/v1/company/incident-summaries', { enabled: true }, g)).status).toBe(200);
    const audit = await t.services.db.k
      .selectFrom('audit_events')
      .select(['details', 'tenant_id'])
      .where('event', '=', 'settings_update')
      .orderBy('timestamp')
      .execute();
    expect(audit.map((a) => [JSON.parse(String(a.details)).setting, JSON.parse(String(a.details)).enabled, a.tenant_id])).toEqual([
      ['incident_summaries', true, acme.id],
      ['incident_summaries', true, globex.id],
    ]);
  });

  it('writes the summary from the evidence only, and stores it with its prompt, evidence and tokens', async () => {
    const noEvidence = await admin.post(`/api/v1/incidents/${bareIncidentId}/summary`, undefined, on);
    expect(noEvidence.status).toBe(409);
    expect(noEvidence.body.detail).toBe('This incident has no evidence panel yet; a summary is written from it only.');
    expect(llm.requests).toHaveLength(0);

    expect((await viewer.post(`/api/v1/incidents/${incidentId}/summary`, undefined, on)).status).toBe(403);
    expect((await globexAdmin.post(`/api/v1/incidents/${incidentId}/summary`, undefined, g)).status).toBe(404);
    expect(llm.requests).toHaveLength(0);

    const written = await admin.post(`/api/v1/incidents/${incidentId}/summary`, undefined, on);
    expect(written.status).toBe(200);
    expect(llm.refused).toEqual([]);
    expect(llm.requests).toHaveLength(1);
    const sent = llm.requests[0];
    expect(sent).toMatchObject({ method: 'POST', path: '/v1/chat/completions', authorization: `Bearer ${KEY}` });
    expect(sent.body).toMatchObject({ model: MODEL, max_tokens: 300 });
    // The incident's own title, monitor and findings; nothing of Globex; no credentials.
    expect(sent.text).toContain('Incident: Checkout API is down');
    expect(sent.text).toContain('Monitor: Checkout API');
    expect(sent.text).toContain('TLS handshake 840 ms, baseline 45 ms');
    expect(sent.text).toContain('"new_issuer":"Self-signed"');
    expect(sent.text).not.toMatch(/Globex|vault/i);
    expect(sent.text).not.toMatch(/hunter2|abc123xyz/);
    expect(sent.text).toContain('https://[redacted]@checkout.acme.test/health?token=[redacted]');

    expect(written.body).toMatchObject({
      incident_id: incidentId,
      text: FAKE_ANSWER,
      model: MODEL,
      trigger: 'request',
      evidence_updated_at: '2026-11-30T06:55:00.000Z',
      usage: { prompt_tokens: 500, completion_tokens: 200, total_tokens: 700 },
    });
    const read = await viewer.get(`/api/v1/incidents/${incidentId}/summary`, on);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(written.body);
    expect(read.body.prompt.map((m: { content: string }) => m.content).join('\n')).toBe(sent.text);
    expect(read.body.evidence.items.map((i: { summary: string }) => i.summary)[0]).toBe(
      'TLS handshake 840 ms, baseline 45 ms (p95 of the last 7 days)',
    );
    expect(JSON.stringify(read.body.evidence)).not.toMatch(/hunter2|abc123xyz/);
    expect((await globexAdmin.get(`/api/v1/incidents/${incidentId}/summary`, g)).status).toBe(404);

    const usage = await admin.get('/api/v1/company/incident-summaries', on);
    expect(usage.body).toMatchObject({ used_tokens: 700, calls: 1 });
  });

  it("writes one when the evidence builder calls, and Globex's never carries Acme's", async () => {
    expect(await summarizeOnEvidence(t.services, globex.id, globexIncidentId)).toBeUndefined();
    const sent = llm.requests.at(-1)!;
    expect(sent.text).toContain('Incident: Globex vault outage');
    expect(sent.text).not.toMatch(/Acme|Checkout|checkout\.acme/i);
    const read = await globexAdmin.get(`/api/v1/incidents/${globexIncidentId}/summary`, g);
    expect(read.body).toMatchObject({ trigger: 'evidence', requested_by: null, text: FAKE_ANSWER });
    // Another company's incident id is never looked up for Acme.
    expect(await summarizeOnEvidence(t.services, acme.id, globexIncidentId)).toBeUndefined();
    expect(llm.requests).toHaveLength(2);
    // An update of the panel with the same findings has nothing new: no call.
    const key = `${globex.id}/${globexIncidentId}`;
    evidence.set(key, { ...evidence.get(key)!, updated_at: '2026-11-30T07:00:00.000Z' });
    expect(await summarizeOnEvidence(t.services, globex.id, globexIncidentId)).toBeUndefined();
    expect(llm.requests).toHaveLength(2);
    // A new finding does.
    const before = evidence.get(key)!;
    evidence.set(key, {
      ...before,
      updated_at: '2026-11-30T07:05:00.000Z',
      items: [
        ...before.items,
        {
          kind: 'locations',
          summary: 'Down from 3 of 3 locations',
          at: '2026-11-30T07:04:00.000Z',
          source: { label: 'Locations', href: '/monitors' },
          data: { down: 3, up: 0 },
        },
      ],
    });
    expect(await summarizeOnEvidence(t.services, globex.id, globexIncidentId)).toBeUndefined();
    expect(llm.requests).toHaveLength(3);
    expect(llm.requests[2].text).toContain('3. [locations] Down from 3 of 3 locations');
    expect((await globexAdmin.get(`/api/v1/incidents/${globexIncidentId}/summary`, g)).body.evidence_updated_at).toBe(
      '2026-11-30T07:05:00.000Z',
    );
  });

  it('refuses a call that does not fit the month’s budget without making it, and gives back what a failed call reserved', async () => {
    const lowered = await admin.put('/api/v1/company/incident-summaries', { enabled: true, monthly_tokens: 1000 }, on);
    expect(lowered.body).toMatchObject({ monthly_tokens: 1000, own_monthly_tokens: 1000, used_tokens: 700 });
    const before = llm.requests.length;
    const over = await admin.post(`/api/v1/incidents/${incidentId}/summary`, undefined, on);
    expect(over.status).toBe(422);
    expect(over.body.detail).toMatch(/budget for \d{4}-\d{2} is used up: 700 of 1000 tokens used, and a summary may need up to \d+/);
    // Nor when the evidence builder asks after a new finding: the refusal is its log line.
    const key = `${acme.id}/${incidentId}`;
    evidence.set(key, { ...evidence.get(key)!, line: 'TLS handshake 20× slower than usual' });
    expect(await summarizeOnEvidence(t.services, acme.id, incidentId)).toMatch(/budget .* is used up/);
    expect(llm.requests).toHaveLength(before);

    await admin.put('/api/v1/company/incident-summaries', { enabled: true, monthly_tokens: 20000 }, on);
    llm.next.push({ status: 500, body: { error: { message: 'internal: prompt was ...' } } });
    const failed = await admin.post(`/api/v1/incidents/${incidentId}/summary`, undefined, on);
    expect(failed.status).toBe(503);
    expect(failed.body.detail).toBe('The language model endpoint answered HTTP 500.');
    llm.next.push({ status: 429, body: { error: { message: 'slow down' } }, headers: { 'retry-after': '30' } });
    const limited = await admin.post(`/api/v1/incidents/${incidentId}/summary`, undefined, on);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('30');
    expect(limited.body.detail).toBe('The language model endpoint is rate limiting requests; try again later.');
    expect(llm.requests).toHaveLength(before + 2);
    expect((await admin.get('/api/v1/company/incident-summaries', on)).body).toMatchObject({ used_tokens: 700, calls: 1 });
    // The stored summary is still the one written before.
    expect((await viewer.get(`/api/v1/incidents/${incidentId}/summary`, on)).body.usage.total_tokens).toBe(700);
  });

  it('with no model configured, makes no call and says the operator has not configured one', async () => {
    off = await startTestApp({ db: kind, env: { ALLOW_PRIVATE_TARGETS: 'true' } });
    off.services.loadEvidence = async () => evidenceOf('x', 'y', 'checkout.acme.test');
    const co = await seedCompany(off.services, { name: 'Initech', subdomain: 'initech' });
    const c = off.client();
    await signIn(c, await seedUser(off.services, { userType: 2, companyId: co.id }), 'initech.localhost');
    const h = { host: 'initech.localhost' };
    const i = await openIncident(c, h, 'Site', 'Site down');
    const before = llm.requests.length;
    expect((await c.get('/api/v1/company/incident-summaries', h)).body).toMatchObject({ available: false, model: null, enabled: false });
    const optIn = await c.put('/api/v1/company/incident-summaries', { enabled: true }, h);
    expect(optIn.status).toBe(409);
    expect(optIn.body.detail).toMatch(/operator has not configured a language model \(LLM_BASE_URL, LLM_API_KEY and LLM_MODEL\)/);
    const post = await c.post(`/api/v1/incidents/${i.incident}/summary`, undefined, h);
    expect(post.status).toBe(409);
    expect(post.body.detail).toBe(optIn.body.detail);
    expect(await summarizeOnEvidence(off.services, co.id, i.incident)).toBeUndefined();
    expect(llm.requests).toHaveLength(before);
  });
});
