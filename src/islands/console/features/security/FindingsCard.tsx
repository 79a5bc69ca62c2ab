// The findings of every analysis in one table, most severe first, with filters; admins accept a
// risk (with a reason) or reopen it. Loading the list is what the audit log records as
// `vulnerability_view` (the server writes it).
import { useStore } from '@nanostores/react';
import type { Role } from '../../../../lib/permissions.ts';
import { can } from '../../../../lib/permissions.ts';
import { FINDING_SOURCE_RESOURCE } from '../../../../lib/security-assets.ts';
import { Skeleton } from '../../ui/Card.tsx';
import { fmtTime } from '../../ui/format.ts';
import { Options } from '../../ui/ModalForm.tsx';
import { $findings, type Finding, type FindingFilters } from './store.ts';

export const SOURCE_LABEL = { ssl: 'SSL/TLS', dns: 'Domain and DNS', scan: 'Vulnerability scan', threat: 'Threat intelligence' } as const;
const SEVERITY_TONE = { critical: 'sw-red', high: 'sw-red', medium: 'sw-amber', low: 'sw-grey', info: 'sw-grey' } as const;
const STATUS_TONE = { open: 'sw-red', accepted: 'sw-amber', fixed: 'sw-green' } as const;

export function FindingsCard(props: {
  role: Role | null;
  filters: FindingFilters;
  onFilters: (f: FindingFilters) => void;
  onAccept: (f: Finding) => void;
  onReopen: (f: Finding) => void;
  onRetry: () => void;
}) {
  const findings = useStore($findings);
  const { filters } = props;
  const mayChange = (f: Finding) => can(props.role, 'update', FINDING_SOURCE_RESOURCE[f.source]);
  const count = findings.status === 'ready' ? findings.data.total : 0;
  return (
    <section className="sw-card" aria-labelledby="security-findings">
      <header className="sw-card-head">
        <h3 id="security-findings">Findings ({count})</h3>
      </header>
      <fieldset className="sw-filters sw-sec-filters">
        <legend className="sw-visually-hidden">Filter findings</legend>
        <label>
          Severity
          <select
            value={filters.severity}
            onChange={(e) => props.onFilters({ ...filters, severity: e.target.value as FindingFilters['severity'] })}
          >
            <Options
              items={[
                ['', 'Any severity'],
                ['critical', 'Critical'],
                ['high', 'High'],
                ['medium', 'Medium'],
                ['low', 'Low'],
                ['info', 'Info'],
              ]}
            />
          </select>
        </label>
        <label>
          Status
          <select
            value={filters.status}
            onChange={(e) => props.onFilters({ ...filters, status: e.target.value as FindingFilters['status'] })}
          >
            <Options
              items={[
                ['', 'Any status'],
                ['open', 'Open'],
                ['accepted', 'Accepted risk'],
                ['fixed', 'Fixed'],
              ]}
            />
          </select>
        </label>
        <label>
          Source
          <select
            value={filters.source}
            onChange={(e) => props.onFilters({ ...filters, source: e.target.value as FindingFilters['source'] })}
          >
            <Options items={[['', 'Every analysis'], ...Object.entries(SOURCE_LABEL)]} />
          </select>
        </label>
      </fieldset>
      {findings.status === 'loading' && <Skeleton rows={3} />}
      {findings.status === 'error' && (
        <div className="sw-banner sw-banner-error" role="alert">
          {findings.message}
          <button type="button" className="sw-btn sw-btn-small" onClick={props.onRetry}>
            Retry
          </button>
        </div>
      )}
      {findings.status === 'ready' && findings.data.findings.length === 0 && (
        <p className="sw-empty">No findings{filters.severity || filters.status || filters.source ? ' match these filters' : ' yet'}.</p>
      )}
      {findings.status === 'ready' && findings.data.findings.length > 0 && (
        <div className="sw-table-wrap">
          <table className="sw-table sw-table-stack">
            <thead>
              <tr>
                <th scope="col">Severity</th>
                <th scope="col">Finding</th>
                <th scope="col">Asset</th>
                <th scope="col">Source</th>
                <th scope="col">Seen</th>
                <th scope="col">Status</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {findings.data.findings.map((f) => (
                <tr key={f.id}>
                  <td data-label="Severity">
                    <div>
                      <span className={`sw-pill ${SEVERITY_TONE[f.severity]}`}>{f.severity}</span>
                      {f.cvss !== null && <div className="sw-muted">CVSS {f.cvss.toFixed(1)}</div>}
                    </div>
                  </td>
                  <td data-label="Finding">
                    <div className="sw-wrap-anywhere">
                      <strong>{f.title}</strong>
                      <details>
                        <summary>Evidence</summary>
                        <pre className="sw-sec-evidence">{f.evidence}</pre>
                      </details>
                    </div>
                  </td>
                  <td data-label="Asset" className="sw-wrap-anywhere">
                    {f.hostname}
                  </td>
                  <td data-label="Source">{SOURCE_LABEL[f.source]}</td>
                  <td data-label="Seen">
                    <div>
                      <div>First {fmtTime(f.first_seen_at, '—')}</div>
                      <div className="sw-muted">Last {fmtTime(f.last_seen_at, '—')}</div>
                    </div>
                  </td>
                  <td data-label="Status">
                    <div>
                      <span className={`sw-pill ${STATUS_TONE[f.status]}`}>{f.status === 'accepted' ? 'accepted risk' : f.status}</span>
                      {f.status_reason && <div className="sw-muted sw-wrap-anywhere">{f.status_reason}</div>}
                    </div>
                  </td>
                  <td data-label="Actions" className="sw-actions">
                    {mayChange(f) && f.status === 'open' && (
                      <button
                        type="button"
                        className="sw-btn sw-btn-small sw-sec-nowrap"
                        aria-label={`Accept risk: ${f.title} on ${f.hostname}`}
                        onClick={() => props.onAccept(f)}
                      >
                        Accept risk
                      </button>
                    )}
                    {mayChange(f) && f.status === 'accepted' && (
                      <button
                        type="button"
                        className="sw-btn sw-btn-small sw-sec-nowrap"
                        aria-label={`Reopen: ${f.title} on ${f.hostname}`}
                        onClick={() => props.onReopen(f)}
                      >
                        Reopen
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
