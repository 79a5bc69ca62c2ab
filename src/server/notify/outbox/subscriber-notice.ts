// What a status-page subscriber is told, stored as a delivery's payload: only what the public
// page shows (the incident's public title and update text, the maintenance window's public
// text, the names of public components). Never the checker's raw error, never a private monitor.

export type SubscriberEvent =
  | 'incident.created'
  | 'incident.updated'
  | 'incident.resolved'
  | 'maintenance.scheduled'
  | 'maintenance.started'
  | 'maintenance.ended';

export interface SubscriberNotice {
  event: SubscriberEvent;
  /** The incident's or window's public title */
  title: string;
  /** The public update text, or the window's description */
  message: string;
  /** e.g. 'investigating', 'resolved', 'scheduled' */
  status: string;
  occurredAt: number;
  /** Public components affected; empty: the whole service */
  components: Array<{ id: string; name: string }>;
  incident: { id: string; impact: string } | null;
  maintenance: { id: string; startsAt: number; endsAt: number } | null;
  /**
   * The company's own versions of its texts per language ({ de: '…' }), resolved for each
   * subscriber's language when the mail is written (outbox/subscriber-mail.ts noticeIn). Absent
   * in notices stored before issue 32 and when the company wrote none.
   */
  translations?: NoticeTranslations;
}

export interface NoticeTranslations {
  title?: Record<string, string>;
  message?: Record<string, string>;
  /** By component id: its public name per language */
  components?: Record<string, Record<string, string>>;
}

export const SUBSCRIBER_EVENT_TEXT: Record<SubscriberEvent, string> = {
  'incident.created': 'New incident',
  'incident.updated': 'Incident update',
  'incident.resolved': 'Resolved',
  'maintenance.scheduled': 'Scheduled maintenance',
  'maintenance.started': 'Maintenance in progress',
  'maintenance.ended': 'Maintenance completed',
};

/** Whether a subscriber's component choice (null: all) takes a notice. */
export function subscriberTakes(choice: readonly string[] | null, notice: Pick<SubscriberNotice, 'components'>): boolean {
  if (choice === null || notice.components.length === 0) return true;
  return notice.components.some((c) => choice.includes(c.id));
}
