// Each monitor kind's own fields and the values the server takes for a field left out: the engine
// (server/engine/kinds/) validates with them and the console's monitor form shows them, so the
// form's defaults are the server's by construction.

export const HTTP_FIELDS = [
  'url',
  'method',
  'headers',
  'body',
  'accepted_status_codes',
  'keyword',
  'keyword_mode',
  'json_path',
  'json_expected',
  'follow_redirects',
  'degraded_threshold_ms',
  'keyword_regex',
  'header_assertions',
] as const;
export const TCP_FIELDS = ['host', 'port', 'degraded_threshold_ms'] as const;
export const DNS_FIELDS = ['host', 'record_type', 'resolver', 'expected_values'] as const;
export const SSL_FIELDS = ['host', 'port', 'ssl_warning_days'] as const;
export const DOMAIN_FIELDS = ['domain', 'domain_warning_days'] as const;
export const GROUP_FIELDS = ['children', 'group_rule', 'group_min_down'] as const;

export const HTTP_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;
export const DEFAULT_HTTP_METHOD = 'GET';
export const DEFAULT_ACCEPTED_STATUS_CODES = ['200-299'];

export const DNS_RECORD_TYPES = ['A', 'AAAA', 'CNAME', 'MX', 'NS', 'TXT', 'SOA', 'CAA', 'SRV', 'PTR'] as const;
export const DEFAULT_DNS_RECORD_TYPE = 'A';

export const DEFAULT_SSL_PORT = 443;
/** Days before a certificate expires on which a warning goes out. */
export const DEFAULT_SSL_WARNING_DAYS = [30, 14, 7, 1];

export const PING_FIELDS = ['host', 'packet_count', 'max_packet_loss_percent', 'degraded_threshold_ms'] as const;
/** Echo requests a ping check sends; bounded so a ping monitor cannot be made a flood. */
export const DEFAULT_PING_PACKETS = 3;
export const MAX_PING_PACKETS = 10;
/** Loss above this share (percent) is degraded; 0: any lost packet is. All lost is down. */
export const DEFAULT_PING_MAX_LOSS_PERCENT = 0;

export const UDP_FIELDS = [
  'host',
  'port',
  'udp_payload',
  'udp_payload_format',
  'udp_expect',
  'udp_expect_silence',
  'degraded_threshold_ms',
] as const;
export const UDP_PAYLOAD_FORMATS = ['text', 'hex'] as const;
export const DEFAULT_UDP_PAYLOAD_FORMAT = 'text';
/** Bytes of a udp monitor's payload: one datagram that fits any path's MTU. */
export const MAX_UDP_PAYLOAD_BYTES = 1024;

export const GRPC_FIELDS = ['host', 'port', 'grpc_service', 'grpc_tls', 'grpc_metadata', 'degraded_threshold_ms'] as const;
/** Days before a domain's registration expires on which a warning goes out. */
export const DEFAULT_DOMAIN_WARNING_DAYS = [30, 14, 7, 1];
/** Registries' RDAP servers limit how often they are asked: a domain is checked at most hourly. */
export const DOMAIN_MIN_INTERVAL_SECONDS = 3600;

/** How a group's children make it down: any of them, all of them, or at least group_min_down. */
export const GROUP_RULES = ['any', 'all', 'at_least'] as const;
export const GROUP_MAX_CHILDREN = 100;
/** Parents a monitor may depend on. */
export const MAX_PARENTS = 10;

export const WEBSOCKET_FIELDS = ['url', 'ws_subprotocol', 'headers', 'ws_message', 'ws_expect', 'degraded_threshold_ms'] as const;
/**
 * What the monitor view shows in place of a stored credential (`password`): the credential itself
 * is never returned. Sent back unchanged (or left out), it keeps the stored one; null or "" clears it.
 */
export const STORED_SECRET = '(hidden)';

export const POSTGRES_FIELDS = ['url', 'password', 'db_query', 'db_expected', 'degraded_threshold_ms'] as const;
export const DEFAULT_POSTGRES_PORT = 5432;
/** What a database monitor runs when it names no query: a round trip through the server. */
export const DEFAULT_DB_QUERY = 'SELECT 1';

export const REDIS_FIELDS = ['url', 'password', 'degraded_threshold_ms'] as const;
export const DEFAULT_REDIS_PORT = 6379;

export const MAIL_FIELDS = ['host', 'port', 'mail_tls', 'mail_banner', 'username', 'password', 'degraded_threshold_ms'] as const;
/** none: plain text; starttls: upgraded after the greeting; implicit: TLS from the first byte */
export const MAIL_TLS_MODES = ['none', 'starttls', 'implicit'] as const;
export type MailTls = (typeof MAIL_TLS_MODES)[number];
export const DEFAULT_MAIL_TLS: MailTls = 'starttls';
/** Each mail kind's port by its TLS mode (the IANA ports: submission 587, smtps 465, imaps 993, pop3s 995). */
export const MAIL_PORTS = {
  smtp: { none: 25, starttls: 587, implicit: 465 },
  imap: { none: 143, starttls: 143, implicit: 993 },
  pop3: { none: 110, starttls: 110, implicit: 995 },
} as const;

export const MYSQL_FIELDS = ['url', 'password', 'db_query', 'db_expected', 'degraded_threshold_ms'] as const;
export const DEFAULT_MYSQL_PORT = 3306;

export const API_FLOW_FIELDS = ['steps', 'degraded_threshold_ms'] as const;
/** Requests of one api_flow monitor: a journey, not a crawl (every step shares one time-out). */
export const API_FLOW_MAX_STEPS = 20;
export const API_FLOW_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
export const API_ASSERTION_SOURCES = ['status', 'header', 'json', 'body', 'response_time'] as const;
export const API_ASSERTION_COMPARISONS = [
  'equals',
  'not_equals',
  'contains',
  'not_contains',
  'less_than',
  'greater_than',
  'matches',
  'exists',
  'not_exists',
] as const;
export const API_EXTRACTION_SOURCES = ['json', 'header', 'body_regex', 'status'] as const;

/** Browser journeys (issue 29): declarative steps run in Chromium (engine/kinds/browser.ts). */
export const BROWSER_FIELDS = ['steps', 'degraded_threshold_ms'] as const;
/** At most this many steps in one journey (openapi/schemas/synthetic.yaml). */
export const BROWSER_MAX_STEPS = 30;
/** A journey's actions (BrowserStep of synthetic.yaml): declarative, never code. */
export const BROWSER_ACTIONS = [
  'goto',
  'click',
  'fill',
  'select',
  'press',
  'wait_for_text',
  'wait_for_selector',
  'assert_text',
  'assert_url',
  'assert_title',
  'assert_count',
  'screenshot',
] as const;
