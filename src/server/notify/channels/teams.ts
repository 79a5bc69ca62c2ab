// Microsoft Teams through a Workflows webhook ("When a Teams webhook request is received";
// the old Office 365 connectors are retired): a message whose one attachment is an Adaptive
// Card 1.4, the version Teams renders everywhere. The workflow URL carries its signature: secret.
import {
  alertLinks,
  EVENT_LABELS,
  isGrouped,
  isoTime,
  monitorLines,
  monitorsOf,
  SEVERITY_LABELS,
  type Tone,
  toneOf,
  truncate,
} from './alert-text.ts';
import type { Alert, HttpChannel } from './channel.ts';
import { secretKeys } from '../../../lib/channel-forms/field.ts';
import { teamsForm } from '../../../lib/channel-forms/teams.ts';
import { parseFields } from './config-fields.ts';

export interface TeamsConfig {
  url: string;
}

const CARD_COLOURS: Record<Tone, string> = { danger: 'Attention', warning: 'Warning', good: 'Good', accent: 'Accent', neutral: 'Default' };

// Teams refuses cards over about 28 KB: the monitor list stays well under it.
const MONITOR_LIST_BUDGET = 8000;

function card(alert: Alert, productName: string): Record<string, unknown> {
  const monitors = monitorsOf(alert);
  const facts = [
    { title: 'Company', value: alert.company.name },
    { title: 'Event', value: EVENT_LABELS[alert.event] },
    { title: 'Severity', value: SEVERITY_LABELS[alert.severity] },
  ];
  if (monitors.length === 1) facts.push({ title: 'Monitor', value: `${monitors[0].name} (${monitors[0].target})` });
  const body: unknown[] = [
    {
      type: 'TextBlock',
      text: truncate(alert.title, 500),
      weight: 'Bolder',
      size: 'Large',
      wrap: true,
      color: CARD_COLOURS[toneOf(alert)],
    },
    { type: 'TextBlock', text: truncate(alert.message, 4000), wrap: true },
    { type: 'FactSet', facts },
  ];
  if (isGrouped(alert)) {
    const lines = monitorLines(monitors, MONITOR_LIST_BUDGET, (m) => `- ${m.name} (${m.target})`);
    body.push({ type: 'TextBlock', text: `${monitors.length} monitors`, weight: 'Bolder', wrap: true });
    body.push({ type: 'TextBlock', text: lines.join('\n'), wrap: true });
  }
  body.push({ type: 'TextBlock', text: `${isoTime(alert)} · ${productName}`, isSubtle: true, size: 'Small', wrap: true });
  return {
    $schema: 'http://adaptivecards.io/schemas/adaptive-card.json',
    type: 'AdaptiveCard',
    version: '1.4',
    msteams: { width: 'Full' },
    body,
    actions: alertLinks(alert).map((l) => ({ type: 'Action.OpenUrl', title: l.label, url: l.url })),
  };
}

export const teams: HttpChannel<TeamsConfig> = {
  type: 'teams',
  label: teamsForm.label,
  transport: 'http',
  secretFields: secretKeys(teamsForm),
  grouping: 'hold',
  // Workflow webhooks are throttled per flow; Teams asks for no more than about one a second.
  minGapMs: () => 1000,
  parseConfig: (raw) => parseFields<TeamsConfig>(raw, teamsForm),
  tenantUrls: (config) => [config.url],
  build(alert, config, env) {
    return {
      url: config.url,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        type: 'message',
        attachments: [{ contentType: 'application/vnd.microsoft.card.adaptive', contentUrl: null, content: card(alert, env.productName) }],
      }),
    };
  },
};
