// The prompt of an incident summary, built from the incident's evidence panel and its own title
// and monitor name ONLY: nothing else of the company, nothing of another company. Pure. Texts
// are scrubbed of what must never leave the platform even when a finding quotes it (credentials
// in URLs, bearer tokens, secret-looking query parameters and key=value pairs).
import type { EvidenceItem, IncidentEvidence } from '../../../../lib/incident-evidence.ts';
import type { ChatMessage } from '../../../net/chat-completions.ts';

export interface PromptIncident {
  title: string;
  monitorName: string | null;
  startedAt: string;
  resolvedAt: string | null;
}

const SECRET_NAME =
  '(?:pass(?:word|wd)?|pwd|secret|token|api[_-]?key|apikey|access[_-]?key|auth(?:orization)?|signature|sig|session|cookie|credentials?|private[_-]?key)';
const URL_CREDENTIALS = /\b([a-z][a-z0-9+.-]*:\/\/)[^\s/@:]+(?::[^\s/@]*)?@/gi;
const BEARER = /\b(bearer|basic)\s+[a-z0-9._~+/=-]{8,}/gi;
const SECRET_PAIR = new RegExp(`\\b(${SECRET_NAME})(["']?\\s*[=:]\\s*["']?)(?:(?:bearer|basic)\\s+)?[^\\s&"',;]+`, 'gi');

/** A text with credentials, bearer tokens and secret-named values replaced by [redacted]. */
export function scrubText(text: string): string {
  return text.replace(URL_CREDENTIALS, '$1[redacted]@').replace(SECRET_PAIR, '$1$2[redacted]').replace(BEARER, '$1 [redacted]');
}

type DataValue = EvidenceItem['data'][string];

function scrubValue(v: DataValue): DataValue {
  if (typeof v === 'string') return scrubText(v);
  if (Array.isArray(v)) return (v as Array<string | number>).map((x) => (typeof x === 'string' ? scrubText(x) : x)) as DataValue;
  return v;
}

/**
 * The evidence as it is sent and stored: every text scrubbed, a figure whose own name says it is a
 * secret left out, and the console links (paths of ours, of no use to the model) left out.
 */
export function evidenceForPrompt(e: IncidentEvidence): IncidentEvidence {
  const secretKey = new RegExp(`^${SECRET_NAME}$`, 'i');
  return {
    incident_id: e.incident_id,
    monitor_id: e.monitor_id,
    built_at: e.built_at,
    updated_at: e.updated_at,
    line: scrubText(e.line),
    items: e.items.map((i) => ({
      kind: i.kind,
      summary: scrubText(i.summary),
      at: i.at,
      source: { label: scrubText(i.source.label), href: '' },
      data: Object.fromEntries(
        Object.entries(i.data)
          .filter(([k]) => !secretKey.test(k))
          .map(([k, v]) => [k, scrubValue(v)]),
      ),
    })),
  };
}

const SYSTEM = [
  'You help the on-call engineer of a monitored service understand an incident.',
  'Use ONLY the facts in the evidence below; do not guess causes the evidence does not support, and say so when it is thin.',
  'Answer in plain text, in English, in two parts:',
  'Summary: two or three sentences on what is failing and what changed.',
  'Next steps: at most five short bullet points ("- "), the most useful first.',
].join('\n');

/** The chat messages for one summary. */
export function summaryMessages(incident: PromptIncident, evidence: IncidentEvidence): ChatMessage[] {
  const lines = [
    `Incident: ${scrubText(incident.title)}`,
    `Monitor: ${incident.monitorName ? scrubText(incident.monitorName) : '(none)'}`,
    `Started: ${incident.startedAt}`,
    `Resolved: ${incident.resolvedAt ?? 'not yet'}`,
    `Evidence panel (built ${evidence.built_at}, updated ${evidence.updated_at}): ${evidence.line || '(no one-line summary)'}`,
    evidence.items.length ? 'Findings, most telling first:' : 'Findings: none stood out.',
    ...evidence.items.map(
      (i, n) => `${n + 1}. [${i.kind}] ${i.summary} (at ${i.at}; source: ${i.source.label}) data: ${JSON.stringify(i.data)}`,
    ),
  ];
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: lines.join('\n') },
  ];
}

/**
 * Tokens a call may use at most, counted before it is made: the prompt at ~4 characters a token
 * (rounded up, plus a margin for the chat format) and the whole answer allowance.
 */
export function estimateTokens(messages: ChatMessage[], maxTokens: number): number {
  const chars = messages.reduce((n, m) => n + m.content.length, 0);
  return Math.ceil(chars / 4) + 8 * messages.length + maxTokens;
}

/** The calendar month (UTC) a budget counts in, YYYY-MM. */
export function usageMonth(nowMs: number): string {
  return new Date(nowMs).toISOString().slice(0, 7);
}
