// Linear (GraphQL API at LINEAR_API_URL, https://linear.app/developers/graphql): an incident opens
// one issue (mutation issueCreate: teamId, title, Markdown description) and later events comment
// on it (mutation commentCreate: issueId, Markdown body). A personal API key goes in
// `Authorization` as it is (OAuth tokens take "Bearer", API keys do not). GraphQL answers most
// refusals with 200 and `errors`, so the answer is read (answerError).
import { secretKeys } from '../../../lib/channel-forms/field.ts';
import { linearForm } from '../../../lib/channel-forms/linear.ts';
import { alertLinks, escapeMarkdown, monitorsOf, plainSummary, truncate } from './alert-text.ts';
import type { Alert, ChannelEnv, OutboundRequest, TrackerChannel } from './channel.ts';
import { parseFields } from './config-fields.ts';

export interface LinearConfig {
  api_key: string;
  team_id: string;
}

export const ISSUE_CREATE = `mutation IssueCreate($input: IssueCreateInput!) {
  issueCreate(input: $input) { success issue { id identifier url } }
}`;

export const ISSUE_BY_ID = `query Issue($id: String!) {
  issue(id: $id) { id identifier url }
}`;

export const COMMENT_CREATE = `mutation CommentCreate($input: CommentCreateInput!) {
  commentCreate(input: $input) { success comment { id } }
}`;

/** The alert in Markdown: what happened, the monitors concerned, the links (never the one-time acknowledge link). */
function markdown(alert: Alert, heading: string | null): string {
  const lines: string[] = [];
  if (heading) lines.push(`**${escapeMarkdown(heading)}**`, '');
  lines.push(escapeMarkdown(truncate(alert.message, 10_000)), '');
  const monitors = monitorsOf(alert);
  for (const m of monitors.slice(0, 50)) lines.push(`- ${escapeMarkdown(m.name)}${m.target ? ` (${escapeMarkdown(m.target)})` : ''}`);
  if (monitors.length > 50) lines.push(`- and ${monitors.length - 50} more monitors`);
  if (monitors.length > 0) lines.push('');
  lines.push(
    alertLinks(alert)
      .filter((l) => l.label !== 'Acknowledge')
      .map((l) => `[${l.label}](${l.url})`)
      .join(' · '),
  );
  return lines.join('\n');
}

function graphql(config: LinearConfig, env: ChannelEnv, query: string, variables: Record<string, unknown>): OutboundRequest {
  return {
    url: env.apiBase.linear,
    method: 'POST',
    headers: { authorization: config.api_key, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  };
}

/**
 * The issue's id, chosen by us (IssueCreateInput takes a UUID v4): the delivery's own UUID
 * (msg_ and its 32 hex digits), the same on every retry, so a retry asks for the issue by it.
 */
export function linearIssueId(deliveryId: string): string | null {
  const m = /^msg_([0-9a-f]{8})([0-9a-f]{4})(4[0-9a-f]{3})([89ab][0-9a-f]{3})([0-9a-f]{12})$/.exec(deliveryId);
  return m ? m.slice(1).join('-') : null;
}

const issueOf = (v: unknown) => {
  const issue = v as Record<string, unknown> | null | undefined;
  if (!issue || typeof issue.id !== 'string' || typeof issue.identifier !== 'string') return null;
  return { id: issue.id, key: issue.identifier, url: typeof issue.url === 'string' ? issue.url : null };
};

function parsed(answer: string): { data?: Record<string, unknown> | null; errors?: Array<{ extensions?: { code?: unknown } }> } | null {
  try {
    const v = JSON.parse(answer) as unknown;
    return v !== null && typeof v === 'object' ? (v as ReturnType<typeof parsed>) : null;
  } catch {
    return null;
  }
}

export const linear: TrackerChannel<LinearConfig> = {
  type: 'linear',
  label: linearForm.label,
  transport: 'tracker',
  secretFields: secretKeys(linearForm),
  grouping: 'never',
  // Linear allows 1,500 requests an hour per API key (and answers RATELIMITED past it): an
  // incident's few events are far below; no gap of our own.
  minGapMs: () => 0,
  parseConfig: (raw) => parseFields<LinearConfig>(raw, linearForm),
  tenantUrls: () => [],
  openIssue(alert, config, env) {
    const id = linearIssueId(alert.deliveryId);
    return graphql(config, env, ISSUE_CREATE, {
      input: {
        ...(id ? { id } : {}),
        teamId: config.team_id,
        title: truncate(plainSummary(alert).replace(/\s+/g, ' '), 255),
        description: markdown(alert, null),
      },
    });
  },
  readIssue: (answer) => issueOf((parsed(answer)?.data?.issueCreate as { issue?: unknown } | undefined)?.issue),
  comment(alert, issue, config, env) {
    return graphql(config, env, COMMENT_CREATE, { input: { issueId: issue.id, body: markdown(alert, alert.title) } });
  },
  findIssue(alert, config, env) {
    const id = linearIssueId(alert.deliveryId);
    return id ? graphql(config, env, ISSUE_BY_ID, { id }) : null;
  },
  // An issue that was never opened answers an "Entity not found" error and no data.
  readFound: (answer) => issueOf(parsed(answer)?.data?.issue),
  answerError(answer) {
    const a = parsed(answer);
    if (!a) return 'Linear answered something that is not JSON';
    if (a.errors?.length) {
      // Receipts hold text we build: Linear's error code (AUTHENTICATION_ERROR, RATELIMITED, …)
      // when it is one, never its message, which may quote what was sent.
      const code = a.errors[0]?.extensions?.code;
      return `Linear refused the request${typeof code === 'string' && /^[A-Za-z_]{1,40}$/.test(code) ? ` (${code})` : ''}`;
    }
    const result = Object.values(a.data ?? {})[0] as { success?: unknown } | undefined;
    return result?.success === true ? null : 'Linear did not confirm the request';
  },
};
