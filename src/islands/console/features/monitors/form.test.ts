import { describe, expect, it } from 'vitest';
import { emptyForm, explain, formOf, parseHeaders, payloadOf, phasesOf, withType } from './form.ts';
import { FIRST_QUERY, listParams, withQuery } from './store.ts';

describe('the monitor form', () => {
  it("sends only the kind's own fields, blanks as null, lists split and numbers as numbers", () => {
    const f = { ...emptyForm('tcp'), name: ' db ', host: 'db.example.com', port: '5432', url: 'https://ignored.example' };
    expect(payloadOf(f, false)).toEqual({
      type: 'tcp',
      name: 'db',
      interval_seconds: 60,
      timeout_seconds: 10,
      confirmations: 2,
      sla_target: null,
      is_public: false,
      is_critical: false,
      locations: null,
      quorum: null,
      parents: [],
      host: 'db.example.com',
      port: 5432,
      degraded_threshold_ms: null,
    });
    const http = payloadOf({ ...emptyForm('http'), name: 'w', url: 'https://a.example', headers: 'X-Key: 1:2\n\nAccept: json' }, true);
    expect(http).toMatchObject({
      headers: { 'X-Key': '1:2', Accept: 'json' },
      accepted_status_codes: ['200-299'],
      method: 'GET',
      keyword: null,
    });
    expect(http).not.toHaveProperty('company_id');
  });

  it('sends a group its children and rule, a domain its name and days, and any monitor its parents; a domain starts hourly', () => {
    const g = { ...withType(emptyForm('http'), 'group'), name: 'g', children: ['a', 'b'], parents: ['p'] };
    g.extra = { ...g.extra, group_rule: 'at_least', group_min_down: '2' };
    expect(payloadOf(g, false)).toMatchObject({
      type: 'group',
      children: ['a', 'b'],
      group_rule: 'at_least',
      group_min_down: 2,
      parents: ['p'],
    });
    const d = { ...withType(emptyForm('http'), 'domain'), name: 'd' };
    d.extra = { ...d.extra, domain: ' shop.example.com ' };
    expect(d.interval_seconds).toBe('3600');
    expect(payloadOf(d, false)).toMatchObject({ domain: 'shop.example.com', domain_warning_days: [30, 14, 7, 1], interval_seconds: 3600 });
    expect(payloadOf(d, false)).not.toHaveProperty('children');
  });

  it('gives an ssl monitor port 443 and the warning days by default, and sends them', () => {
    const f = { ...withType(emptyForm('http'), 'ssl'), name: 's', host: 'example.com' };
    expect(payloadOf(f, false)).toMatchObject({ port: 443, ssl_warning_days: [30, 14, 7, 1] });
  });

  it('reads a stored monitor back into the form', () => {
    const f = formOf({
      ...(payloadOf(emptyForm('dns'), false) as object),
      id: 'm1',
      company_id: 'c1',
      name: 'mx',
      type: 'dns',
      host: 'example.com',
      record_type: 'MX',
      expected_values: ['mx1.example.com', 'mx2.example.com'],
      interval_seconds: 300,
      timeout_seconds: 5,
      confirmations: 3,
      sla_target: 99.95,
      is_public: true,
      is_critical: true,
    } as never);
    expect(f).toMatchObject({
      name: 'mx',
      is_critical: true,
      sla_target: '99.95',
      record_type: 'MX',
      expected_values: 'mx1.example.com, mx2.example.com',
      interval_seconds: '300',
    });
  });

  it('sends the chosen locations and quorum, or null for the company default and a majority, and reads them back', () => {
    const f = { ...emptyForm('tcp'), name: 'db', use_default_locations: false, locations: ['local', 'eu-west'], quorum: '2' };
    expect(payloadOf(f, false)).toMatchObject({ locations: ['local', 'eu-west'], quorum: 2 });
    expect(payloadOf({ ...f, use_default_locations: true, quorum: '' }, false)).toMatchObject({ locations: null, quorum: null });
    const back = formOf({ ...(payloadOf(f, false) as object), id: 'm1', company_id: 'c1' } as never);
    expect(back).toMatchObject({ use_default_locations: false, locations: ['local', 'eu-west'], quorum: '2' });
    expect(formOf({ ...(payloadOf(emptyForm('tcp'), false) as object), id: 'm2', company_id: 'c1' } as never)).toMatchObject({
      use_default_locations: true,
      locations: [],
      quorum: '',
    });
  });

  it('keeps a header line without a colon for the server to refuse by name', () => {
    expect(parseHeaders('Broken\nA: b')).toEqual({ Broken: '', A: 'b' });
  });

  it('explains the SSRF refusal in words and leaves other messages alone', () => {
    expect(explain('Target refused: 169.254.169.254 is a cloud metadata address')).toMatch(/only check addresses on the public internet/);
    expect(explain('Name is required')).toBe('Name is required');
  });

  it('lists the phases a check went through, in order', () => {
    expect(phasesOf({ dns: 1, connect: 2, ttfb: 5, total: 6 }).map((p) => p.label)).toEqual(['DNS', 'Connect', 'First byte', 'Total']);
    expect(phasesOf(null)).toEqual([]);
  });
});

describe('the list query', () => {
  it('leaves out empty filters and asks for one block of rows at its offset', () => {
    expect(listParams(FIRST_QUERY, null)).toEqual({ sort: 'created_at', order: 'desc', limit: 50, offset: 0 });
    const q = withQuery(FIRST_QUERY, { q: ' api ', visibility: 'private', status: 'down' });
    expect(listParams(q, 't1', 3)).toEqual({
      sort: 'created_at',
      order: 'desc',
      limit: 50,
      offset: 150,
      q: 'api',
      is_public: false,
      status: 'down',
      tenant: 't1',
    });
  });
});

describe('the form of a synthetic monitor', () => {
  it('starts an api_flow with one request, sends its steps cleaned, and keeps them through an edit', () => {
    const f = emptyForm('api_flow');
    expect(f.steps).toHaveLength(1);
    const steps = [
      {
        name: 'Sign in',
        method: 'POST' as const,
        url: 'https://shop.example/api/login',
        headers: {},
        body: '{}',
        assertions: [],
        extract: [],
      },
    ];
    const body = payloadOf({ ...f, name: 'Flow', steps }, false) as unknown as Record<string, unknown>;
    expect(body.steps).toEqual([{ name: 'Sign in', method: 'POST', url: 'https://shop.example/api/login', body: '{}' }]);
    expect(body).not.toHaveProperty('url');
    const again = formOf({ ...body, id: 'm1', company_id: 'c1' } as never);
    expect(again.steps).toEqual(body.steps);
  });

  it("a kind change and back keeps the flow's steps", () => {
    const f = { ...emptyForm('api_flow'), steps: [{ name: 'A', url: 'u' }] };
    expect(withType(withType(f, 'http'), 'api_flow').steps).toEqual([{ name: 'A', url: 'u' }]);
    expect(payloadOf(withType(f, 'http'), false)).not.toHaveProperty('steps');
  });

  it("starts afresh between a flow and a journey (their steps differ) and raises the interval to the kind's least", () => {
    const f = { ...emptyForm('api_flow'), steps: [{ name: 'A', url: 'u' }] };
    const journey = withType(f, 'browser');
    expect(journey.steps).toEqual([{ action: 'goto', url: '' }]);
    expect(Number(journey.interval_seconds)).toBeGreaterThanOrEqual(300);
    expect(withType(journey, 'api_flow').steps).toHaveLength(1);
    expect(withType(journey, 'api_flow').steps[0]).not.toHaveProperty('action');
  });
});
