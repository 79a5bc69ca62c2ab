// /security: the overview of the security suite. Per asset its kind, whether control is proven
// (with what to publish when not), SSL/TLS grade, open findings by severity, certificate and
// registration expiry, reputation and last scan, each column shown while its analysis is on;
// then the findings of every analysis. Nothing is checked or scanned on an unverified asset.
import { useStore } from '@nanostores/react';
import { useEffect, useState, type ReactNode } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { ASSET_RESOURCE } from '../../../../lib/security-assets.ts';
import { $role } from '../../stores/auth.ts';
import { $flags } from '../../stores/flags.ts';
import { $selectedTenant, $tenantOptions } from '../../stores/tenant.ts';
import { fmtDate, fmtTime } from '../../ui/format.ts';
import { ListPage } from '../../ui/ListPage.tsx';
import { Confirm } from '../../ui/Modal.tsx';
import type { Load } from '../../ui/load.ts';
import { FindingsCard } from './FindingsCard.tsx';
import { ProofPanel } from './ProofPanel.tsx';
import { AcceptRiskDialog, AddAssetDialog } from './SecurityDialogs.tsx';
import {
  $assets,
  $securityAlert,
  loadAssets,
  loadFindings,
  removeAsset,
  setFindingStatus,
  verifyAsset,
  type Asset,
  type Finding,
  type FindingFilters,
} from './store.ts';
import { t, tr } from '../../i18n.ts';
import './security.css';

const NO_FILTERS: FindingFilters = { severity: '', status: '', source: '' };
const REPUTATION_TONE = { clean: 'sw-green', listed: 'sw-red', unknown: 'sw-grey' } as const;

export function SecurityPage({ title }: { title: string }) {
  const role = useStore($role);
  const tenant = useStore($selectedTenant);
  const tenants = useStore($tenantOptions);
  const assets = useStore($assets);
  const alert = useStore($securityAlert);
  const [filters, setFilters] = useState<FindingFilters>(NO_FILTERS);
  const [adding, setAdding] = useState(false);
  const [accepting, setAccepting] = useState<Finding | null>(null);
  const [removing, setRemoving] = useState<Asset | null>(null);
  const [verifying, setVerifying] = useState<string | null>(null);
  const superAdmin = role === 'super_admin';
  const scope = superAdmin ? tenant : null;
  const mayCreate = can(role, 'create', ASSET_RESOURCE) && (!superAdmin || tenant !== null);
  const mayVerify = can(role, 'update', ASSET_RESOURCE);
  const mayRemove = can(role, 'delete', ASSET_RESOURCE);
  useEffect(() => {
    $securityAlert.set(null);
    void loadAssets(scope);
  }, [scope]);
  useEffect(() => {
    void loadFindings(scope, filters);
  }, [scope, filters]);

  const sections = assets.status === 'ready' ? assets.data.sections : { ssl: true, dns: true, scan: true, threat: true };
  const rows: Load<Asset[]> = assets.status === 'ready' ? { status: 'ready', data: assets.data.assets } : assets;
  // Assets to prove: never verified, and those whose name now points outside their proof.
  const unverified = assets.status === 'ready' ? assets.data.assets.filter((a) => a.verification_state !== 'verified') : [];
  const companyName = (id: string) => tenants.list.find((c) => c.id === id)?.name ?? id;
  const columns = [t('security.col.asset'), t('security.col.verification')];
  if (superAdmin && !tenant) columns.splice(1, 0, t('security.col.company'));
  if (sections.ssl) columns.push(t('security.col.grade'));
  columns.push(t('security.col.openFindings'));
  if (sections.ssl) columns.push(t('security.col.certExpires'));
  if (sections.dns) columns.push(t('security.col.registrationExpires'));
  if (sections.threat) columns.push(t('security.col.reputation'));
  if (sections.scan) columns.push(t('security.col.lastScan'));
  if (mayVerify || mayRemove) columns.push(t('security.col.actions'));

  const verify = async (a: Asset) => {
    setVerifying(a.id);
    await verifyAsset(a, scope);
    setVerifying(null);
  };

  return (
    <ListPage
      crumb={t('security.crumb')}
      title={title}
      createLabel={mayCreate ? t('security.addAsset') : undefined}
      onCreate={() => setAdding(true)}
      note={superAdmin && !tenant ? t('security.noteAll') : t('security.note')}
      alert={alert}
      toolbar={<AnalysisLinks />}
      load={rows}
      onRetry={() => void loadAssets(scope)}
      listTitle={t('security.listTitle')}
      listId="security-assets"
      empty={mayCreate ? t('security.emptyCreate') : t('security.empty')}
      columns={columns}
      row={(a) => {
        const s = a.summary;
        const cells: ReactNode[] = [
          <div className="sw-wrap-anywhere sw-sec-host">
            <strong>{a.hostname}</strong>
            <div className="sw-muted">{t(`security.kind.${a.kind}`)}</div>
          </div>,
        ];
        if (superAdmin && !tenant) cells.push(<span className="sw-wrap-anywhere">{companyName(a.company_id)}</span>);
        cells.push(
          a.verification_state === 'renewal_needed' ? (
            <div>
              <span className="sw-pill sw-amber">{t('security.proofNeedsRenewing')}</span>
              <div className="sw-muted">
                {tr('security.pointsElsewhere', { link: (chunks) => <a href={`#proof-${a.id}`}>{chunks}</a> })}
              </div>
            </div>
          ) : a.verified ? (
            <div>
              <span className="sw-pill sw-green">{t('security.verified')}</span>
              <div className="sw-muted">{a.verification_method ? t(`security.method.${a.verification_method}`) : ''}</div>
              {a.verified_addresses && a.verified_addresses.length > 0 && (
                <div className="sw-muted sw-wrap-anywhere">{t('security.verifiedFor', { addresses: a.verified_addresses.join(', ') })}</div>
              )}
            </div>
          ) : (
            <div>
              <span className="sw-pill sw-amber">{t('security.notVerified')}</span>
              <div className="sw-muted">
                <a href={`#proof-${a.id}`}>{t('security.howToVerify')}</a>
              </div>
            </div>
          ),
        );
        if (sections.ssl) cells.push(s.grade ? <span className="sw-sec-grade">{s.grade}</span> : '—');
        cells.push(<SeverityCounts counts={s.open_findings} />);
        if (sections.ssl) cells.push(fmtDate(s.cert_expires_at));
        if (sections.dns) cells.push(a.kind === 'domain' ? fmtDate(s.registration_expires_at) : t('security.notADomain'));
        if (sections.threat)
          cells.push(
            s.reputation ? (
              <span className={`sw-pill ${REPUTATION_TONE[s.reputation]}`}>{t(`security.reputation.${s.reputation}`)}</span>
            ) : (
              '—'
            ),
          );
        if (sections.scan) cells.push(fmtTime(s.last_scan_at, t('security.never')));
        if (mayVerify || mayRemove)
          cells.push(
            <>
              {mayVerify && (
                <button
                  type="button"
                  className="sw-btn sw-btn-small sw-sec-nowrap"
                  disabled={verifying === a.id}
                  aria-label={t('security.verifyAria', {
                    action: verifying === a.id ? t('security.verifying') : t('security.verifyNow'),
                    host: a.hostname,
                  })}
                  onClick={() => void verify(a)}
                >
                  {verifying === a.id ? t('security.verifying') : t('security.verifyNow')}
                </button>
              )}
              {mayRemove && (
                <button
                  type="button"
                  className="sw-btn sw-btn-small sw-btn-danger"
                  aria-label={t('security.removeAria', { host: a.hostname })}
                  onClick={() => setRemoving(a)}
                >
                  {t('security.remove')}
                </button>
              )}
            </>,
          );
        return { key: a.id, cells };
      }}
    >
      {unverified.length > 0 && (
        <section className="sw-card" aria-labelledby="security-proof">
          <header className="sw-card-head">
            <h3 id="security-proof">{t('security.proveTitle', { count: unverified.length })}</h3>
          </header>
          <p className="sw-muted sw-sec-intro">{t('security.proveIntro')}</p>
          {unverified.map((a) => (
            <ProofPanel key={a.id} asset={a} mayVerify={mayVerify} busy={verifying === a.id} onVerify={() => void verify(a)} />
          ))}
        </section>
      )}
      <FindingsCard
        role={role}
        filters={filters}
        onFilters={setFilters}
        onAccept={setAccepting}
        onReopen={(f) => void setFindingStatus(f, 'open', null, scope, filters)}
        onRetry={() => void loadFindings(scope, filters)}
      />
      {adding && <AddAssetDialog tenant={scope} onClose={() => setAdding(false)} />}
      {accepting && <AcceptRiskDialog finding={accepting} tenant={scope} filters={filters} onClose={() => setAccepting(null)} />}
      {removing && (
        <Confirm
          title={t('security.removeTitle')}
          danger
          confirmLabel={t('security.removeConfirm')}
          text={t('security.removeText', { host: removing.hostname })}
          onCancel={() => setRemoving(null)}
          onConfirm={() => {
            const a = removing;
            setRemoving(null);
            void removeAsset(a, scope, filters);
          }}
        />
      )}
    </ListPage>
  );
}

function SeverityCounts({ counts }: { counts: Asset['summary']['open_findings'] }) {
  const shown = (['critical', 'high', 'medium', 'low'] as const).filter((k) => counts[k] > 0);
  if (shown.length === 0) return <span className="sw-muted">{t('security.none')}</span>;
  return (
    <ul className="sw-sec-counts">
      {shown.map((k) => (
        <li key={k} className={`sw-pill ${k === 'critical' || k === 'high' ? 'sw-red' : k === 'medium' ? 'sw-amber' : 'sw-grey'}`}>
          {t('security.severityCount', { count: counts[k], severity: t(`security.severity.${k}`) })}
        </li>
      ))}
    </ul>
  );
}

/** The analyses behind the overview, each on its own screen while its flag is on. */
const ANALYSES = [
  { href: '/ssl-monitoring', analysis: 'ssl', flag: 'ENABLE_SSL_MONITORING' },
  { href: '/domain-checks', analysis: 'dns', flag: 'ENABLE_DOMAIN_CHECKS' },
  { href: '/vulnerability-scans', analysis: 'scan', flag: 'ENABLE_VULNERABILITY_SCANS' },
  { href: '/threat-intelligence', analysis: 'threat', flag: 'ENABLE_THREAT_INTELLIGENCE' },
] as const;

function AnalysisLinks() {
  const flags = useStore($flags);
  const shown = ANALYSES.filter((a) => flags[a.flag] !== false);
  if (shown.length === 0) return null;
  return (
    <nav aria-label={t('security.analyses')} className="sw-sec-analyses">
      {shown.map((a) => (
        <a key={a.href} href={a.href} className="sw-btn sw-btn-small">
          {t(`security.analysis.${a.analysis}`)}
        </a>
      ))}
    </nav>
  );
}
