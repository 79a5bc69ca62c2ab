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
import './threat-intelligence.css';

const when = (ms: number | null | undefined) => fmtTime(ms, 'Never');
const day = (ms: number | null | undefined) => (ms == null ? '—' : fmtDate(new Date(ms).toISOString()));

const REPUTATION: Record<AssetThreat['reputation'], { label: string; className: string }> = {
  listed: { label: 'Listed', className: 'sw-badge sw-badge-open' },
  clean: { label: 'Clean', className: 'sw-badge sw-badge-resolved' },
  unknown: { label: 'Unknown', className: 'sw-badge' },
};

function Assets({ data }: { data: ThreatOverview }) {
  if (data.assets.length === 0) return <NoData text="No verified assets yet. Verified domains and hosts are checked every hour." />;
  return (
    <Table
      testId="threat-assets"
      rows={data.assets}
      rowKey={(a) => a.id}
      rowProps={(a) => ({ 'data-testid': `threat-asset-${a.hostname}` })}
      columns={[
        {
          label: 'Asset',
          cell: (a) => (
            <span>
              <strong>{a.hostname}</strong> <span className="sw-ti-muted">{a.kind}</span>
            </span>
          ),
        },
        { label: 'Reputation', cell: (a) => <span className={REPUTATION[a.reputation].className}>{REPUTATION[a.reputation].label}</span> },
        { label: 'Addresses', cell: (a) => (a.addresses.length ? a.addresses.join(', ') : '—') },
        {
          label: 'Listings',
          cell: (a) =>
            a.listings.length ? (
              <ul className="sw-ti-list">
                {a.listings.map((l) => (
                  <li key={l}>{l}</li>
                ))}
              </ul>
            ) : (
              'None'
            ),
        },
        { label: 'Checked', cell: (a) => when(a.checked_at) },
      ]}
    />
  );
}

function TraceMatches({ data }: { data: ThreatOverview }) {
  if (data.trace_matches.length === 0)
    return <NoData text="None of the hosts your services called in the last 7 days is listed by a feed." />;
  return (
    <ul className="sw-ti-alerts" data-testid="threat-trace-matches">
      {data.trace_matches.map((m) => (
        <li key={`${m.company_id}/${m.service}/${m.host}/${m.feed}/${m.indicator}`}>
          Your <strong>{m.service}</strong> service called <strong>{m.host}</strong>, listed by {m.feed} as {m.threat}
          {m.indicator !== m.host ? ` (${m.indicator})` : ''}. Last call {when(m.last_seen_at)}.
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
        {fmtNumber(l.checked)} of {fmtNumber(l.candidates)} lookalike names of your domains checked for registration.
      </p>
      {l.registered.length === 0 ? (
        <NoData text="No lookalike domain is registered." />
      ) : (
        <Table
          testId="threat-lookalikes"
          rows={l.registered}
          rowKey={(r) => `${r.company_id}/${r.candidate}`}
          columns={[
            { label: 'Registered name', cell: (r) => r.candidate },
            { label: 'Imitates', cell: (r) => r.domain },
            { label: 'Technique', cell: (r) => humanize(r.technique) },
            {
              label: 'Registered since',
              cell: (r) => (r.first_registered_at == null ? 'Before monitoring began' : day(r.first_registered_at)),
            },
          ]}
        />
      )}
    </>
  );
}

function BreachStatus({ data }: { data: ThreatOverview }) {
  const b = data.breach;
  if (!b) return <p className="sw-ti-muted">Choose a company in the header to see its breach lookup.</p>;
  if (b.status === 'not_configured') return <p data-testid="threat-breach">Breach lookup is not configured on this platform.</p>;
  if (b.status === 'disabled') return <p data-testid="threat-breach">Data breach monitoring is not part of this company's services.</p>;
  if (b.status === 'pending') return <p data-testid="threat-breach">{b.domain} will be looked up at the next run.</p>;
  if (b.status === 'error')
    return (
      <p data-testid="threat-breach">
        The last lookup of {b.domain} failed: {b.error}
      </p>
    );
  return (
    <div data-testid="threat-breach">
      <p>
        {b.breaches.length === 0
          ? 'No known breach involves'
          : `${b.breaches.length} known breach${b.breaches.length > 1 ? 'es involve' : ' involves'}`}{' '}
        addresses at <strong>{b.domain}</strong> (checked {when(b.checked_at)}).
      </p>
      {b.breaches.length > 0 && (
        <ul className="sw-ti-list">
          {b.breaches.map((x) => (
            <li key={`${x.name}/${x.date}`}>
              {x.name}, {x.date}
              {x.accounts != null ? `, ${fmtNumber(x.accounts)} accounts` : ''}
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
        <strong>DNS blocklists:</strong>{' '}
        {data.blocklists.length ? data.blocklists.map((b) => `${b.zone} (${b.type})`).join(', ') : 'none configured'}
      </p>
      {data.feeds.length === 0 ? (
        <p>
          <strong>Feeds:</strong> none configured
        </p>
      ) : (
        <ul className="sw-ti-list" aria-label="Feeds">
          {data.feeds.map((f) => (
            <li key={f.name}>
              <strong>{f.name}</strong>: {fmtNumber(f.indicators)} indicator{f.indicators === 1 ? '' : 's'}, imported {when(f.imported_at)}
              {f.error ? ` — last attempt failed: ${f.error}` : ''}
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
    return (
      <NoData
        text={
          role === 'super_admin'
            ? 'No company has threat intelligence.'
            : 'Threat intelligence is not enabled for your company. Ask your platform administrator.'
        }
      />
    );
  }
  const own = role !== 'super_admin';
  return (
    <div className="sw-ti-page">
      <Card title={own ? 'Reputation of your assets' : 'Reputation of the assets'} testId="threat-reputation">
        <Assets data={data} />
      </Card>
      <Card title={own ? 'Listed hosts your services called' : 'Listed hosts the services called'} testId="threat-traces">
        <TraceMatches data={data} />
      </Card>
      <Card title="Lookalike domains" testId="threat-lookalike-card">
        <Lookalikes data={data} />
      </Card>
      <Card title="Data breaches" testId="threat-breach-card">
        <BreachStatus data={data} />
      </Card>
      <Card title="Sources" testId="threat-sources">
        <Sources data={data} />
      </Card>
    </div>
  );
}
