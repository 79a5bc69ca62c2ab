import type { Generated } from 'kysely';

// Row types of the telemetry (OTLP) tables (migrations 0200-0299). Booleans (stored 0/1, read as booleans: db/booleans.ts), times ms
// (span starts in microseconds for the waterfall), JSON as text.

export interface ApiKeysTable {
  id: string;
  company_id: string;
  name: string;
  scope: 'ingest';
  /** First characters of the secret, shown in lists so a key can be recognised */
  prefix: string;
  /** SHA-256 (hex) of the whole secret; the secret itself is never stored */
  key_hash: string;
  created_by: string | null;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
  /** JSON array of browser origins (scheme://host[:port]) whose pages may export with this key */
  allowed_origins: Generated<string>;
}

export interface SpansTable {
  company_id: string;
  trace_id: string;
  span_id: string;
  parent_span_id: string | null;
  name: string;
  service: string;
  /** OTLP SpanKind: 0 unspecified, 1 internal, 2 server, 3 client, 4 producer, 5 consumer */
  kind: number;
  /** Microseconds since the epoch */
  start_us: number;
  duration_ms: number;
  /** OTLP status code: 0 unset, 1 ok, 2 error */
  status_code: number;
  http_status: number | null;
  is_error: boolean;
  /** Counted in RED (see telemetry/otlp-spans.ts isRequest) */
  is_request: boolean;
  error_message: string | null;
  /** JSON object of the span's attributes */
  attributes: string;
  /** JSON array of {name, time, attributes} */
  events: string;
}

export interface RedRollupsTable {
  company_id: string;
  minute_ms: number;
  service: string;
  operation: string;
  requests: number;
  errors: number;
  sum_ms: number;
  /** Latency sketch of the minute's requests (src/lib/latency-sketch.ts text form) */
  hist: Generated<string>;
}

/**
 * The same figures per hour (7- and 30-day views read these): minute_ms holds the hour's first
 * minute, so one upsert serves both grains.
 */
export type RedRollupsHourlyTable = RedRollupsTable;

/**
 * Requests of one HTTP endpoint (service, method, route template) in one minute
 * (endpoint_rollups), hour (endpoint_rollups_hourly) or UTC day (endpoint_rollups_daily);
 * minute_ms holds the first minute of the hour or day.
 */
export interface EndpointRollupsTable {
  company_id: string;
  minute_ms: number;
  service: string;
  /** Upper-case HTTP method, or _OTHER */
  method: string;
  /** Route template (http.route, url.template or the normalised path) */
  route: string;
  requests: number;
  /** Status ERROR or an answer of 500 or more */
  errors: number;
  sum_ms: number;
  /** Requests per status class; requests with no status code are in none */
  c2xx: number;
  c3xx: number;
  c4xx: number;
  c5xx: number;
  /** Requests per status code (src/lib/status-counts.ts text form) */
  codes: Generated<string>;
  /** Latency sketch (src/lib/latency-sketch.ts text form) */
  hist: Generated<string>;
}

/** The endpoints a company's spans have named, with the start of the first request seen. */
export interface ApiEndpointsTable {
  company_id: string;
  service: string;
  method: string;
  route: string;
  first_seen_ms: number;
}

export interface TelemetryTables {
  api_keys: ApiKeysTable;
  spans: SpansTable;
  red_rollups: RedRollupsTable;
  red_rollups_hourly: RedRollupsHourlyTable;
  endpoint_rollups: EndpointRollupsTable;
  endpoint_rollups_hourly: EndpointRollupsTable;
  endpoint_rollups_daily: EndpointRollupsTable;
  api_endpoints: ApiEndpointsTable;
}
