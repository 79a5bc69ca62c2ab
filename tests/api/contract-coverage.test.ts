// The contract itself: every documented operation is served by its handler (none is left
// pending with a 501), and nothing undocumented is served under /api/v1.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/server/http/openapi/spec.ts';
import { pendingOperations } from '../../src/server/http/openapi/routes.ts';
import { handlers } from '../../src/server/http/handlers/index.ts';
import type { HandlerMap } from '../../src/server/http/handler-types.ts';
import { rawRequest, startTestApp, type TestApp } from '../support/test-app.ts';
import { assertMatchesContract, ContractError } from '../support/contract.ts';

describe('contract coverage', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: 'sqlite' });
  });
  afterAll(async () => t?.close());

  it('documents every call of section 7 of the spec', async () => {
    const spec = await loadSpec();
    const documented = new Set(spec.operations.map((o) => `${o.method} ${o.path.replace(/\{[^}]+\}/g, '{}')}`));
    const section7 = [
      'POST /api/v1/auth/login',
      'POST /api/v1/auth/signup',
      'GET /api/v1/auth/me',
      'POST /api/v1/auth/logout',
      'POST /api/v1/auth/refresh-token',
      'GET /api/v1/company/fetch-company',
      'GET /api/v1/public/public-status/{}',
      'GET /api/v1/admin/companies',
      'GET /api/v1/admin/companies/{}',
      'POST /api/v1/admin/companies',
      'PUT /api/v1/admin/companies/{}',
      'DELETE /api/v1/admin/companies/{}',
      'GET /api/v1/admin/users',
      'POST /api/v1/admin/users',
      'PUT /api/v1/admin/users/{}',
      'DELETE /api/v1/admin/users/{}',
      'POST /api/v1/admin/users/{}/reset-password',
      'GET /api/v1/admin/flags',
      'POST /api/v1/audit',
      'GET /api/v1/api-intelligence/metrics/red',
      'GET /api/v1/incidents/recent',
      'GET /api/v1/monitors/summary',
      'GET /api/v1/traces/search',
      'GET /api/v1/notifications/',
      'GET /api/v1/notifications/preferences',
      'PUT /api/v1/notifications/preferences',
      'PATCH /api/v1/notifications/{}/read',
      'PATCH /api/v1/notifications/mark-all-read',
      'DELETE /api/v1/notifications/{}',
      'DELETE /api/v1/notifications/delete-all-read',
      'GET /api/v1/health/',
      'GET /api/v1/admin/dashboard-summary',
    ];
    expect(section7.filter((c) => !documented.has(c))).toEqual([]);
  });

  it('gives every operation a unique operationId and only documented handlers', async () => {
    const spec = await loadSpec();
    const ids = spec.operations.map((o) => o.operationId);
    expect(new Set(ids).size).toBe(ids.length);
    const extra = Object.keys(handlers).filter((h) => !ids.includes(h));
    expect(extra).toEqual([]);
  });

  it('serves every documented operation and nothing undocumented under /api/v1', async () => {
    const spec = await loadSpec();
    for (const op of spec.operations) {
      const url = op.route.replace(/\/$/, '');
      expect(
        t.app.hasRoute({ method: op.method, url }) || t.app.hasRoute({ method: op.method, url: op.route }),
        `${op.method} ${op.path}`,
      ).toBe(true);
    }
    const documented = new Set(spec.operations.map((o) => `${o.method} ${o.route.replace(/\/$/, '')}`));
    const served = (t.app as unknown as { servedRoutes: Array<{ method: string; url: string }> }).servedRoutes
      .filter((r) => (r.url.startsWith('/api/') || r.url.startsWith('/v1/') || r.url.startsWith('/scim/')) && r.method !== 'HEAD')
      .map((r) => `${r.method} ${r.url.replace(/\/$/, '')}`);
    expect(served.length).toBeGreaterThanOrEqual(spec.operations.length);
    expect(served.filter((r) => !documented.has(r))).toEqual([]);
  });

  it('puts no default in any request body (Ajv would fill it in and reset stored values on updates)', async () => {
    const spec = await loadSpec();
    const defaultsIn = (schema: unknown, at: string): string[] => {
      if (!schema || typeof schema !== 'object') return [];
      return Object.entries(schema as Record<string, unknown>).flatMap(([k, v]) => (k === 'default' ? [at] : defaultsIn(v, `${at}/${k}`)));
    };
    expect(spec.operations.flatMap((o) => defaultsIn(o.body, o.operationId))).toEqual([]);
  });

  it("documents a company's defaults and formats on the Company it answers", async () => {
    const spec = await loadSpec();
    const company = spec.operations.find((o) => o.operationId === 'getCompany')!.responses['200']!;
    const about = (key: string) => String(company.properties[key].description ?? '');
    expect(about('primary_color')).toContain('#007bff');
    expect(about('secondary_color')).toContain('#6c757d');
    expect(about('max_users')).toMatch(/default 10, minimum 1/);
    expect(about('max_workers')).toContain('50');
    expect(about('is_active')).toMatch(/Default true/);
    expect(about('threat_feed_enabled')).toMatch(/Default false/);
    expect(about('plan')).toMatch(/Default starter/);
    expect(about('email')).toMatch(/format email/);
    expect(about('url')).toMatch(/format uri/);
    expect(company.properties.services.description).toMatch(/monitor true, security\s+true, data_breach false/);
  });

  it('gives every numeric query parameter an integer or number type with a minimum and a maximum', async () => {
    const spec = await loadSpec();
    const unbounded: string[] = [];
    for (const op of spec.operations) {
      for (const [name, schema] of Object.entries<Record<string, unknown>>(op.querystring?.properties ?? {})) {
        if (![schema.type].flat().some((x) => x === 'integer' || x === 'number')) continue;
        if (typeof schema.maximum !== 'number' || typeof schema.minimum !== 'number') unbounded.push(`${op.operationId} ${name}`);
      }
    }
    expect(unbounded).toEqual([]);
  });

  it('documents the errors every operation can answer: 400 and 503 (database outage) on all, 401/403 with sign-in, 404/414 with an id, 403/413/415 on writes', async () => {
    const spec = await loadSpec();
    const gaps: string[] = [];
    for (const op of spec.operations) {
      const due = ['400', '503'];
      // 403 also for a company account calling on the main host (resolve-actor.ts); OTLP ingest
      // is keyed by API key alone
      if (op.requiresAuth) due.push('401', ...(op.rawBody ? [] : ['403']));
      // 414: a path segment over Fastify's maxParamLength, answered before any route runs
      if (op.params) due.push('404', '414');
      // a CORS preflight (OPTIONS) reads like a GET: no body, no change
      if (op.method !== 'GET' && op.method !== 'OPTIONS') due.push(...(op.rawBody ? [] : ['403']), '413', '415');
      for (const status of new Set(due)) if (!(status in op.responses)) gaps.push(`${op.operationId} ${status}`);
    }
    expect(gaps).toEqual([]);
  });

  it('answers every operation with a path parameter 414, as documented, for an overlong segment', async () => {
    const spec = await loadSpec();
    const withParams = spec.operations.filter((o) => o.params);
    expect(withParams.length).toBeGreaterThan(50);
    const wrong: string[] = [];
    for (const op of withParams) {
      const url = op.route.replace(/:[A-Za-z_]+/g, 'a'.repeat(201));
      const headers: Record<string, string> = { host: 'localhost' };
      const withBody = op.method !== 'GET' && op.method !== 'OPTIONS';
      // a length, or Node's client sends a DELETE's body unframed (no chunking for DELETE)
      if (withBody) Object.assign(headers, { 'content-type': 'application/json', 'content-length': '2' });
      const r = await rawRequest(`${t.baseUrl}${url}`, op.method, headers, withBody ? '{}' : undefined);
      const body = r.headers.get('content-type')?.startsWith('application/problem+json') ? JSON.parse(r.text) : null;
      if (r.status !== 414 || body?.status !== 414) wrong.push(`${op.operationId} ${op.method} ${r.status} ${r.text.slice(0, 80)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('reads an empty body sent with a JSON content type as no body, on every call that needs none', async () => {
    const spec = await loadSpec();
    const bodiless = spec.operations.filter((o) => o.method !== 'GET' && o.method !== 'OPTIONS' && !o.bodyRequired && !o.rawBody);
    expect(bodiless.length).toBeGreaterThan(20);
    const refused: string[] = [];
    for (const op of bodiless) {
      const url = op.route.replace(/:[A-Za-z_]+/g, 'x1');
      const headers = { host: 'localhost', origin: 'http://localhost', 'content-type': 'application/json', 'content-length': '0' };
      const r = await rawRequest(`${t.baseUrl}${url}`, op.method, headers, '');
      if (r.status === 400 && /body/i.test(r.text)) refused.push(`${op.operationId}: ${r.text.slice(0, 120)}`);
    }
    expect(refused).toEqual([]);
    // A call that needs a body still says so.
    const login = await rawRequest(`${t.baseUrl}/api/v1/auth/login`, 'POST', {
      host: 'localhost',
      origin: 'http://localhost',
      'content-type': 'application/json',
      'content-length': '0',
    });
    expect(login.status).toBe(400);
    expect(JSON.parse(login.text).detail).toBe('The request body is required.');
  });

  it('says what every array of the document holds (items)', async () => {
    const { document } = await loadSpec();
    const bare: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (!node || typeof node !== 'object') return;
      const schema = node as Record<string, unknown>;
      if ([schema.type].flat().includes('array') && !('items' in schema) && !('prefixItems' in schema)) bare.push(at);
      for (const [k, v] of Object.entries(schema)) walk(v, `${at}/${k}`);
    };
    walk(document, '#');
    expect(bare).toEqual([]);
  });

  it('fails a test whose answer has a status not documented for its operation', async () => {
    const problem = { type: 'about:blank', title: 'Too Many Requests', status: 429, detail: 'x', code: 'rate_limited' };
    // 429 and 413 were once let through on any operation as "generic" answers
    await expect(assertMatchesContract('GET', '/api/v1/auth/me', 429, 'application/problem+json', problem)).rejects.toThrow(ContractError);
    await expect(
      assertMatchesContract('GET', '/api/v1/auth/me', 413, 'application/problem+json', { ...problem, status: 413 }),
    ).rejects.toThrow(/getMe: status 413 is not documented/);
    await expect(
      assertMatchesContract('GET', '/api/v1/auth/me', 401, 'application/problem+json', { ...problem, status: 401 }),
    ).resolves.toBeUndefined();
  });

  it('has no operation left pending (answering 501)', async () => {
    const spec = await loadSpec();
    expect(pendingOperations(spec, handlers as HandlerMap)).toEqual([]);
    // and a documented operation without a handler would be reported
    const missing = { ...handlers } as Record<string, unknown>;
    delete missing.getMe;
    expect(pendingOperations(spec, missing as HandlerMap)).toEqual(['getMe']);
  });
});
