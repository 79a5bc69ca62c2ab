// Who the escalation policy reached for this incident (GET /api/v1/incidents/{id}/pages): each
// person, why (named in the step, on call in a schedule, the whole team), how (e-mail, SMS,
// webhook), when, and the acknowledgement. Shown only once somebody was paged.
import { useEffect, useState } from 'react';
import type { components } from '../../../../api/schema.d.ts';
import { api } from '../../api.ts';
import { fmtTime } from '../../ui/format.ts';
import { Table } from '../../ui/Table.tsx';

type Page = components['schemas']['IncidentPage'];

const HOW: Record<Page['channel'], string> = { email: 'E-mail', sms: 'SMS', webhook: 'Webhook' };

function why(p: Page): string {
  if (p.reason === 'schedule') return `On call in ${p.schedule_name ?? 'a schedule'}`;
  if (p.reason === 'team') return 'The whole team (last step)';
  return 'Named in the step';
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
        <h3 id="incident-pages">Escalation pages ({pages.length})</h3>
      </header>
      <Table
        aria-labelledby="incident-pages"
        rows={pages}
        rowKey={(p) => p.id}
        columns={[
          { label: 'Person', rowHeader: true, cell: (p) => p.user_name },
          { label: 'Why', cell: why },
          { label: 'How', cell: (p) => HOW[p.channel] },
          { label: 'Step', cell: (p) => `${p.step + 1}${p.round > 0 ? ` (repeat ${p.round})` : ''}` },
          { label: 'Sent', cell: (p) => fmtTime(p.sent_at, '') },
          {
            label: 'Acknowledged',
            cell: (p) =>
              p.acknowledged_at
                ? `${fmtTime(p.acknowledged_at, '')}${p.acknowledged_by ? ` by ${p.acknowledged_by.name}` : ''}`
                : 'Not yet',
          },
        ]}
      />
    </section>
  );
}
