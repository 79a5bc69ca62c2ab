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
import { Table } from '../../ui/Table.tsx';

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
        <Table
          rows={findings.data.findings}
          rowKey={(f) => f.id}
          columns={[
            {
              label: 'Severity',
              cell: (f) => (
                <div>
                  <span className={`sw-pill ${SEVERITY_TONE[f.severity]}`}>{f.severity}</span>
                  {f.cvss !== null && <div className="sw-muted">CVSS {f.cvss.toFixed(1)}</div>}
                </div>
              ),
            },
            {
              label: 'Finding',
              cell: (f) => (
                <div className="sw-wrap-anywhere">
                  <strong>{f.title}</strong>
                  <details>
                    <summary>Evidence</summary>
                    <pre className="sw-sec-evidence">{f.evidence}</pre>
                  </details>
                </div>
              ),
            },
            { label: 'Asset', className: 'sw-wrap-anywhere', cell: (f) => f.hostname },
            { label: 'Source', cell: (f) => SOURCE_LABEL[f.source] },
            {
              label: 'Seen',
              cell: (f) => (
                <div>
                  <div>First {fmtTime(f.first_seen_at, '—')}</div>
                  <div className="sw-muted">Last {fmtTime(f.last_seen_at, '—')}</div>
                </div>
              ),
            },
            {
              label: 'Status',
              cell: (f) => (
                <div>
                  <span className={`sw-pill ${STATUS_TONE[f.status]}`}>{f.status === 'accepted' ? 'accepted risk' : f.status}</span>
                  {f.status_reason && <div className="sw-muted sw-wrap-anywhere">{f.status_reason}</div>}
                </div>
              ),
            },
            {
              label: 'Actions',
              className: 'sw-actions',
              cell: (f) => (
                <>
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
                </>
              ),
            },
          ]}
        />
      )}
    </section>
  );
}
