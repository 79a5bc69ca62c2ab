// /threat-intelligence: each verified asset's reputation on the operator's DNS blocklists and
// feeds, the listed hosts the company's services called (from its traces), lookalike domains
// found registered, and the breach lookup of the company's e-mail domain. Only for companies with
// threat intelligence; a super admin sees every such company or the one chosen in the header.
import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { $role } from '../../stores/auth.ts';
import { $selectedTenant } from '../../stores/tenant.ts';
import { Card, ErrorPanel, NoData, Skeleton } from '../../ui/Card.tsx';
import { humanize } from '../../../../lib/labels.ts';
import { fmtDate, fmtNumber, fmtTime } from '../../ui/format.ts';
import type { ScreenProps } from '../../ui/screen-props.ts';
import { $threats, loadThreats, type AssetThreat, type ThreatOverview } from './store.ts';
import { Table } from '../../ui/Table.tsx';
import { t, tr } from '../../i18n.ts';
import './threat-intelligence.css';

const when = (ms: number | null | undefined) => fmtTime(ms, t('threatIntelligence.never'));
const day = (ms: number | null | undefined) => (ms == null ? '—' : fmtDate(new Date(ms).toISOString()));

const REPUTATION: Record<AssetThreat['reputation'], { label: () => string; className: string }> = {
  listed: { label: () => t('threatIntelligence.reputation.listed'), className: 'sw-badge sw-badge-open' },
  clean: { label: () => t('threatIntelligence.reputation.clean'), className: 'sw-badge sw-badge-resolved' },
  unknown: { label: () => t('threatIntelligence.reputation.unknown'), className: 'sw-badge' },
};

function Assets({ data }: { data: ThreatOverview }) {
  if (data.assets.length === 0) return <NoData text={t('threatIntelligence.assets.empty')} />;
  return (
    <Table
      testId="threat-assets"
      rows={data.assets}
      rowKey={(a) => a.id}
      rowProps={(a) => ({ 'data-testid': `threat-asset-${a.hostname}` })}
      columns={[
        {
          label: t('threatIntelligence.assets.asset'),
          cell: (a) => (
            <span>
              <strong>{a.hostname}</strong> <span className="sw-ti-muted">{a.kind}</span>
            </span>
          ),
        },
        {
          label: t('threatIntelligence.assets.reputation'),
          cell: (a) => <span className={REPUTATION[a.reputation].className}>{REPUTATION[a.reputation].label()}</span>,
        },
        { label: t('threatIntelligence.assets.addresses'), cell: (a) => (a.addresses.length ? a.addresses.join(', ') : '—') },
        {
          label: t('threatIntelligence.assets.listings'),
          cell: (a) =>
            a.listings.length ? (
              <ul className="sw-ti-list">
                {a.listings.map((l) => (
                  <li key={l}>{l}</li>
                ))}
              </ul>
            ) : (
              t('threatIntelligence.assets.none')
            ),
        },
        { label: t('threatIntelligence.assets.checked'), cell: (a) => when(a.checked_at) },
      ]}
    />
  );
}

function TraceMatches({ data }: { data: ThreatOverview }) {
  if (data.trace_matches.length === 0) return <NoData text={t('threatIntelligence.traces.empty')} />;
  return (
    <ul className="sw-ti-alerts" data-testid="threat-trace-matches">
      {data.trace_matches.map((m) => (
        <li key={`${m.company_id}/${m.service}/${m.host}/${m.feed}/${m.indicator}`}>
          {tr(m.indicator !== m.host ? 'threatIntelligence.traces.matchIndicator' : 'threatIntelligence.traces.match', {
            service: m.service,
            host: m.host,
            feed: m.feed,
            threat: m.threat,
            indicator: m.indicator,
            last: when(m.last_seen_at),
            b: (chunks) => <strong>{chunks}</strong>,
          })}
        </li>
      ))}
    </ul>
  );
}

function Lookalikes({ data }: { data: ThreatOverview }) {
  const l = data.lookalikes;
  return (
    <>
      <p className="sw-ti-muted">
        {t('threatIntelligence.lookalikes.checked', { checked: fmtNumber(l.checked), candidates: fmtNumber(l.candidates) })}
      </p>
      {l.registered.length === 0 ? (
        <NoData text={t('threatIntelligence.lookalikes.empty')} />
      ) : (
        <Table
          testId="threat-lookalikes"
          rows={l.registered}
          rowKey={(r) => `${r.company_id}/${r.candidate}`}
          columns={[
            { label: t('threatIntelligence.lookalikes.name'), cell: (r) => r.candidate },
            { label: t('threatIntelligence.lookalikes.imitates'), cell: (r) => r.domain },
            { label: t('threatIntelligence.lookalikes.technique'), cell: (r) => humanize(r.technique) },
            {
              label: t('threatIntelligence.lookalikes.since'),
              cell: (r) =>
                r.first_registered_at == null ? t('threatIntelligence.lookalikes.beforeMonitoring') : day(r.first_registered_at),
            },
          ]}
        />
      )}
    </>
  );
}

function BreachStatus({ data }: { data: ThreatOverview }) {
  const b = data.breach;
  if (!b) return <p className="sw-ti-muted">{t('threatIntelligence.breach.chooseCompany')}</p>;
  if (b.status === 'not_configured') return <p data-testid="threat-breach">{t('threatIntelligence.breach.notConfigured')}</p>;
  if (b.status === 'disabled') return <p data-testid="threat-breach">{t('threatIntelligence.breach.disabled')}</p>;
  if (b.status === 'pending') return <p data-testid="threat-breach">{t('threatIntelligence.breach.pending', { domain: b.domain })}</p>;
  if (b.status === 'error')
    return <p data-testid="threat-breach">{t('threatIntelligence.breach.error', { domain: b.domain, error: b.error ?? '' })}</p>;
  return (
    <div data-testid="threat-breach">
      <p>
        {tr('threatIntelligence.breach.summary', {
          count: b.breaches.length,
          domain: b.domain,
          checked: when(b.checked_at),
          b: (chunks) => <strong>{chunks}</strong>,
        })}
      </p>
      {b.breaches.length > 0 && (
        <ul className="sw-ti-list">
          {b.breaches.map((x) => (
            <li key={`${x.name}/${x.date}`}>
              {x.name}, {x.date}
              {x.accounts != null ? t('threatIntelligence.breach.accounts', { count: x.accounts, accounts: fmtNumber(x.accounts) }) : ''}
              {x.data_classes.length ? ` (${x.data_classes.join(', ')})` : ''}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Sources({ data }: { data: ThreatOverview }) {
  return (
    <div className="sw-ti-sources">
      <p>
        <strong>{t('threatIntelligence.sources.blocklists')}</strong>{' '}
        {data.blocklists.length
          ? data.blocklists.map((b) => `${b.zone} (${b.type})`).join(', ')
          : t('threatIntelligence.sources.noneConfigured')}
      </p>
      {data.feeds.length === 0 ? (
        <p>
          <strong>{t('threatIntelligence.sources.feedsLabel')}</strong> {t('threatIntelligence.sources.noneConfigured')}
        </p>
      ) : (
        <ul className="sw-ti-list" aria-label={t('threatIntelligence.sources.feeds')}>
          {data.feeds.map((f) => (
            <li key={f.name}>
              <strong>{f.name}</strong>:{' '}
              {t('threatIntelligence.sources.feed', {
                count: f.indicators,
                indicators: fmtNumber(f.indicators),
                imported: when(f.imported_at),
              })}
              {f.error ? t('threatIntelligence.sources.feedFailed', { error: f.error }) : ''}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

export function ThreatIntelligencePage(_props: ScreenProps) {
  const role = useStore($role);
  const tenant = useStore($selectedTenant);
  const threats = useStore($threats);
  useEffect(() => void loadThreats(role === 'super_admin' ? tenant : null), [role, tenant]);

  if (threats.status === 'loading') return <Skeleton rows={6} />;
  if (threats.status === 'error') return <ErrorPanel message={threats.message} />;
  const data = threats.data;
  if (!data.enabled) {
    return <NoData text={role === 'super_admin' ? t('threatIntelligence.noCompany') : t('threatIntelligence.notEnabled')} />;
  }
  const own = role !== 'super_admin';
  return (
    <div className="sw-ti-page">
      <Card title={own ? t('threatIntelligence.card.reputationOwn') : t('threatIntelligence.card.reputation')} testId="threat-reputation">
        <Assets data={data} />
      </Card>
      <Card title={own ? t('threatIntelligence.card.tracesOwn') : t('threatIntelligence.card.traces')} testId="threat-traces">
        <TraceMatches data={data} />
      </Card>
      <Card title={t('threatIntelligence.card.lookalikes')} testId="threat-lookalike-card">
        <Lookalikes data={data} />
      </Card>
      <Card title={t('threatIntelligence.card.breaches')} testId="threat-breach-card">
        <BreachStatus data={data} />
      </Card>
      <Card title={t('threatIntelligence.card.sources')} testId="threat-sources">
        <Sources data={data} />
      </Card>
    </div>
  );
}
