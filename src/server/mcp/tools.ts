// The MCP tools: one entry per tool, each a call of the platform's public API (api-call.ts says
// why). Read tools are marked read-only for clients; the two that change something (acknowledge,
// post an update) need a write token, which the API itself enforces.
import { z } from 'zod';
import type { ApiCall, ApiRequest, QueryValue } from './api-call.ts';

/** A tool's arguments, validated by its input schema (plain values only). */
export type ToolArgs = Record<string, QueryValue>;

export interface McpTool {
  name: string;
  title: string;
  description: string;
  /** true: reads only (clients may call it without asking) */
  readOnly: boolean;
  input: z.ZodRawShape;
  request(args: ToolArgs): ApiRequest;
}

const id = z.string().min(1).max(64);
const range = z.enum(['1h', '24h', '7d', '30d']).optional().describe('The window (default 24h)');
const enc = (v: unknown) => encodeURIComponent(String(v));

export const MCP_TOOLS: readonly McpTool[] = [
  {
    name: 'get_status',
    title: 'Status overview',
    description: 'The company at a glance: how many monitors are operational, degraded, down or paused, and the open incidents.',
    readOnly: true,
    input: {},
    request: () => ({ method: 'GET', path: '/api/v1/monitors/summary' }),
  },
  {
    name: 'list_monitors',
    title: 'List monitors',
    description:
      'Monitors of the company with their status, last check, uptime over 24 h and 30 days. Filter by part of the name or target, status or type.',
    readOnly: true,
    input: {
      q: z.string().max(200).optional().describe('Part of the name or target, any case'),
      status: z.enum(['operational', 'degraded', 'down', 'unknown', 'paused']).optional(),
      type: z.string().max(32).optional().describe('A monitor kind, e.g. http, dns, tcp'),
      limit: z.number().int().min(1).max(200).optional(),
      offset: z.number().int().min(0).optional(),
    },
    request: (a) => ({
      method: 'GET',
      path: '/api/v1/monitors',
      query: { q: a.q, status: a.status, type: a.type, limit: a.limit ?? 50, offset: a.offset },
    }),
  },
  {
    name: 'get_monitor',
    title: 'Read a monitor',
    description: 'One monitor: its settings, status, per-location status, last answers and certificate.',
    readOnly: true,
    input: { id: id.describe('The monitor id') },
    request: (a) => ({ method: 'GET', path: `/api/v1/monitors/${enc(a.id)}` }),
  },
  {
    name: 'get_monitor_checks',
    title: 'Recent checks of a monitor',
    description: 'Raw check results, newest first: status, response time, phase timings, error, location.',
    readOnly: true,
    input: {
      id: id.describe('The monitor id'),
      location: z.string().max(32).optional().describe('Only this location (its slug)'),
      limit: z.number().int().min(1).max(200).optional(),
    },
    request: (a) => ({
      method: 'GET',
      path: `/api/v1/monitors/${enc(a.id)}/checks`,
      query: { location: a.location, limit: a.limit ?? 20 },
    }),
  },
  {
    name: 'list_incidents',
    title: 'List incidents',
    description: 'Incidents, newest first; filter by status (open or resolved), monitor or severity.',
    readOnly: true,
    input: {
      status: z.enum(['open', 'resolved']).optional(),
      monitor_id: id.optional(),
      severity: z.enum(['critical', 'high', 'medium', 'low']).optional(),
      limit: z.number().int().min(1).max(200).optional(),
      offset: z.number().int().min(0).optional(),
    },
    request: (a) => ({
      method: 'GET',
      path: '/api/v1/incidents',
      query: { status: a.status, monitor_id: a.monitor_id, severity: a.severity, limit: a.limit ?? 20, offset: a.offset },
    }),
  },
  {
    name: 'get_incident',
    title: 'Read an incident',
    description: 'One incident with its updates, monitors, acknowledgement and impact.',
    readOnly: true,
    input: { id: id.describe('The incident id') },
    request: (a) => ({ method: 'GET', path: `/api/v1/incidents/${enc(a.id)}` }),
  },
  {
    name: 'get_metrics',
    title: 'RED metrics',
    description:
      "Request rate, error rate and p50/p95/p99 latency over time from the company's own traffic (OpenTelemetry spans), with the previous period; optionally for one service or operation.",
    readOnly: true,
    input: { range, service: z.string().max(200).optional(), operation: z.string().max(500).optional() },
    request: (a) => ({
      method: 'GET',
      path: '/api/v1/metrics/series',
      query: { range: a.range, service: a.service, operation: a.operation },
    }),
  },
  {
    name: 'search_traces',
    title: 'Search traces',
    description: 'Traces of the company, newest first; `error: true` for error traces only; by service and operation.',
    readOnly: true,
    input: {
      error: z.boolean().optional(),
      service: z.string().max(200).optional(),
      operation: z.string().max(500).optional(),
      range,
      limit: z.number().int().min(1).max(200).optional(),
    },
    request: (a) => ({
      method: 'GET',
      path: '/api/v1/traces/search',
      query: { error: a.error, service: a.service, operation: a.operation, range: a.range, limit: a.limit ?? 10 },
    }),
  },
  {
    name: 'get_trace',
    title: 'Read a trace',
    description: 'One trace with its spans (services, operations, durations, status, attributes, events).',
    readOnly: true,
    input: {
      trace_id: z
        .string()
        .regex(/^[0-9a-f]{32}$/)
        .describe('32 hex digits'),
    },
    request: (a) => ({ method: 'GET', path: `/api/v1/traces/${enc(a.trace_id)}` }),
  },
  {
    name: 'acknowledge_incident',
    title: 'Acknowledge an incident',
    description: "Someone is on it: records who and when and stops the incident's escalation. Needs a write token.",
    readOnly: false,
    input: { id: id.describe('The incident id') },
    request: (a) => ({ method: 'POST', path: `/api/v1/incidents/${enc(a.id)}/acknowledge` }),
  },
  {
    name: 'post_incident_update',
    title: 'Post an incident update',
    description:
      'Adds an update (investigating, identified, monitoring, resolved) to an incident; public incidents show it on the status page and subscribers are told. Needs a write token.',
    readOnly: false,
    input: {
      id: id.describe('The incident id'),
      status: z.enum(['investigating', 'identified', 'monitoring', 'resolved']),
      message: z.string().min(1).max(5000),
    },
    request: (a) => ({ method: 'POST', path: `/api/v1/incidents/${enc(a.id)}/updates`, body: { status: a.status, message: a.message } }),
  },
  {
    name: 'get_incident_evidence',
    title: "Read an incident's evidence",
    description:
      'What changed around an automatic incident, from what the platform stores: the failing or slowed check phase against the baseline, locations, DNS and certificate changes of the host, errors and new versions of the services calling it, maintenance that just ended. Each item has a summary, figures and a console link; empty when nothing stood out.',
    readOnly: true,
    input: { id: id.describe('The incident id') },
    request: (a) => ({ method: 'GET', path: `/api/v1/incidents/${enc(a.id)}/evidence` }),
  },
];

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
  isError?: boolean;
}

/** Runs one tool: the API's answer as JSON text, or its problem as an error the model can read. */
export async function runTool(tool: McpTool, args: ToolArgs, call: ApiCall): Promise<ToolResult> {
  const answer = await call(tool.request(args));
  if (answer.status >= 200 && answer.status < 300) return { content: [{ type: 'text', text: JSON.stringify(answer.body) }] };
  const problem = (answer.body ?? {}) as { title?: string; detail?: string };
  const why = problem.detail ?? problem.title ?? 'the platform refused the call';
  return { isError: true, content: [{ type: 'text', text: `${answer.status}: ${why}` }] };
}
