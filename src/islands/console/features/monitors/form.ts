// The create/edit form of a monitor: each kind's fields with the server's defaults (lib/monitor-kinds.ts),
// the form as text fields, the body the API takes, and the calls (save, test now, push URL). The
// server validates; its per-field messages come back keyed by the same field names.
import type { components } from '../../../../api/schema.d.ts';
import {
  DEFAULT_ACCEPTED_STATUS_CODES,
  DEFAULT_DNS_RECORD_TYPE,
  DEFAULT_HTTP_METHOD,
  DEFAULT_SSL_PORT,
  DEFAULT_SSL_WARNING_DAYS,
  DNS_FIELDS,
  HTTP_FIELDS,
  POSTGRES_FIELDS,
  REDIS_FIELDS,
  MAIL_FIELDS,
  MYSQL_FIELDS,
  SSL_FIELDS,
  TCP_FIELDS,
  PING_FIELDS,
  UDP_FIELDS,
  GRPC_FIELDS,
  WEBSOCKET_FIELDS,
  DOMAIN_FIELDS,
  DOMAIN_MIN_INTERVAL_SECONDS,
  GROUP_FIELDS,
} from '../../../../lib/monitor-kinds.ts';
import { KIND_FIELD_SPECS, type KindFieldValue } from '../../../../lib/kind-forms/index.ts';
import { initialValue, parsePairs, toApiValue, toFormValue } from '../../../../lib/kind-forms/field.ts';
import { api, errorText } from '../../api.ts';
import { type ConsoleKey, t } from '../../i18n.ts';
import type { MonitorType } from './store.ts';
import { cleanStep, isJourney, isSynthetic, newStep, type Step } from './steps/model.ts';
import { readTestLines, type StepResult } from './steps/test-lines.ts';

type Monitor = components['schemas']['Monitor'];
type MonitorInput = components['schemas']['MonitorInput'];
/** A test's answer; api_flow and browser runs add the steps' results (`run`). */
export type TestResult = components['schemas']['MonitorTestResult'];

/**
 * Each kind as the form offers it, in this order: its label and its own fields (what the form
 * shows and sends for it): a field of MonitorForm has its input in MonitorDialog.tsx, any other is
 * declared in src/lib/kind-forms/. Typed by the OpenAPI document's kinds: a kind without its entry
 * is a type error.
 */
export const KIND_FORMS: Record<
  MonitorType,
  {
    label: string;
    fields: ReadonlyArray<KindFieldName>;
    defaultPort?: number;
    urlPlaceholder?: string;
    /** the port's hint, a console catalogue key */
    portHint?: ConsoleKey;
    /** the least interval the server takes for the kind (its targets' rate limits) */
    minInterval?: number;
    /** computed from other monitors: no confirmations, locations or time-out of its own */
    derived?: boolean;
  }
> = {
  http: { label: 'HTTP(S)', fields: HTTP_FIELDS },
  tcp: { label: 'TCP port', fields: TCP_FIELDS },
  dns: { label: 'DNS record', fields: DNS_FIELDS },
  ssl: { label: 'SSL certificate', fields: SSL_FIELDS, defaultPort: DEFAULT_SSL_PORT },
  push: { label: 'Push (heartbeat)', fields: [] },
  ping: { label: 'Ping (ICMP)', fields: PING_FIELDS },
  udp: { label: 'UDP', fields: UDP_FIELDS },
  grpc: { label: 'gRPC health', fields: GRPC_FIELDS },
  domain: { label: 'Domain expiry', fields: DOMAIN_FIELDS, minInterval: DOMAIN_MIN_INTERVAL_SECONDS },
  group: { label: 'Group', fields: GROUP_FIELDS, derived: true },
  websocket: { label: 'WebSocket', fields: WEBSOCKET_FIELDS },
  postgres: { label: 'PostgreSQL', fields: POSTGRES_FIELDS, urlPlaceholder: 'postgres://monitor@db.example.com:5432/app' },
  redis: { label: 'Redis', fields: REDIS_FIELDS, urlPlaceholder: 'redis://cache.example.com:6379' },
  smtp: { label: 'SMTP server', fields: MAIL_FIELDS, portHint: 'monitors.form.portHint.smtp' },
  imap: { label: 'IMAP server', fields: MAIL_FIELDS, portHint: 'monitors.form.portHint.imap' },
  pop3: { label: 'POP3 server', fields: MAIL_FIELDS, portHint: 'monitors.form.portHint.pop3' },
  mysql: { label: 'MySQL / MariaDB', fields: MYSQL_FIELDS, urlPlaceholder: 'mysql://monitor@db.example.com:3306/app' },
  // `steps` is edited by the StepsEditor (issue 29's console work), not a field of this table.
  api_flow: { label: 'Multi-step API', fields: ['degraded_threshold_ms'] },
  browser: { label: 'Browser journey', fields: ['degraded_threshold_ms'], minInterval: 300 },
};
export const KIND_ORDER = Object.keys(KIND_FORMS) as MonitorType[];
const byKind = <T>(of: (k: MonitorType) => T) => Object.fromEntries(KIND_ORDER.map((k) => [k, of(k)])) as Record<MonitorType, T>;
/** A kind as people read it, in the console's language (monitors.kind.<kind>); KIND_FORMS keeps the English. */
export const kindLabel = (k: MonitorType) => t(`monitors.kind.${k}` as ConsoleKey);
/** Each kind's label, read when drawn (so in the language shown then). */
export const KIND_LABELS = Object.defineProperties(
  {} as Record<MonitorType, string>,
  Object.fromEntries(KIND_ORDER.map((k) => [k, { get: () => kindLabel(k), enumerable: true }])),
);
export const KIND_FIELDS = byKind((k) => KIND_FORMS[k].fields);
export { DNS_RECORD_TYPES as RECORD_TYPES, HTTP_METHODS as METHODS } from '../../../../lib/monitor-kinds.ts';

/** A kind's field: one the dialog draws by hand (MonitorForm's) or one declared in src/lib/kind-forms/. */
export type KindFieldName = keyof MonitorForm | (string & {});

/** Every field as the form holds it (text inputs), named as the API names it. */
export interface MonitorForm {
  type: MonitorType;
  company_id: string;
  name: string;
  interval_seconds: string;
  timeout_seconds: string;
  confirmations: string;
  /** percent, e.g. 99.9; blank: no SLA target */
  sla_target: string;
  is_public: boolean;
  /** its outage alone is a major outage of the status page */
  is_critical: boolean;
  /** checked from the company's default set (locations null), else from `locations` */
  use_default_locations: boolean;
  /** location slugs, in the picker's order */
  locations: string[];
  /** how many locations must see it down; blank: a majority of the online ones */
  quorum: string;
  url: string;
  method: string;
  /** one `Name: value` a line */
  headers: string;
  body: string;
  /** comma-separated: 200, 200-299, 2xx */
  accepted_status_codes: string;
  keyword: string;
  keyword_mode: 'present' | 'absent';
  json_path: string;
  json_expected: string;
  follow_redirects: boolean;
  degraded_threshold_ms: string;
  host: string;
  port: string;
  record_type: string;
  resolver: string;
  /** comma-separated */
  expected_values: string;
  /** comma-separated days */
  ssl_warning_days: string;
  /** the fields declared in src/lib/kind-forms/, by name */
  extra: Record<string, KindFieldValue>;
  /** a group's child monitors (ids), chosen in the dialog's checklist */
  children: string[];
  /** the monitors it depends on (ids) */
  parents: string[];
  /** an api_flow or browser monitor's steps (openapi/schemas/synthetic.yaml), edited by steps/StepsEditor.tsx */
  steps: Step[];
}

/** The port a kind's form starts with (the server's default for it), else none. */
const defaultPort = (type: MonitorType) => String(KIND_FORMS[type].defaultPort ?? '');

/** The server's defaults (lib/monitor-kinds.ts, domain/monitors/validate.ts). */
export function emptyForm(type: MonitorType = 'http', companyId = ''): MonitorForm {
  return {
    type,
    company_id: companyId,
    name: '',
    interval_seconds: '60',
    timeout_seconds: '10',
    confirmations: '2',
    sla_target: '',
    is_public: false,
    is_critical: false,
    use_default_locations: true,
    locations: [],
    quorum: '',
    url: '',
    method: DEFAULT_HTTP_METHOD,
    headers: '',
    body: '',
    accepted_status_codes: DEFAULT_ACCEPTED_STATUS_CODES.join(', '),
    keyword: '',
    keyword_mode: 'present',
    json_path: '',
    json_expected: '',
    follow_redirects: true,
    degraded_threshold_ms: '',
    host: '',
    port: defaultPort(type),
    record_type: DEFAULT_DNS_RECORD_TYPE,
    resolver: '',
    expected_values: '',
    ssl_warning_days: DEFAULT_SSL_WARNING_DAYS.join(', '),
    extra: Object.fromEntries(Object.entries(KIND_FIELD_SPECS).map(([k, spec]) => [k, initialValue(spec)])),
    children: [],
    parents: [],
    steps: isSynthetic(type) ? [newStep(type, 0)] : [],
  };
}

/** A kind change keeps what was typed and fills the new kind's defaults where nothing was. */
export function withType(f: MonitorForm, type: MonitorType): MonitorForm {
  const least = KIND_FORMS[type].minInterval ?? 0;
  const interval = Number(f.interval_seconds) < least ? String(least) : f.interval_seconds;
  // A journey's steps are not a flow's requests: switching between the two starts afresh.
  const sameSteps = isSynthetic(type) && f.steps.length > 0 && f.steps.every((s) => 'action' in s === isJourney(type));
  const steps = isSynthetic(type) ? (sameSteps ? f.steps : [newStep(type, 0)]) : f.steps;
  return { ...f, type, port: f.port || defaultPort(type), interval_seconds: interval, steps };
}

const list = (xs: ReadonlyArray<string | number> | null | undefined) => (xs ?? []).join(', ');

export function formOf(m: Monitor): MonitorForm {
  const d = emptyForm(m.type, m.company_id);
  return {
    ...d,
    name: m.name,
    interval_seconds: String(m.interval_seconds),
    timeout_seconds: String(m.timeout_seconds),
    confirmations: String(m.confirmations),
    sla_target: m.sla_target == null ? '' : String(m.sla_target),
    is_public: m.is_public,
    is_critical: m.is_critical,
    use_default_locations: m.locations === null,
    locations: m.locations ?? [],
    quorum: m.quorum == null ? '' : String(m.quorum),
    url: m.url ?? '',
    method: m.method ?? d.method,
    headers: Object.entries(m.headers ?? {})
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n'),
    body: m.body ?? '',
    accepted_status_codes: m.accepted_status_codes ? list(m.accepted_status_codes) : d.accepted_status_codes,
    keyword: m.keyword ?? '',
    keyword_mode: m.keyword_mode ?? 'present',
    json_path: m.json_path ?? '',
    json_expected: m.json_expected ?? '',
    follow_redirects: m.follow_redirects ?? true,
    degraded_threshold_ms: m.degraded_threshold_ms == null ? '' : String(m.degraded_threshold_ms),
    host: m.host ?? '',
    port: m.port == null ? d.port : String(m.port),
    record_type: m.record_type ?? d.record_type,
    resolver: m.resolver ?? '',
    expected_values: list(m.expected_values),
    ssl_warning_days: m.ssl_warning_days ? list(m.ssl_warning_days) : d.ssl_warning_days,
    extra: Object.fromEntries(
      Object.entries(KIND_FIELD_SPECS).map(([k, spec]) => [k, toFormValue(spec, (m as unknown as Record<string, unknown>)[k])]),
    ),
    children: m.children ?? [],
    parents: m.parents ?? [],
    steps: (m.steps ?? []).map((s) => ({ ...s })),
  };
}

const splitList = (s: string) =>
  s
    .split(/[,\n]/)
    .map((x) => x.trim())
    .filter(Boolean);
/** A number as typed; text that is not one goes to the server as is, which names the field. */
const num = (s: string): number | null => (s.trim() === '' ? null : Number.isFinite(Number(s)) ? Number(s) : (s as unknown as number));

/** Header lines as an object; a line without a colon is left for the server to refuse by name. */
export const parseHeaders = parsePairs;

/** The body for create, test and update: the common fields and this kind's own, blanks as null. */
export function payloadOf(f: MonitorForm, superAdmin: boolean): MonitorInput {
  const kind: Record<string, unknown> = {};
  for (const field of KIND_FIELDS[f.type]) {
    const spec = KIND_FIELD_SPECS[field];
    if (spec) {
      const value = toApiValue(spec, f.extra[field] ?? initialValue(spec));
      if (value !== undefined) kind[field] = value;
      continue;
    }
    const v = f[field as keyof MonitorForm] as string | boolean | string[]; // text inputs, checkboxes and checklists
    if (typeof v === 'boolean' || Array.isArray(v)) kind[field] = v;
    else if (field === 'headers') kind[field] = v.trim() ? parseHeaders(v) : null;
    else if (field === 'accepted_status_codes' || field === 'expected_values') kind[field] = v.trim() ? splitList(v) : null;
    else if (field === 'ssl_warning_days') kind[field] = v.trim() ? splitList(v).map((x) => num(x)) : null;
    else if (field === 'port' || field === 'degraded_threshold_ms') kind[field] = num(v);
    else kind[field] = v.trim() === '' ? null : v.trim();
  }
  // The steps editor draws a synthetic kind's steps, whether or not its KIND_FORMS line names the field.
  if (isSynthetic(f.type)) kind.steps = f.steps.map(cleanStep);
  return {
    type: f.type,
    name: f.name.trim(),
    interval_seconds: num(f.interval_seconds) ?? 60,
    timeout_seconds: num(f.timeout_seconds),
    confirmations: num(f.confirmations),
    sla_target: num(f.sla_target),
    is_public: f.is_public,
    is_critical: f.is_critical,
    // An empty choice goes as is: the server names the field ("Choose at least one location").
    locations: f.use_default_locations ? null : f.locations,
    quorum: num(f.quorum),
    parents: f.parents,
    ...(superAdmin && f.company_id ? { company_id: f.company_id } : {}),
    ...kind,
  } as MonitorInput;
}

/** What a failed call leaves on the form: the server's sentence and its per-field messages. */
export interface Refusal {
  text: string;
  fields: Record<string, string>;
}

function refusalOf(error: unknown, fallback: string): Refusal {
  const fields = (error as { errors?: Record<string, string> } | undefined)?.errors ?? {};
  return { text: explain(errorText(error, fallback)), fields };
}

/** The SSRF guard's refusals, explained to someone who did not write it. */
export function explain(text: string): string {
  if (/target refused|private|loopback|link-local|metadata/i.test(text)) return t('monitors.form.ssrfExplained', { text });
  return text;
}

export type SaveResult = { ok: true; monitor: Monitor } | { ok: false; refusal: Refusal };

export async function saveMonitor(f: MonitorForm, id: string | null, superAdmin: boolean): Promise<SaveResult> {
  try {
    const body = payloadOf(f, superAdmin);
    const r = id
      ? await api.PUT('/api/v1/monitors/{id}', { params: { path: { id } }, body: { ...body, company_id: undefined } as never })
      : await api.POST('/api/v1/monitors', { body });
    if (r.data) return { ok: true, monitor: r.data };
    return { ok: false, refusal: refusalOf(r.error, t('monitors.form.saveFailed')) };
  } catch (e) {
    return { ok: false, refusal: refusalOf(e, t('monitors.form.saveFailed')) };
  }
}

export type TestOutcome = { ok: true; result: TestResult } | { ok: false; refusal: Refusal };

/**
 * `id`: the saved monitor being edited (its stored password, never sent to the form, is used).
 * `onStep`: an api_flow or browser test is streamed and each step is told as it ends.
 */
export async function testMonitor(
  f: MonitorForm,
  superAdmin: boolean,
  id: string | null = null,
  onStep?: (step: StepResult) => void,
): Promise<TestOutcome> {
  try {
    const monitor = id ? { monitor: id } : {};
    const body = payloadOf(f, superAdmin);
    if (onStep && isSynthetic(f.type)) {
      const r = await api.POST('/api/v1/monitors/test', { body, params: { query: { ...monitor, stream: true } }, parseAs: 'stream' });
      if (!r.data) return { ok: false, refusal: refusalOf(r.error, t('monitors.form.testFailed')) };
      return { ok: true, result: await readTestLines(r.data, onStep) };
    }
    const r = await api.POST('/api/v1/monitors/test', { body, params: { query: monitor } });
    if (r.data) return { ok: true, result: r.data as TestResult };
    return { ok: false, refusal: refusalOf(r.error, t('monitors.form.testFailed')) };
  } catch (e) {
    return { ok: false, refusal: refusalOf(e, t('monitors.form.testFailed')) };
  }
}

/** A new push URL (the old one stops working); only this answer and the create's carry it. */
export async function rotatePushUrl(id: string): Promise<string | null> {
  const r = await api.POST('/api/v1/monitors/{id}/push-token', { params: { path: { id } } });
  return r.data?.push_url ?? null;
}

/** The curl line a cron job runs to report in. */
export function curlExample(url: string): string {
  return `curl -fsS -m 10 --retry 3 "${url}"`;
}

/** The phases of a test result, in the order they happen, with their labels. */
export function phasesOf(timings: TestResult['timings']): Array<{ label: string; ms: number }> {
  if (!timings) return [];
  const names: Array<[keyof NonNullable<TestResult['timings']>, string]> = [
    ['dns', t('monitors.phase.dns')],
    ['connect', t('monitors.phase.connect')],
    ['tls', t('monitors.phase.tls')],
    ['ttfb', t('monitors.phase.ttfb')],
    ['total', t('monitors.phase.total')],
  ];
  return names.filter(([k]) => typeof timings[k] === 'number').map(([k, label]) => ({ label, ms: timings[k] as number }));
}
