// The report's table: a row per monitor and the company total, with the SLA target met or
// missed, a bar of the error budget used and the same in words (colour is never the only sign).
import { minutesText, pct, type SlaFigures, type SlaReport } from './store.ts';

const COLUMNS = ['Monitor', 'Uptime', 'Downtime', 'Maintenance', 'Incidents', 'MTTR', 'MTBF', 'p50 / p95', 'SLA'];

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

function Cells({ f }: { f: SlaFigures }) {
  return (
    <>
      <td data-label="Uptime">
        <strong>{pct(f.uptime_percent)}</strong>
      </td>
      <td data-label="Downtime">{minutesText(f.downtime_minutes)}</td>
      <td data-label="Maintenance">{minutesText(f.maintenance_minutes)}</td>
      <td data-label="Incidents">{f.incident_count}</td>
      <td data-label="MTTR">{minutesText(f.mttr_minutes)}</td>
      <td data-label="MTBF">{minutesText(f.mtbf_minutes)}</td>
      <td data-label="p50 / p95">{f.p50_ms === null ? '—' : `${f.p50_ms} / ${f.p95_ms} ms`}</td>
      <td data-label="SLA">
        <Budget f={f} />
      </td>
    </>
  );
}

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
        <div className="sw-table-wrap">
          <table className="sw-table sw-table-stack sw-table-compact sw-report-table" aria-labelledby="report-table-title">
            <thead>
              <tr>
                {COLUMNS.map((c) => (
                  <th key={c} scope="col">
                    {c}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {report.monitors.map((m) => (
                <tr key={m.monitor_id}>
                  <td data-label="Monitor" className="sw-wrap-anywhere">
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
                  </td>
                  <Cells f={m} />
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr className="sw-report-total">
                <td data-label="Monitor">
                  <strong>Company total</strong>
                </td>
                <Cells f={report.total} />
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </section>
  );
}
