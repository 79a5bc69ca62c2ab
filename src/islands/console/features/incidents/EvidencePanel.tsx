// What changed around an automatic incident (GET /api/v1/incidents/{id}/evidence, issue 33):
// the evidence the platform found in its own data, each item with a link to its source, or
// "Nothing stood out". Reloaded when the incident changes (the panel is rebuilt each minute).
import { useEffect, useState } from 'react';
import type { components } from '../../../../api/schema.d.ts';
import { api } from '../../api.ts';
import { onLive } from '../../stores/live.ts';
import { fmtTime } from '../../ui/format.ts';
import { t, type ConsoleKey } from '../../i18n.ts';

type Evidence = components['schemas']['IncidentEvidence'];
type Kind = Evidence['items'][number]['kind'];

const KIND_LABEL: Record<Kind, ConsoleKey> = {
  phase: 'evidence.kind.phase',
  locations: 'evidence.kind.locations',
  dns_change: 'evidence.kind.dnsChange',
  certificate_change: 'evidence.kind.certificateChange',
  service_errors: 'evidence.kind.serviceErrors',
  deploy: 'evidence.kind.deploy',
  maintenance_ended: 'evidence.kind.maintenanceEnded',
};

export function EvidencePanel({ incidentId }: { incidentId: string }) {
  const [evidence, setEvidence] = useState<Evidence | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    const load = () =>
      void api.GET('/api/v1/incidents/{id}/evidence', { params: { path: { id: incidentId } } }).then((r) => {
        if (!live) return;
        if (r.data) setEvidence(r.data);
        setFailed(!r.data);
      });
    load();
    const off = onLive((m) => {
      if (m.type === 'incident' || m.type === 'resync') load();
    });
    return () => {
      live = false;
      off();
    };
  }, [incidentId]);
  return (
    <section className="sw-card" aria-labelledby="incident-evidence">
      <header className="sw-card-head">
        <h3 id="incident-evidence">{t('evidence.panel.title')}</h3>
      </header>
      <p className="sw-muted">{t('evidence.panel.intro')}</p>
      {failed && <p role="alert">{t('evidence.panel.couldNotLoad')}</p>}
      {evidence && evidence.items.length === 0 && <p>{t('evidence.panel.nothingStoodOut')}</p>}
      {evidence && evidence.items.length > 0 && (
        <ul className="sw-list">
          {evidence.items.map((item, n) => (
            <li key={`${item.kind}-${n}`} className="sw-list-row">
              <div>
                <strong>{t(KIND_LABEL[item.kind])}</strong> <span className="sw-muted">{fmtTime(item.at, '')}</span>
                <p className="sw-wrap-anywhere">{item.summary}</p>
                <a href={item.source.href}>{item.source.label}</a>
              </div>
            </li>
          ))}
        </ul>
      )}
      {evidence && <p className="sw-muted">{t('evidence.panel.updated', { time: fmtTime(evidence.updated_at, '') })}</p>}
    </section>
  );
}
