// Jira Cloud (REST API v3): an incident opens one issue (POST /rest/api/3/issue, the description
// in Atlassian Document Format) and later events about it comment on that issue (POST
// /rest/api/3/issue/{key}/comment); https://developer.atlassian.com/cloud/jira/platform/rest/v3/.
// Basic auth with the account's e-mail and API token. The site is the tenant's URL, so it passes
// the SSRF guard like a webhook's. Which issue an incident opened is kept by the outbox
// (tracker-send.ts).
import { secretKeys } from '../../../lib/channel-forms/field.ts';
import { jiraForm } from '../../../lib/channel-forms/jira.ts';
import { alertLinks, monitorsOf, plainSummary, truncate } from './alert-text.ts';
import type { Alert, IssueRef, OutboundRequest, TrackerChannel } from './channel.ts';
import { parseFields } from './config-fields.ts';

export interface JiraConfig {
  url: string;
  email: string;
  api_token: string;
  project_key: string;
  issue_type: string;
}

type AdfInline = { type: 'text'; text: string; marks?: Array<{ type: 'strong' } | { type: 'link'; attrs: { href: string } }> };
type AdfBlock =
  | { type: 'paragraph'; content: AdfInline[] }
  | { type: 'bulletList'; content: Array<{ type: 'listItem'; content: AdfBlock[] }> };

const text = (t: string, marks?: AdfInline['marks']): AdfInline => ({ type: 'text', text: t, ...(marks ? { marks } : {}) });
// ADF refuses an empty text node.
const paragraph = (...content: AdfInline[]): AdfBlock => ({ type: 'paragraph', content: content.filter((c) => c.text !== '') });

/** The alert as an ADF document: what happened, the monitors concerned, the links (never the one-time acknowledge link). */
function document(alert: Alert, heading: string | null) {
  const blocks: AdfBlock[] = [];
  if (heading) blocks.push(paragraph(text(heading, [{ type: 'strong' }])));
  blocks.push(paragraph(text(truncate(alert.message, 10_000) || alert.title)));
  const monitors = monitorsOf(alert);
  if (monitors.length > 0) {
    // A grouped alert over hundreds of monitors: the first 50 are enough to act on.
    const listed = monitors.slice(0, 50).map((m) => ({
      type: 'listItem' as const,
      content: [paragraph(text(truncate(`${m.name}${m.target ? ` (${m.target})` : ''}`, 500)))],
    }));
    blocks.push({ type: 'bulletList', content: listed });
    if (monitors.length > 50) blocks.push(paragraph(text(`and ${monitors.length - 50} more monitors`)));
  }
  const links = alertLinks(alert).filter((l) => l.label !== 'Acknowledge');
  blocks.push(
    paragraph(...links.flatMap((l, i) => [...(i ? [text(' · ')] : []), text(l.label, [{ type: 'link', attrs: { href: l.url } }])])),
  );
  return { version: 1, type: 'doc', content: blocks };
}

const authorization = (config: JiraConfig) => `Basic ${Buffer.from(`${config.email}:${config.api_token}`).toString('base64')}`;
const siteOf = (config: JiraConfig) => config.url.replace(/\/+$/, '');

function request(config: JiraConfig, path: string, body: unknown): OutboundRequest {
  return {
    url: `${siteOf(config)}${path}`,
    method: 'POST',
    headers: { authorization: authorization(config), accept: 'application/json', 'content-type': 'application/json' },
    body: JSON.stringify(body),
  };
}

/**
 * The label that finds an alert's issue again (a label holds no spaces): the incident's, or
 * the delivery's for an alert about no incident (a warning, Send test).
 */
export function jiraLabel(alert: Alert): string {
  return alert.incident ? `statuswatch-incident-${alert.incident.id}` : `statuswatch-${alert.deliveryId}`;
}

const issueRef = (config: JiraConfig, id: unknown, key: unknown): IssueRef | null =>
  typeof id === 'string' && typeof key === 'string' ? { id, key, url: `${siteOf(config)}/browse/${encodeURIComponent(key)}` } : null;

function parsed(answer: string): Record<string, unknown> | null {
  try {
    const v = JSON.parse(answer) as unknown;
    return v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export const jira: TrackerChannel<JiraConfig> = {
  type: 'jira',
  label: jiraForm.label,
  transport: 'tracker',
  secretFields: secretKeys(jiraForm),
  // One issue per incident: never merged with other alerts.
  grouping: 'never',
  // Jira Cloud's limits are per account and cost-based, answered with 429 and Retry-After, which
  // the outbox honours; an incident's few events need no gap of their own.
  minGapMs: () => 0,
  parseConfig: (raw) => parseFields<JiraConfig>(raw, jiraForm),
  tenantUrls: (c) => [c.url],
  openIssue(alert, config) {
    return request(config, '/rest/api/3/issue', {
      fields: {
        project: { key: config.project_key },
        issuetype: { name: config.issue_type },
        // The summary is one line of at most 255 characters.
        summary: truncate(plainSummary(alert).replace(/\s+/g, ' '), 255),
        description: document(alert, null),
        labels: ['statuswatch', jiraLabel(alert)],
      },
    });
  },
  readIssue(answer, config) {
    const issue = parsed(answer);
    return issue ? issueRef(config, issue.id, issue.key) : null;
  },
  // JQL search (GET /rest/api/3/search/jql) for the alert's label in the project.
  findIssue(alert, config) {
    const jql = `project = "${config.project_key}" AND labels = "${jiraLabel(alert)}" ORDER BY created ASC`;
    const query = new URLSearchParams({ jql, fields: 'key', maxResults: '1' });
    return {
      url: `${siteOf(config)}/rest/api/3/search/jql?${query}`,
      method: 'GET',
      headers: { authorization: authorization(config), accept: 'application/json' },
      body: '',
    };
  },
  readFound(answer, config) {
    const first = (parsed(answer)?.issues as Array<Record<string, unknown>> | undefined)?.[0];
    return first ? issueRef(config, first.id, first.key) : null;
  },
  comment(alert, issue: IssueRef, config) {
    return request(config, `/rest/api/3/issue/${encodeURIComponent(issue.key)}/comment`, {
      body: document(alert, alert.title),
    });
  },
  answerError: () => null,
};
