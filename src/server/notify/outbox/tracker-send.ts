// Sends one alert through an issue tracker channel (Jira, Linear). An incident opens one issue on
// the channel, kept in alert_issue_links; every later event about it comments on that issue.
// Exactly once: an opening whose incident already has its issue sends nothing, a comment whose
// delivery already commented sends nothing (both happen when a delivery is sent again after its
// lease was lost), a retried opening first asks the service for the issue an earlier attempt may
// have opened before its answer was lost (Jira by label, Linear by the id we gave it), and a
// comment that arrives before the issue exists waits (a retry) for it.
import type { Services } from '../../domain/context.ts';
import { issueLinksRepo } from '../../db/repositories/issue-links-repo.ts';
import type { AlertChannelRow } from '../../db/repositories/alert-channels-repo.ts';
import type { Alert, AlertEventType, ChannelEnv, IssueRef, TrackerChannel } from '../channels/channel.ts';
import { sendHttp, type HttpSendEnv, type SendResult } from './send-http.ts';

export type TrackerIntent = 'open' | 'comment' | 'none';

/**
 * What an event does on a tracker: an incident's opening opens its issue and its later events
 * comment on it; a warning, a security report or Send test is something to look at, one issue
 * each; maintenance is planned work, not an issue.
 */
export function trackerIntent(alert: Pick<Alert, 'event' | 'incident'>): TrackerIntent {
  const byEvent: Record<AlertEventType, TrackerIntent> = {
    'incident.opened': 'open',
    'incident.resolved': 'comment',
    'incident.degraded': 'comment',
    'incident.acknowledged': 'comment',
    'incident.escalated': 'comment',
    ssl_warning: 'open',
    dns_warning: 'open',
    security_report: 'open',
    test: 'open',
    'maintenance.started': 'none',
    'maintenance.ended': 'none',
    // An anomaly is something to look at (one issue); its end is told in the console and chats.
    'anomaly.opened': 'open',
    'anomaly.resolved': 'none',
  };
  const intent = byEvent[alert.event];
  // An incident event without its incident (a payload from before the field) has no issue to find.
  if (intent === 'comment' && !alert.incident) return 'open';
  return intent;
}

const sent = (statusCode: number | null): SendResult => ({ statusCode, error: null, retryAfterMs: null });

export async function sendTracker(
  services: Services,
  delivery: { id: string; attempts: number },
  alert: Alert,
  row: AlertChannelRow,
  channel: TrackerChannel<unknown>,
  config: unknown,
  env: ChannelEnv,
  http: HttpSendEnv,
): Promise<SendResult> {
  const links = issueLinksRepo(services.db);
  const intent = trackerIntent(alert);
  if (intent === 'none') return sent(null);
  const incidentId = alert.event.startsWith('incident.') ? (alert.incident?.id ?? null) : null;
  if (intent === 'open') {
    if (incidentId && (await links.find(row.id, incidentId))) return sent(null);
    // An earlier attempt may have opened the issue and lost the answer (a timeout, a gateway's
    // 502): ask for it before opening another.
    const earlier = delivery.attempts > 0 ? await findIssue(alert, channel, config, env, http) : { issue: null };
    if ('error' in earlier) return earlier;
    let issue = earlier.issue;
    let statusCode: number | null = null;
    if (!issue) {
      const r = await sendHttp(channel.openIssue(alert, config, env), { ...http, keepAnswer: true });
      if (r.error !== null) return r;
      const refused = channel.answerError(r.answer ?? '');
      issue = refused ? null : channel.readIssue(r.answer ?? '', config);
      if (!issue)
        return {
          statusCode: r.statusCode,
          error: refused ?? 'The service answered without naming the issue it opened',
          retryAfterMs: null,
        };
      statusCode = r.statusCode;
    }
    if (incidentId) {
      await links.insert({
        channel_id: row.id,
        incident_id: incidentId,
        company_id: row.company_id,
        issue_id: issue.id.slice(0, 100),
        issue_key: issue.key.slice(0, 100),
        issue_url: issue.url?.slice(0, 2048) ?? null,
        created_at: services.now(),
      });
    }
    return sent(statusCode);
  }
  const link = await links.find(row.id, incidentId!);
  if (!link) return { statusCode: null, error: 'Waiting for the issue of this incident to be opened', retryAfterMs: null };
  if (await links.commented(delivery.id)) return sent(null);
  const issue = { id: link.issue_id, key: link.issue_key, url: link.issue_url };
  const r = await sendHttp(channel.comment(alert, issue, config, env), { ...http, keepAnswer: true });
  if (r.error !== null) return r;
  const refused = channel.answerError(r.answer ?? '');
  if (refused) return { statusCode: r.statusCode, error: refused, retryAfterMs: null };
  await links.recordComment({ delivery_id: delivery.id, channel_id: row.id, incident_id: incidentId!, created_at: services.now() });
  return sent(r.statusCode);
}

/** The issue an earlier attempt opened (null: none, or the service cannot be asked), or why asking failed. */
async function findIssue(
  alert: Alert,
  channel: TrackerChannel<unknown>,
  config: unknown,
  env: ChannelEnv,
  http: HttpSendEnv,
): Promise<{ issue: IssueRef | null } | SendResult> {
  const request = channel.findIssue(alert, config, env);
  if (!request) return { issue: null };
  const r = await sendHttp(request, { ...http, keepAnswer: true });
  if (r.error !== null) return r;
  return { issue: channel.readFound(r.answer ?? '', config) };
}
