// The MCP server (issue 33) as assistants use it: the official SDK's client over streamable HTTP
// against the running platform, and over stdio against `npm run mcp` (a child process calling
// the platform at STATUSWATCH_URL), on both databases. The tools see one company, read tokens
// cannot write through them, and sessions (cookies) are not accepted.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { execFile } from 'node:child_process';
import { Agent, fetch as undiciFetch } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DB_KINDS } from '../../support/test-db.ts';
import { ApiClient, startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedCompany, seedUser, signIn } from '../../support/fixtures.ts';
import { ROOT } from '../../support/statuswatch-cli.ts';

const localhostAgent = new Agent({
  connect: { lookup: (_host, _opts, cb) => cb(null, [{ address: '127.0.0.1', family: 4 }]) },
});

type ToolAnswer = { isError?: boolean; content: Array<{ type: string; text: string }> };
const textOf = (r: unknown) => (r as ToolAnswer).content.map((c) => c.text).join('\n');

describe.each(DB_KINDS)('MCP server on %s', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  let acmeOrigin: string;
  let readToken: string;
  let writeToken: string;
  let acmeIncident: string;
  let acmeMonitor: string;
  let globexIncident: string;
  const open: Client[] = [];

  const httpClient = async (token: string) => {
    const client = new Client({ name: 'test-assistant', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${acmeOrigin}/api/v1/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${token}` } },
        // acme.localhost is this machine (RFC 6761), as browsers and the CLI resolve it
        fetch: (url, init) => undiciFetch(url, { ...(init as object), dispatcher: localhostAgent }) as unknown as Promise<Response>,
      }),
    );
    open.push(client);
    return client;
  };

  beforeAll(async () => {
    t = await startTestApp({ db: kind, env: { ALLOW_PRIVATE_TARGETS: 'true' } });
    const acme = await seedCompany(t.services, { subdomain: 'acme' });
    const globex = await seedCompany(t.services, { subdomain: 'globex' });
    const acmeHost = `acme.${t.config.productDomain}`;
    acmeOrigin = `http://acme.localhost:${t.port}`;
    admin = new ApiClient(t.baseUrl, acmeHost);
    const other = new ApiClient(t.baseUrl, `globex.${t.config.productDomain}`);
    await signIn(admin, await seedUser(t.services, { userType: 2, companyId: acme.id }));
    await signIn(other, await seedUser(t.services, { userType: 2, companyId: globex.id }));
    const monitor = (name: string) => ({ name, type: 'http', url: 'http://127.0.0.1:9/', interval_seconds: 60, is_public: false });
    acmeMonitor = (await admin.post('/api/v1/monitors', monitor('Acme checkout'))).body.id;
    expect((await other.post('/api/v1/monitors', monitor('Globex intranet'))).status).toBe(201);
    const incident = (c: ApiClient, title: string) => c.post('/api/v1/incidents', { title, message: 'Looking into it', impact: 'major' });
    acmeIncident = (await incident(admin, 'Acme checkout slow')).body.id;
    globexIncident = (await incident(other, 'Globex intranet down')).body.id;
    const token = async (scope: 'read' | 'write') => {
      const r = await admin.post('/api/v1/api-tokens', { name: `mcp ${scope}`, scope });
      expect(r.status, r.text).toBe(201);
      return r.body.token as string;
    };
    readToken = await token('read');
    writeToken = await token('write');
  });
  afterAll(async () => {
    for (const c of open) await c.close().catch(() => undefined);
    await t?.close();
  });

  it('lists its tools over HTTP, the writing ones marked as such', async () => {
    const client = await httpClient(readToken);
    expect(client.getServerVersion()?.name).toBe('statuswatch');
    const { tools } = await client.listTools();
    const byName = new Map(tools.map((x) => [x.name, x]));
    for (const name of [
      'get_status',
      'list_monitors',
      'get_monitor',
      'get_monitor_checks',
      'list_incidents',
      'get_incident',
      'get_metrics',
      'search_traces',
      'get_trace',
      'get_incident_evidence',
    ])
      expect(byName.get(name)?.annotations?.readOnlyHint, name).toBe(true);
    for (const name of ['acknowledge_incident', 'post_incident_update'])
      expect(byName.get(name)?.annotations?.readOnlyHint, name).toBe(false);
    expect(byName.get('post_incident_update')?.inputSchema.required).toEqual(expect.arrayContaining(['id', 'status', 'message']));
  });

  it("reads the token's company only", async () => {
    const client = await httpClient(readToken);
    const monitors = textOf(await client.callTool({ name: 'list_monitors', arguments: {} }));
    expect(monitors).toContain('Acme checkout');
    expect(monitors).not.toContain('Globex');
    const incidents = textOf(await client.callTool({ name: 'list_incidents', arguments: { status: 'open' } }));
    expect(incidents).toContain('Acme checkout slow');
    expect(incidents).not.toContain('Globex intranet down');
    const one = await client.callTool({ name: 'get_monitor', arguments: { id: acmeMonitor } });
    expect(JSON.parse(textOf(one)).name).toBe('Acme checkout');
    const foreign = (await client.callTool({ name: 'get_incident', arguments: { id: globexIncident } })) as ToolAnswer;
    expect(foreign.isError).toBe(true);
    expect(textOf(foreign)).toMatch(/^404: /);
    expect(textOf(foreign)).not.toContain('Globex intranet down');
    // A manual incident's evidence panel is empty; another company's answers 404 as the incident does.
    const evidence = JSON.parse(textOf(await client.callTool({ name: 'get_incident_evidence', arguments: { id: acmeIncident } })));
    expect(evidence).toMatchObject({ incident_id: acmeIncident, items: [], line: '' });
    const foreignEvidence = (await client.callTool({ name: 'get_incident_evidence', arguments: { id: globexIncident } })) as ToolAnswer;
    expect(foreignEvidence.isError).toBe(true);
    expect(textOf(foreignEvidence)).toMatch(/^404: /);
  });

  it('refuses bad arguments with a clear error and calls nothing', async () => {
    const client = await httpClient(writeToken);
    const r = (await client.callTool({
      name: 'post_incident_update',
      arguments: { id: acmeIncident, status: 'fixed', message: '' },
    })) as ToolAnswer;
    expect(r.isError).toBe(true);
    expect(textOf(r)).toMatch(/status|message/i);
    const detail = await admin.get(`/api/v1/incidents/${acmeIncident}`);
    expect(detail.body.updates).toHaveLength(1);
  });

  it('a read token cannot write through a tool; a write token can, as its user', async () => {
    const reader = await httpClient(readToken);
    const refused = (await reader.callTool({
      name: 'post_incident_update',
      arguments: { id: acmeIncident, status: 'identified', message: 'A read token tried this' },
    })) as ToolAnswer;
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/^403: .*read-only/);
    expect((await reader.callTool({ name: 'acknowledge_incident', arguments: { id: acmeIncident } })) as ToolAnswer).toMatchObject({
      isError: true,
    });
    let detail = await admin.get(`/api/v1/incidents/${acmeIncident}`);
    expect(JSON.stringify(detail.body.updates)).not.toContain('A read token tried this');
    expect(detail.body.acknowledged_at).toBeNull();

    const writer = await httpClient(writeToken);
    const posted = (await writer.callTool({
      name: 'post_incident_update',
      arguments: { id: acmeIncident, status: 'identified', message: 'Cache node restarted by the assistant' },
    })) as ToolAnswer;
    expect(posted.isError, textOf(posted)).toBeFalsy();
    const acked = (await writer.callTool({ name: 'acknowledge_incident', arguments: { id: acmeIncident } })) as ToolAnswer;
    expect(acked.isError, textOf(acked)).toBeFalsy();
    detail = await admin.get(`/api/v1/incidents/${acmeIncident}`);
    expect(detail.body.status).toBe('identified');
    expect(JSON.stringify(detail.body.updates)).toContain('Cache node restarted by the assistant');
    expect(detail.body.acknowledged_at).not.toBeNull();
    // another company's incident stays out of reach for writes too
    const foreign = (await writer.callTool({ name: 'acknowledge_incident', arguments: { id: globexIncident } })) as ToolAnswer;
    expect(textOf(foreign)).toMatch(/^404: /);
  });

  it('takes API tokens only: a signed-in browser session and no credential are answered 401', async () => {
    const init = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
    };
    const accept = { accept: 'application/json, text/event-stream' };
    const withSession = await admin.post('/api/v1/mcp', init, { headers: accept });
    expect(withSession.status).toBe(401);
    expect(withSession.body.detail).toMatch(/API token/);
    const anonymous = await new ApiClient(t.baseUrl, `acme.${t.config.productDomain}`).post('/api/v1/mcp', init, { headers: accept });
    expect(anonymous.status).toBe(401);
    const stream = await new ApiClient(t.baseUrl, `acme.${t.config.productDomain}`).get('/api/v1/mcp', {
      headers: { authorization: `Bearer ${readToken}` },
    });
    expect(stream.status).toBe(405);
  });

  it('answers a plain JSON-RPC POST as curl sends it (docs/features/mcp.md)', async () => {
    const c = new ApiClient(t.baseUrl, `acme.${t.config.productDomain}`);
    const r = await c.post(
      '/api/v1/mcp',
      { jsonrpc: '2.0', id: 7, method: 'tools/list' },
      { headers: { authorization: `Bearer ${readToken}`, accept: 'application/json, text/event-stream' } },
    );
    expect(r.status, r.text).toBe(200);
    expect(r.body.id).toBe(7);
    expect(r.body.result.tools.map((x: { name: string }) => x.name)).toContain('list_incidents');
    const notJson = await c.post(
      '/api/v1/mcp',
      { jsonrpc: '2.0', id: 8, method: 'tools/list' },
      { headers: { authorization: `Bearer ${readToken}`, accept: 'text/html' } },
    );
    expect(notJson.status).toBe(406);
  });

  it('serves the same tools over stdio (npm run mcp) with the token of STATUSWATCH_TOKEN', async () => {
    const client = new Client({ name: 'desktop-assistant', version: '1.0.0' });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: ['src/server/mcp/stdio-main.ts'],
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', STATUSWATCH_URL: acmeOrigin, STATUSWATCH_TOKEN: readToken },
        stderr: 'pipe',
      }),
    );
    open.push(client);
    expect((await client.listTools()).tools.map((x) => x.name)).toContain('get_incident');
    const incident = JSON.parse(textOf(await client.callTool({ name: 'get_incident', arguments: { id: acmeIncident } })));
    expect(incident.title).toBe('Acme checkout slow');
    const refused = (await client.callTool({
      name: 'post_incident_update',
      arguments: { id: acmeIncident, status: 'monitoring', message: 'From the desktop' },
    })) as ToolAnswer;
    expect(textOf(refused)).toMatch(/^403: /);
  });

  it('npm run mcp without a token says what to set and exits 2', async () => {
    const run = await new Promise<{ code: number; stderr: string }>((resolve) =>
      execFile(
        process.execPath,
        ['src/server/mcp/stdio-main.ts'],
        { cwd: ROOT, env: { PATH: process.env.PATH ?? '', STATUSWATCH_URL: acmeOrigin } },
        (e, _o, stderr) => resolve({ code: e ? Number((e as { code?: number }).code) : 0, stderr }),
      ),
    );
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('STATUSWATCH_TOKEN');
  });
});
