import { describe, expect, it } from 'vitest';
import { itRefusesConfigs, receiverForFile, sendAccepted } from '../../../../tests/fixtures/receivers/channel-harness.ts';
import { json, jsonBody, type ReceivedRequest, startReceiver } from '../../../../tests/fixtures/receivers/receiver-server.ts';
import { envFor, groupedAlert, maintenanceAlert, openedAlert, resolvedAlert } from '../../../../tests/fixtures/receivers/sample-alerts.ts';
import { TEMPLATE_VARIABLES } from '../../../lib/channel-forms/custom-http.ts';
import { presentChannel } from '../../domain/alerts/channels.ts';
import { sendHttp } from '../outbox/send-http.ts';
import { customHttp } from './custom-http.ts';
import { templateValues } from './custom-template.ts';

// The admin's own server, expecting what the templates below say it gets: it refuses anything else.
const TOKEN = 'Bearer s3cr3t-t0k3n';
function expectsAdminsRequest(req: ReceivedRequest) {
  if (req.headers.authorization !== TOKEN) return json(401, { error: 'token' }, `authorization ${req.headers.authorization}`);
  if (req.path === '/alerts' && req.method === 'POST') {
    const body = jsonBody(req);
    if (!body) return json(400, { error: 'json' }, `a JSON body, got ${req.body}`);
    if (req.headers['x-severity'] === undefined) return json(400, { error: 'x-severity' }, 'X-Severity header');
    return json(202, { ok: true });
  }
  if (req.path === '/status' && req.method === 'PUT') {
    if (!/^text\/plain/.test(req.headers['content-type'] ?? '')) return json(415, { error: 'type' }, req.headers['content-type']);
    return json(200, { ok: true });
  }
  if (req.path === '/ping' && req.method === 'GET') {
    if (req.body !== '' || req.headers['content-length'] !== undefined) return json(400, { error: 'body' }, 'a GET without a body');
    return json(204, {});
  }
  return json(404, { error: 'path' }, `${req.method} ${req.path}`);
}

const receiver = receiverForFile(() => startReceiver(expectsAdminsRequest));

const jsonConfig = () =>
  customHttp.parseConfig({
    url: `${receiver().origin}/alerts?monitor={{monitor.name}}&event={{event}}`,
    headers: 'X-Severity: {{severity}}\nX-Title: {{title}}',
    secret_headers: `Authorization: ${TOKEN}`,
    body: '{"text": "{{title}}: {{message}}", "monitor": {"name": "{{monitor.name}}", "target": "{{monitor.target}}"}, "count": {{monitor_count}}, "incident": "{{incident.id}}", "at": "{{occurred_at}}", "links": ["{{console_url}}", "{{status_page_url}}"]}',
  });

describe('custom HTTP channel', () => {
  it("fills the admin's JSON template with the alert's fields, JSON-escaped, and the URL's URL-encoded", async () => {
    const alert = openedAlert({
      title: 'Say "hi" \\ now\nplease',
      monitor: { id: 'm-1', name: 'Web & "API"', target: 'https://a.example/x?y=1' },
    });
    const request = customHttp.build(alert, jsonConfig(), envFor());
    await sendAccepted(receiver(), request, 202);
    const got = receiver().exchanges.at(-1)!.request;
    expect(got.query.get('monitor')).toBe('Web & "API"');
    expect(got.query.get('event')).toBe('incident.opened');
    expect(got.headers['x-severity']).toBe('critical');
    // A header is one line: the title's line break does not start a header of its own.
    expect(got.headers['x-title']).toBe('Say "hi" \\ now please');
    expect(got.headers['content-type']).toBe('application/json');
    expect(JSON.parse(got.body)).toEqual({
      text: 'Say "hi" \\ now\nplease: The check failed 3 times in a row: connection refused. Started at 10:02 UTC.',
      monitor: { name: 'Web & "API"', target: 'https://a.example/x?y=1' },
      count: 1,
      incident: 'inc-42',
      at: '2026-11-24T10:02:00.000Z',
      links: ['http://acme.localhost:4321/monitors?incident=inc-42', 'http://acme.localhost:4321/'],
    });
  });

  it('sends every event the same way: resolved, grouped over 1,000 monitors, maintenance (absent fields empty)', async () => {
    for (const alert of [resolvedAlert(), groupedAlert(1000), maintenanceAlert('maintenance.started')]) {
      await sendAccepted(receiver(), customHttp.build(alert, jsonConfig(), envFor()), 202);
    }
    const bodies = receiver()
      .exchanges.slice(-3)
      .map((e) => JSON.parse(e.request.body));
    expect(bodies.map((b) => b.count)).toEqual([1, 1000, 0]);
    expect(bodies[2].monitor).toEqual({ name: '', target: '' });
  });

  it('PUT with a text body keeps the values as they are; GET sends no body at all', async () => {
    const put = customHttp.parseConfig({
      method: 'PUT',
      url: `${receiver().origin}/status`,
      headers: 'Content-Type: text/plain; charset=utf-8',
      secret_headers: `Authorization: ${TOKEN}`,
      body: '{{event_label}}: {{title}} "{{incident.status}}"',
    });
    await sendAccepted(receiver(), customHttp.build(resolvedAlert(), put, envFor()), 200);
    expect(receiver().exchanges.at(-1)!.request.body).toBe('Incident resolved: Website *prod* <b> is up again "resolved"');
    const get = customHttp.parseConfig({
      method: 'get',
      url: `${receiver().origin}/ping?d={{delivery_id}}`,
      secret_headers: `Authorization: ${TOKEN}`,
    });
    expect(get.method).toBe('GET');
    // Sent as the delivery job sends it (fetch refuses to build a GET with a body, even an empty one).
    const sent = await sendHttp(customHttp.build(openedAlert(), get, envFor()), {
      allowPrivateTargets: true,
      resolve: async () => [],
      now: Date.now,
    });
    expect(sent, receiver().refusals().join('\n')).toEqual({ statusCode: 204, error: null, retryAfterMs: null });
    expect(receiver().exchanges.at(-1)!.request.query.get('d')).toBe('msg_2f1c9a0b7d');
  });

  it('every documented variable has a value, and the SSRF guard is given the host only', () => {
    expect(Object.keys(templateValues(openedAlert())).sort()).toEqual(TEMPLATE_VARIABLES.map((v) => v.name).sort());
    expect(customHttp.tenantUrls(jsonConfig())).toEqual([receiver().origin]);
  });

  it('never shows the secret headers back', () => {
    const config = jsonConfig();
    const view = presentChannel({
      id: 'ch-1',
      company_id: 'c-1',
      name: 'Mine',
      type: 'custom-http',
      config: JSON.stringify(config),
      secret: null,
      events: '["incident.opened"]',
      monitor_ids: null,
      min_severity: 'info',
      enabled: true,
      next_send_at: null,
      created_at: 0,
      updated_at: 0,
    });
    expect(view.config).not.toHaveProperty('secret_headers');
    expect(JSON.stringify(view)).not.toContain('s3cr3t');
    expect(view.config).toMatchObject({ headers: config.headers, body: config.body });
  });

  const url = 'https://hooks.example.com/alert';
  itRefusesConfigs(customHttp.parseConfig, [
    [{}, 'url', 'URL is required.'],
    [{ url, method: 'DELETE' }, 'method', 'Method must be POST, PUT, PATCH or GET.'],
    [
      { url: 'https://{{company.subdomain}}.example.com/' },
      'url',
      'URL must start with https:// or http:// and a host written out (variables only after it).',
    ],
    [{ url: 'ftp://example.com/' }, 'url', 'URL must start with https:// or http:// and a host written out (variables only after it).'],
    [{ url: 'https://u:p@example.com/' }, 'url', 'URL must not contain a user name or password; use a secret header.'],
    [{ url: `${url}?m={{monitor.nme}}` }, 'url', 'URL: Unknown variable {{monitor.nme}}; see the list of variables.'],
    [{ url, body: '{"t": "{{title}"}' }, 'body', 'Body: The {{ at character 8 has no closing }}.'],
    [{ url, body: '{"t": "{{ title }} {{title"}' }, 'body', 'Body: The {{ at character 20 has no closing }}.'],
    [{ url, body: '{"t": "{{ two words }}"}' }, 'body', 'Body: {{ two words }} is not a variable name.'],
    [
      { url, body: '{"t": {{title}}}' },
      'body',
      'Body must be JSON once its variables are filled in: put text variables inside quotes, e.g. "{{title}}" (or set a Content-Type header that is not JSON).',
    ],
    [
      { url, headers: 'Content-Type: application/vnd.api+json', body: 'title={{title}}' },
      'body',
      'Body must be JSON once its variables are filled in: put text variables inside quotes, e.g. "{{title}}" (or set a Content-Type header that is not JSON).',
    ],
    [{ url, method: 'GET', body: 'x' }, 'body', 'A GET request has no body; leave it empty or choose POST, PUT or PATCH.'],
    [{ url, headers: 'Host: evil.example' }, 'headers', 'Headers, line 1: Host is set by the sender and cannot be given.'],
    [{ url, headers: 'X-A: 1\nContent-Length: 5' }, 'headers', 'Headers, line 2: Content-Length is set by the sender and cannot be given.'],
    [{ url, secret_headers: 'Authorization Bearer x' }, 'secret_headers', 'Secret headers, line 1: write "Name: value".'],
    [
      { url, secret_headers: 'Authorization: Bearer {{token}}' },
      'secret_headers',
      'Secret headers, line 1: Unknown variable {{token}}; see the list of variables.',
    ],
    [{ url, header: 'X: 1' }, 'header', 'Unknown setting "header"; expected method, url, headers, secret_headers, body.'],
  ]);

  it('a JSON body whose braces close next to a variable is fine ("}}" alone is text)', () => {
    const c = customHttp.parseConfig({ url, body: '{"a": {"b": "{{title}}"}}' });
    expect(JSON.parse(customHttp.build(openedAlert(), c, envFor()).body)).toEqual({ a: { b: 'Website *prod* <b> is down' } });
  });
});
