// Who the escalation policy reached for this incident (GET /api/v1/incidents/{id}/pages): each
// person, why (named in the step, on call in a schedule, the whole team), how (e-mail, SMS,
// webhook), when, and the acknowledgement. Shown only once somebody was paged.
import { useEffect, useState } from 'react';
import type { components } from '../../../../api/schema.d.ts';
import { api } from '../../api.ts';
import { fmtTime } from '../../ui/format.ts';
import { Table } from '../../ui/Table.tsx';
import { t, type ConsoleKey } from '../../i18n.ts';

type Page = components['schemas']['IncidentPage'];

const HOW: Record<Page['channel'], ConsoleKey> = {
  email: 'incidents.escalation.email',
  sms: 'incidents.escalation.sms',
  webhook: 'incidents.escalation.webhook',
};

function why(p: Page): string {
  if (p.reason === 'schedule') return t('incidents.escalationPages.onCallIn', { value: p.schedule_name ?? 'a schedule' });
  if (p.reason === 'team') return t('incidents.escalationPages.theWholeTeamLastStep');
  return t('incidents.escalationPages.namedInTheStep');
}

export function EscalationPages({ incidentId }: { incidentId: string }) {
  const [pages, setPages] = useState<Page[] | null>(null);
  useEffect(() => {
    let live = true;
    void api.GET('/api/v1/incidents/{id}/pages', { params: { path: { id: incidentId } } }).then((r) => {
      if (live) setPages(r.data ?? []);
    });
    return () => {
      live = false;
    };
  }, [incidentId]);
  if (!pages || pages.length === 0) return null;
  return (
    <section className="sw-card" aria-labelledby="incident-pages">
      <header className="sw-card-head">
        <h3 id="incident-pages">{t('incidents.escalationPages.escalationPages', { length: pages.length })}</h3>
      </header>
      <Table
        aria-labelledby="incident-pages"
        rows={pages}
        rowKey={(p) => p.id}
        columns={[
          { label: t('incidents.escalationPages.person'), rowHeader: true, cell: (p) => p.user_name },
          { label: t('incidents.escalationPages.why'), cell: why },
          { label: t('incidents.escalationPages.how'), cell: (p) => t(HOW[p.channel]) },
          { label: t('incidents.escalationPages.step'), cell: (p) => `${p.step + 1}${p.round > 0 ? ` (repeat ${p.round})` : ''}` },
          { label: t('incidents.escalationPages.sent'), cell: (p) => fmtTime(p.sent_at, '') },
          {
            label: t('incidents.escalationPages.acknowledged'),
            cell: (p) =>
              p.acknowledged_at
                ? `${fmtTime(p.acknowledged_at, '')}${p.acknowledged_by ? ` by ${p.acknowledged_by.name}` : ''}`
                : t('incidents.escalationPages.notYet'),
          },
        ]}
      />
    </section>
  );
}
