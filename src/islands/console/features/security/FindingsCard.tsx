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
import { t } from '../../i18n.ts';

const SOURCES = ['ssl', 'dns', 'scan', 'threat'] as const;
/** The name of a finding's analysis, in the reader's language (read at render). */
export const sourceLabel = (s: Finding['source']): string => t(`security.source.${s}`);
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
        <h3 id="security-findings">{t('security.findings.title', { count })}</h3>
      </header>
      <fieldset className="sw-filters sw-sec-filters">
        <legend className="sw-visually-hidden">{t('security.findings.filter')}</legend>
        <label>
          {t('security.findings.severity')}
          <select
            value={filters.severity}
            onChange={(e) => props.onFilters({ ...filters, severity: e.target.value as FindingFilters['severity'] })}
          >
            <Options
              items={[
                ['', t('security.findings.anySeverity')],
                ['critical', t('security.findings.filterSeverity.critical')],
                ['high', t('security.findings.filterSeverity.high')],
                ['medium', t('security.findings.filterSeverity.medium')],
                ['low', t('security.findings.filterSeverity.low')],
                ['info', t('security.findings.filterSeverity.info')],
              ]}
            />
          </select>
        </label>
        <label>
          {t('security.findings.status')}
          <select
            value={filters.status}
            onChange={(e) => props.onFilters({ ...filters, status: e.target.value as FindingFilters['status'] })}
          >
            <Options
              items={[
                ['', t('security.findings.anyStatus')],
                ['open', t('security.findings.filterStatus.open')],
                ['accepted', t('security.findings.filterStatus.accepted')],
                ['fixed', t('security.findings.filterStatus.fixed')],
              ]}
            />
          </select>
        </label>
        <label>
          {t('security.findings.source')}
          <select
            value={filters.source}
            onChange={(e) => props.onFilters({ ...filters, source: e.target.value as FindingFilters['source'] })}
          >
            <Options items={[['', t('security.findings.everyAnalysis')], ...SOURCES.map((s) => [s, sourceLabel(s)] as [string, string])]} />
          </select>
        </label>
      </fieldset>
      {findings.status === 'loading' && <Skeleton rows={3} />}
      {findings.status === 'error' && (
        <div className="sw-banner sw-banner-error" role="alert">
          {findings.message}
          <button type="button" className="sw-btn sw-btn-small" onClick={props.onRetry}>
            {t('security.findings.retry')}
          </button>
        </div>
      )}
      {findings.status === 'ready' && findings.data.findings.length === 0 && (
        <p className="sw-empty">
          {filters.severity || filters.status || filters.source ? t('security.findings.emptyFiltered') : t('security.findings.empty')}
        </p>
      )}
      {findings.status === 'ready' && findings.data.findings.length > 0 && (
        <Table
          rows={findings.data.findings}
          rowKey={(f) => f.id}
          columns={[
            {
              label: t('security.findings.col.severity'),
              cell: (f) => (
                <div>
                  <span className={`sw-pill ${SEVERITY_TONE[f.severity]}`}>{t(`security.severity.${f.severity}`)}</span>
                  {f.cvss !== null && <div className="sw-muted">{t('security.findings.cvss', { score: f.cvss.toFixed(1) })}</div>}
                </div>
              ),
            },
            {
              label: t('security.findings.col.finding'),
              cell: (f) => (
                <div className="sw-wrap-anywhere">
                  <strong>{f.title}</strong>
                  <details>
                    <summary>{t('security.findings.evidence')}</summary>
                    <pre className="sw-sec-evidence">{f.evidence}</pre>
                  </details>
                </div>
              ),
            },
            { label: t('security.findings.col.asset'), className: 'sw-wrap-anywhere', cell: (f) => f.hostname },
            { label: t('security.findings.col.source'), cell: (f) => sourceLabel(f.source) },
            {
              label: t('security.findings.col.seen'),
              cell: (f) => (
                <div>
                  <div>{t('security.findings.firstSeen', { time: fmtTime(f.first_seen_at, '—') })}</div>
                  <div className="sw-muted">{t('security.findings.lastSeen', { time: fmtTime(f.last_seen_at, '—') })}</div>
                </div>
              ),
            },
            {
              label: t('security.findings.col.status'),
              cell: (f) => (
                <div>
                  <span className={`sw-pill ${STATUS_TONE[f.status]}`}>{t(`security.status.${f.status}`)}</span>
                  {f.status_reason && <div className="sw-muted sw-wrap-anywhere">{f.status_reason}</div>}
                </div>
              ),
            },
            {
              label: t('security.findings.col.actions'),
              className: 'sw-actions',
              cell: (f) => (
                <>
                  {mayChange(f) && f.status === 'open' && (
                    <button
                      type="button"
                      className="sw-btn sw-btn-small sw-sec-nowrap"
                      aria-label={t('security.findings.acceptAria', { title: f.title, host: f.hostname })}
                      onClick={() => props.onAccept(f)}
                    >
                      {t('security.findings.accept')}
                    </button>
                  )}
                  {mayChange(f) && f.status === 'accepted' && (
                    <button
                      type="button"
                      className="sw-btn sw-btn-small sw-sec-nowrap"
                      aria-label={t('security.findings.reopenAria', { title: f.title, host: f.hostname })}
                      onClick={() => props.onReopen(f)}
                    >
                      {t('security.findings.reopen')}
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
