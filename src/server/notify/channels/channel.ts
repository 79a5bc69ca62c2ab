// What an alert channel is: one module per channel type (webhook, e-mail, Slack, Teams, …),
// registered in one exhaustive table like the monitor kinds. A channel turns one alert into
// what its service documents (an HTTP request, or a mail) and validates the tenant's config;
// the outbox and its delivery job do the sending, the retrying and the receipts.

/** What happened, as every channel renders it. Built by the outbox from a notification draft. */
export type AlertEventType =
  | 'incident.opened'
  | 'incident.resolved'
  | 'incident.degraded'
  | 'incident.acknowledged'
  | 'incident.escalated'
  | 'ssl_warning'
  | 'dns_warning'
  | 'security_report'
  | 'maintenance.started'
  | 'maintenance.ended'
  | 'anomaly.opened'
  | 'anomaly.resolved'
  | 'test';

export type AlertSeverity = 'critical' | 'high' | 'medium' | 'low' | 'info';

export interface AlertMonitorRef {
  id: string;
  name: string;
  /** The monitor's target as its company sees it (URL, host:port, …) */
  target: string;
}

/** One occurrence of a maintenance window (a recurring window has one per week or month); times in ms. */
export interface AlertMaintenanceRef {
  id: string;
  title: string;
  starts_at: number;
  /** When the occurrence ends, or ended (early, or cancelled while running) */
  ends_at: number;
}

export interface Alert {
  /** Stable per delivery: the Standard Webhooks `webhook-id`, the e-mail Message-ID's local part */
  deliveryId: string;
  event: AlertEventType;
  severity: AlertSeverity;
  /** One line, e.g. 'Website is down' */
  title: string;
  /** A few sentences built by the product (never a target's response content) */
  message: string;
  occurredAt: number;
  company: { id: string; name: string; subdomain: string; primaryColor: string | null; logoUrl: string | null };
  monitor: AlertMonitorRef | null;
  /** Several monitors changed together: one grouped message lists them */
  monitors: AlertMonitorRef[];
  incident: { id: string; title: string; status: string; impact: string | null } | null;
  /** The maintenance occurrence a maintenance.started / maintenance.ended alert is about (else null) */
  maintenance: AlertMaintenanceRef | null;
  /** Console link for the company's users */
  consoleUrl: string;
  /** Public status page of the company */
  statusPageUrl: string;
  /** Signed one-time acknowledge link, when the event can be acknowledged */
  acknowledgeUrl: string | null;
}

/** Fixed API hosts come from configuration (tests point them at loopback fakes). */
export interface ChannelEnv {
  productName: string;
  apiBase: {
    pagerduty: string; // https://events.pagerduty.com
    opsgenie: string; // https://api.opsgenie.com
    telegram: string; // https://api.telegram.org
    twilio: string; // https://api.twilio.com
    pushover: string; // https://api.pushover.net
    splunkOncall: string; // https://alert.victorops.com
    zenduty: string; // https://www.zenduty.com
    linear: string; // https://api.linear.app/graphql
  };
}

export interface OutboundRequest {
  url: string;
  /**
   * POST for most services; PUT where the service documents it (Matrix sends under a transaction
   * id, which makes a repeat a no-op); the custom HTTP channel lets the admin choose.
   */
  method: 'POST' | 'PUT' | 'PATCH' | 'GET';
  headers: Record<string, string>;
  body: string;
}

export interface OutboundMail {
  to: string[];
  subject: string;
  text: string;
  html: string;
  headers: Record<string, string>;
}

/** A refused config: the message names the field in the form's words. */
export class ChannelConfigError extends Error {
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.field = field;
  }
}

/**
 * How a channel's alerts join others about the same event (notify/outbox/grouping.ts): hold them
 * for the grouping window and send one message (chat, SMS), merge only what arrives during a burst
 * (e-mail), or never (machine receivers that need one event per incident for their own dedup).
 */
export type GroupingPolicy = 'hold' | 'burst' | 'never';

interface ChannelBase<C> {
  readonly type: string;
  /** Shown in the console, e.g. 'Microsoft Teams' */
  readonly label: string;
  /** Validates and normalises the tenant's config; throws ChannelConfigError */
  parseConfig(raw: unknown): C;
  /** URLs the tenant supplied, checked by the SSRF guard before every send */
  tenantUrls(config: C): string[];
  /** Config fields never shown back after creation (tokens, keys) */
  readonly secretFields: readonly string[];
  /** It signs each message with a secret the server makes (shown once at creation, rotatable) */
  readonly signingSecret?: boolean;
  /** Whether and how its alerts are grouped, from what its readers need */
  readonly grouping: GroupingPolicy;
  /**
   * The least time between two of its messages, from what the service documents (0: none); the
   * stored config, which may lack fields, for services whose limit depends on the target.
   */
  minGapMs(config: Partial<C>): number;
}

export interface HttpChannel<C> extends ChannelBase<C> {
  readonly transport: 'http';
  build(alert: Alert, config: C, env: ChannelEnv): OutboundRequest;
}

export interface MailChannel<C> extends ChannelBase<C> {
  readonly transport: 'mail';
  build(alert: Alert, config: C, env: ChannelEnv): OutboundMail;
}

/** The issue a tracker channel opened for an incident (kept per channel and incident: alert_issue_links). */
export interface IssueRef {
  /** The service's id (Jira's numeric id, Linear's UUID) */
  id: string;
  /** What people read: Jira's OPS-12, Linear's ENG-34 */
  key: string;
  url: string | null;
}

/**
 * An issue tracker (Jira, Linear): an incident opens one issue and later events about it comment
 * on that issue. Unlike the other channels it reads the service's answer (which issue it opened)
 * and the outbox keeps it, so every comment goes to that issue (notify/outbox/tracker-send.ts).
 */
export interface TrackerChannel<C> extends ChannelBase<C> {
  readonly transport: 'tracker';
  openIssue(alert: Alert, config: C, env: ChannelEnv): OutboundRequest;
  /** The issue named by the service's accepted answer to openIssue, or null when it names none */
  readIssue(answer: string, config: C): IssueRef | null;
  comment(alert: Alert, issue: IssueRef, config: C, env: ChannelEnv): OutboundRequest;
  /**
   * Asked before opening again after an attempt whose answer never came (the service may have
   * opened the issue all the same): the request that finds the issue this alert opened, or null
   * when the service cannot be asked.
   */
  findIssue(alert: Alert, config: C, env: ChannelEnv): OutboundRequest | null;
  /** The issue named by the accepted answer to findIssue, or null when none was opened */
  readFound(answer: string, config: C): IssueRef | null;
  /** Why an accepted (2xx) answer is still a refusal (GraphQL answers errors with 200), else null */
  answerError(answer: string): string | null;
}

export type Channel<C = any> = HttpChannel<C> | MailChannel<C> | TrackerChannel<C>;
