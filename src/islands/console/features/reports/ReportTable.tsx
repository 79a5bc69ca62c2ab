// The report's table: a row per monitor and the company total, with the SLA target met or
// missed, a bar of the error budget used and the same in words (colour is never the only sign).
import { Table, type Column } from '../../ui/Table.tsx';
import { t } from '../../i18n.ts';
import { minutesText, num, pct, type SlaFigures, type SlaReport } from './store.ts';

function Budget({ f }: { f: SlaFigures }) {
  // The company total has no target of its own: it tells whether every monitor's was met.
  if (f.sla_target === null && f.sla_met !== null)
    return (
      <span className={`sw-pill ${f.sla_met ? 'sw-green' : 'sw-red'}`}>
        {f.sla_met ? t('reports.table.everyTargetMet') : t('reports.table.someTargetsMissed')}
      </span>
    );
  if (f.sla_target === null || f.sla_met === null || f.budget_used_percent === null)
    return (
      <span className="sw-muted">
        {f.sla_target === null ? t('reports.table.noTarget') : t('reports.table.targetNoChecks', { target: num(f.sla_target) })}
      </span>
    );
  const used = Math.min(100, f.budget_used_percent);
  return (
    <div className="sw-budget">
      <span className={`sw-pill ${f.sla_met ? 'sw-green' : 'sw-red'}`}>
        {f.sla_met ? t('reports.table.met', { target: num(f.sla_target) }) : t('reports.table.missed', { target: num(f.sla_target) })}
      </span>
      <div
        className="sw-budget-bar"
        role="img"
        aria-label={t('reports.table.budgetBar', { used: num(f.budget_used_percent) })}
        data-tone={f.budget_used_percent >= 100 ? 'over' : f.budget_used_percent >= 75 ? 'near' : 'ok'}
      >
        <span style={{ width: `${used}%` }} />
      </div>
      <small>
        {t('reports.table.budget', {
          budget: minutesText(f.budget_minutes),
          used: minutesText(f.budget_used_minutes),
          percent: num(f.budget_used_percent),
          left: minutesText(f.budget_left_minutes),
        })}
      </small>
    </div>
  );
}

/** The figure columns, the same for a monitor's row and the company total. */
// A function, so the headers are read in the console's language when the table draws.
const figures = (): Column<SlaFigures>[] => [
  { label: t('reports.table.uptime'), cell: (f) => <strong>{pct(f.uptime_percent)}</strong> },
  { label: t('reports.table.downtime'), cell: (f) => minutesText(f.downtime_minutes) },
  { label: t('reports.table.maintenance'), cell: (f) => minutesText(f.maintenance_minutes) },
  { label: t('reports.table.incidents'), cell: (f) => f.incident_count },
  { label: t('reports.table.mttr'), cell: (f) => minutesText(f.mttr_minutes) },
  { label: t('reports.table.mtbf'), cell: (f) => minutesText(f.mtbf_minutes) },
  {
    label: t('reports.table.percentiles'),
    cell: (f) =>
      f.p50_ms === null ? '—' : t('reports.table.percentilesValue', { p50: num(f.p50_ms), p95: f.p95_ms === null ? '—' : num(f.p95_ms) }),
  },
  { label: t('reports.table.sla'), cell: (f) => <Budget f={f} /> },
];

export function ReportTable({ report }: { report: SlaReport }) {
  const FIGURES = figures();
  return (
    <section className="sw-card" aria-labelledby="report-table-title" data-testid="sla-report">
      <header className="sw-card-head">
        <h2 id="report-table-title">{t('reports.table.heading', { company: report.company.name, from: report.from, to: report.to })}</h2>
      </header>
      {report.monitors.length === 0 ? (
        <p>{t('reports.table.noMonitors')}</p>
      ) : (
        <Table
          compact
          className="sw-report-table"
          aria-labelledby="report-table-title"
          rows={report.monitors}
          rowKey={(m) => m.monitor_id}
          columns={[
            {
              label: t('reports.table.monitor'),
              className: 'sw-wrap-anywhere',
              cell: (m) => (
                <>
                  <a href={`/monitors/${m.monitor_id}`}>{m.name}</a>
                  {m.incidents.length > 0 && (
                    <details>
                      <summary>{t('reports.table.incidentCount', { count: m.incidents.length })}</summary>
                      <ul className="sw-report-incidents">
                        {m.incidents.map((i) => (
                          <li key={i.id}>
                            {t('reports.table.incidentLine', {
                              start: new Date(i.started_at).toISOString().slice(0, 16).replace('T', ' '),
                              duration: minutesText(i.duration_minutes),
                              ongoing: i.resolved_at === null ? 'yes' : 'no',
                              title: i.title,
                            })}
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
              <td data-label={t('reports.table.monitor')}>
                <strong>{t('reports.table.companyTotal')}</strong>
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
