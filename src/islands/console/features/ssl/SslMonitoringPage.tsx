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
import { t } from '../../i18n.ts';

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
  const columns = [
    t('ssl.col.target'),
    t('ssl.col.grade'),
    t('ssl.col.expires'),
    t('ssl.col.issuer'),
    t('ssl.col.names'),
    t('ssl.col.key'),
    t('ssl.col.signature'),
    t('ssl.col.protocols'),
    t('ssl.col.problems'),
  ];
  if (mayCheck) columns.push(t('ssl.col.actions'));
  return (
    <ListPage
      crumb={t('ssl.crumb')}
      title={t('ssl.title')}
      note={t('ssl.note')}
      alert={alert}
      load={rows}
      onRetry={() => void loadSslTargets(scope)}
      listTitle={t('ssl.listTitle')}
      listId="ssl-targets"
      empty={t('ssl.empty')}
      columns={columns}
      row={(x) => {
        const a = x.analysis;
        const cells = [
          <div>
            <a href={`/ssl-monitoring/${x.id}`}>
              <strong>{x.name}</strong>
            </a>
            <div className="sw-muted">{t('ssl.endpointKind', { endpoint: `${x.host}:${x.port}`, kind: x.kind })}</div>
          </div>,
          <GradeBadge grade={x.grade} />,
          a?.error ? <span className="sw-muted">{t('ssl.unreachable')}</span> : <Expiry daysLeft={x.days_left} />,
          issuerName(a?.issuer),
          <span className="sw-wrap-anywhere">{a?.names.length ? a.names.join(', ') : '—'}</span>,
          keyText(x),
          a?.signature_algorithm ?? '—',
          a ? protocolText(a.protocols) : '—',
          problemSummary(x.problems),
        ];
        if (mayCheck)
          cells.push(
            <button
              type="button"
              className="sw-btn sw-btn-small"
              aria-label={t('ssl.analyseNowAria', { name: x.name })}
              onClick={() => void checkSslNow(x.id, () => loadSslTargets(scope))}
            >
              {t('ssl.analyseNow')}
            </button>,
          );
        return { key: x.id, cells };
      }}
    />
  );
}
