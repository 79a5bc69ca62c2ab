// What the anomaly gatherers (latency.ts, divergence.ts) hand to the episode keeper (watch.ts):
// one subject that is anomalous now, with the words and figures of its notification.
import type { AnomalyEvidence } from '../../../lib/anomaly-evidence.ts';
import type { AnomalyKind } from '../../db/schema/anomalies.ts';
import type { NotificationDraft } from '../../notify/draft.ts';

export interface Finding {
  kind: AnomalyKind;
  /** Stable across runs: monitor:<id>, monitor:<id>@<location>, endpoint:<service> <method> <route> */
  subject: string;
  monitorId: string | null;
  /** What it is about as people read it ("Shop from Frankfurt"): stored as the episode's title */
  what: string;
  /** The notification's title ("Shop from Frankfurt is slower than usual") */
  title: string;
  /** When the anomaly began (ms) */
  startedAt: number;
  severity: NotificationDraft['severity'];
  evidence: AnomalyEvidence[];
  /** Console path of what it is about */
  href: string;
}

/** The title of the notification that an episode is over. */
export function endedTitle(kind: AnomalyKind, what: string): string {
  return kind === 'latency' ? `${what} is back to its usual latency` : `${what}: probes and real traffic agree again`;
}
