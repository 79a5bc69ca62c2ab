// /ssl-monitoring: the certificates and TLS set-up of the company's verified host assets and
// https monitors, worst grade first, each with its grade, expiry, issuer, names, key, signature,
// protocols and problems; a row opens its detail. Company admins and super admins analyse now.
import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { can } from '../../../../lib/permissions.ts';
import { $role } from '../../stores/auth.ts';
import { $selectedTenant } from '../../stores/tenant.ts';
import { ListPage } from '../../ui/ListPage.tsx';
import type { Load } from '../../ui/load.ts';
import { Expiry, GradeBadge } from './badges.tsx';
import {
  $sslAlert,
  $sslTargets,
  checkSslNow,
  issuerName,
  keyText,
  loadSslTargets,
  problemSummary,
  protocolText,
  type SslTarget,
} from './store.ts';

export function SslMonitoringPage() {
  const role = useStore($role);
  const tenant = useStore($selectedTenant);
  const list = useStore($sslTargets);
  const alert = useStore($sslAlert);
  const scope = role === 'super_admin' ? tenant : null;
  const mayCheck = can(role, 'update', 'ssl_monitoring');
  useEffect(() => {
    $sslAlert.set(null);
    void loadSslTargets(scope);
  }, [scope]);
  const rows: Load<SslTarget[]> = list.status === 'ready' ? { status: 'ready', data: list.data.items } : list;
  const columns = ['Target', 'Grade', 'Expires', 'Issuer', 'Names', 'Key', 'Signature', 'Protocols', 'Problems'];
  if (mayCheck) columns.push('Actions');
  return (
    <ListPage
      crumb="SSL monitoring"
      title="SSL/TLS monitoring"
      note="Verified host assets and https monitors, analysed daily: certificate, chain, protocols, ciphers and HSTS, graded A+ to F (T: not trusted)."
      alert={alert}
      load={rows}
      onRetry={() => void loadSslTargets(scope)}
      listTitle="Certificates"
      listId="ssl-targets"
      empty="No certificates to watch yet. Verify a host on the Security screen, or add an https monitor."
      columns={columns}
      row={(t) => {
        const a = t.analysis;
        const cells = [
          <div>
            <a href={`/ssl-monitoring/${t.id}`}>
              <strong>{t.name}</strong>
            </a>
            <div className="sw-muted">
              {t.host}:{t.port} · {t.kind === 'asset' ? 'Verified host' : 'Monitor'}
            </div>
          </div>,
          <GradeBadge grade={t.grade} />,
          a?.error ? <span className="sw-muted">Unreachable</span> : <Expiry daysLeft={t.days_left} />,
          issuerName(a?.issuer),
          <span className="sw-wrap-anywhere">{a?.names.length ? a.names.join(', ') : '—'}</span>,
          keyText(t),
          a?.signature_algorithm ?? '—',
          a ? protocolText(a.protocols) : '—',
          problemSummary(t.problems),
        ];
        if (mayCheck)
          cells.push(
            <button
              type="button"
              className="sw-btn sw-btn-small"
              aria-label={`Analyse now: ${t.name}`}
              onClick={() => void checkSslNow(t.id, () => loadSslTargets(scope))}
            >
              Analyse now
            </button>,
          );
        return { key: t.id, cells };
      }}
    />
  );
}
