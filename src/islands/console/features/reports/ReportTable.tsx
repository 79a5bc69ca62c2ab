// The report's table: a row per monitor and the company total, with the SLA target met or
// missed, a bar of the error budget used and the same in words (colour is never the only sign).
import { Table, type Column } from '../../ui/Table.tsx';
import { minutesText, pct, type SlaFigures, type SlaReport } from './store.ts';

function Budget({ f }: { f: SlaFigures }) {
  // The company total has no target of its own: it tells whether every monitor's was met.
  if (f.sla_target === null && f.sla_met !== null)
    return <span className={`sw-pill ${f.sla_met ? 'sw-green' : 'sw-red'}`}>{f.sla_met ? 'Every target met' : 'Some targets missed'}</span>;
  if (f.sla_target === null || f.sla_met === null || f.budget_used_percent === null)
    return <span className="sw-muted">{f.sla_target === null ? 'No target' : `Target ${f.sla_target} %, no checks`}</span>;
  const used = Math.min(100, f.budget_used_percent);
  return (
    <div className="sw-budget">
      <span className={`sw-pill ${f.sla_met ? 'sw-green' : 'sw-red'}`}>
        {f.sla_met ? 'Met' : 'Missed'} · target {f.sla_target} %
      </span>
      <div
        className="sw-budget-bar"
        role="img"
        aria-label={`Error budget ${f.budget_used_percent} % used`}
        data-tone={f.budget_used_percent >= 100 ? 'over' : f.budget_used_percent >= 75 ? 'near' : 'ok'}
      >
        <span style={{ width: `${used}%` }} />
      </div>
      <small>
        Budget {minutesText(f.budget_minutes)}: {minutesText(f.budget_used_minutes)} used ({f.budget_used_percent} %),{' '}
        {minutesText(f.budget_left_minutes)} left
      </small>
    </div>
  );
}

/** The figure columns, the same for a monitor's row and the company total. */
const FIGURES: Column<SlaFigures>[] = [
  { label: 'Uptime', cell: (f) => <strong>{pct(f.uptime_percent)}</strong> },
  { label: 'Downtime', cell: (f) => minutesText(f.downtime_minutes) },
  { label: 'Maintenance', cell: (f) => minutesText(f.maintenance_minutes) },
  { label: 'Incidents', cell: (f) => f.incident_count },
  { label: 'MTTR', cell: (f) => minutesText(f.mttr_minutes) },
  { label: 'MTBF', cell: (f) => minutesText(f.mtbf_minutes) },
  { label: 'p50 / p95', cell: (f) => (f.p50_ms === null ? '—' : `${f.p50_ms} / ${f.p95_ms} ms`) },
  { label: 'SLA', cell: (f) => <Budget f={f} /> },
];

export function ReportTable({ report }: { report: SlaReport }) {
  return (
    <section className="sw-card" aria-labelledby="report-table-title" data-testid="sla-report">
      <header className="sw-card-head">
        <h2 id="report-table-title">
          {report.company.name}: {report.from} to {report.to}
        </h2>
      </header>
      {report.monitors.length === 0 ? (
        <p>No monitors in this report.</p>
      ) : (
        <Table
          compact
          className="sw-report-table"
          aria-labelledby="report-table-title"
          rows={report.monitors}
          rowKey={(m) => m.monitor_id}
          columns={[
            {
              label: 'Monitor',
              className: 'sw-wrap-anywhere',
              cell: (m) => (
                <>
                  <a href={`/monitors/${m.monitor_id}`}>{m.name}</a>
                  {m.incidents.length > 0 && (
                    <details>
                      <summary>{m.incidents.length === 1 ? '1 incident' : `${m.incidents.length} incidents`}</summary>
                      <ul className="sw-report-incidents">
                        {m.incidents.map((i) => (
                          <li key={i.id}>
                            {new Date(i.started_at).toISOString().slice(0, 16).replace('T', ' ')} UTC · {minutesText(i.duration_minutes)}
                            {i.resolved_at === null ? ' (ongoing)' : ''} · {i.title}
                          </li>
                        ))}
                      </ul>
                    </details>
                  )}
                </>
              ),
            },
            ...FIGURES,
          ]}
          foot={
            <tr className="sw-report-total">
              <td data-label="Monitor">
                <strong>Company total</strong>
              </td>
              {FIGURES.map((c) => (
                <td key={c.label} data-label={c.label}>
                  {c.cell(report.total, 0)}
                </td>
              ))}
            </tr>
          }
        />
      )}
    </section>
  );
}
