// /backend-test: token state, role and tenant, the server's claims, the unsigned test token
// (which the server must refuse) and the backend checks.
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { isExpired, isExpiringSoon, isWellFormedToken, secondsRemaining } from '../../../../lib/token.ts';
import { t } from '../../i18n.ts';
import { $role, $user } from '../../stores/auth.ts';
import { $selectedTenant } from '../../stores/tenant.ts';
import { fmtTime } from '../../ui/format.ts';
import {
  $checks,
  checkLabel,
  $serverUser,
  $testToken,
  $tokenVerdict,
  clearTestToken,
  loadServerClaims,
  runBackendTests,
  setTestToken,
} from './store.ts';
import { Table } from '../../ui/Table.tsx';

function useNow(ms = 1000): number {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(timer);
  }, [ms]);
  return now;
}

export function BackendTestPage() {
  const role = useStore($role);
  const user = useStore($user);
  const tenant = useStore($selectedTenant);
  const server = useStore($serverUser);
  const serverUser = server.status === 'ready' ? server.data : null;
  const token = useStore($testToken);
  const verdict = useStore($tokenVerdict);
  const checks = useStore($checks);
  const now = useNow();
  useEffect(() => {
    void loadServerClaims();
  }, []);
  const claims = serverUser?.claims;
  const exp = claims?.exp ?? null;
  const tokenState =
    exp == null
      ? t('backendTest.state.unknown')
      : isExpired(exp, now)
        ? t('backendTest.state.expired')
        : isExpiringSoon(exp, now)
          ? t('backendTest.state.expiringSoon')
          : t('backendTest.state.valid');
  return (
    <div className="sw-backend-test">
      <div className="sw-page-head">
        <h2 className="sw-page-title">{t('backendTest.title')}</h2>
        <p className="sw-muted">{t('backendTest.intro')}</p>
      </div>
      <div className="sw-grid">
        <section className="sw-card" aria-labelledby="bt-token">
          <header className="sw-card-head">
            <h3 id="bt-token">{t('backendTest.token.title')}</h3>
          </header>
          <dl className="sw-dl">
            <dt>{t('backendTest.token.session')}</dt>
            <dd>{t('backendTest.token.cookie')}</dd>
            <dt>{t('backendTest.token.state')}</dt>
            <dd data-testid="token-state">{tokenState}</dd>
            <dt>{t('backendTest.token.expires')}</dt>
            <dd>
              {exp == null
                ? '—'
                : t('backendTest.token.expiresAt', {
                    time: fmtTime(new Date(exp * 1000).toISOString(), '—'),
                    remaining: remainingText(secondsRemaining(exp, now)),
                  })}
            </dd>
            <dt>{t('backendTest.token.sessionEnds')}</dt>
            <dd>{claims?.session_expires_at ? fmtTime(new Date(claims.session_expires_at * 1000).toISOString(), '—') : '—'}</dd>
            <dt>{t('backendTest.token.stored')}</dt>
            <dd data-testid="stored-token">
              {token
                ? t(isWellFormedToken(token) ? 'backendTest.token.wellFormed' : 'backendTest.token.malformed', { count: token.length })
                : t('backendTest.none')}
            </dd>
          </dl>
          <div className="sw-row">
            <button type="button" className="sw-btn" onClick={() => void setTestToken()}>
              {t('backendTest.token.set')}
            </button>
            {token && (
              <button type="button" className="sw-btn" onClick={clearTestToken}>
                {t('backendTest.token.clear')}
              </button>
            )}
          </div>
          {verdict && (
            <p
              className={verdict.accepted ? 'sw-banner sw-banner-error' : 'sw-banner sw-banner-ok'}
              role="status"
              data-testid="token-verdict"
            >
              {verdict.text}
            </p>
          )}
        </section>
        <section className="sw-card" aria-labelledby="bt-role">
          <header className="sw-card-head">
            <h3 id="bt-role">{t('backendTest.role.title')}</h3>
          </header>
          <dl className="sw-dl">
            <dt>{t('backendTest.role.role')}</dt>
            <dd data-testid="bt-role">{role ?? t('backendTest.none')}</dd>
            <dt>{t('backendTest.role.userType')}</dt>
            <dd>{user?.user_type ?? '—'}</dd>
            <dt>{t('backendTest.role.company')}</dt>
            <dd>{user?.company_id ?? t('backendTest.none')}</dd>
            <dt>{t('backendTest.role.tenant')}</dt>
            <dd data-testid="bt-tenant">{tenant ?? t('backendTest.role.globalView')}</dd>
          </dl>
        </section>
        <section className="sw-card" aria-labelledby="bt-claims">
          <header className="sw-card-head">
            <h3 id="bt-claims">{t('backendTest.claims.title')}</h3>
          </header>
          {server.status === 'error' && (
            <p className="sw-banner sw-banner-error" role="alert">
              {server.message}
            </p>
          )}
          <pre className="sw-pre" data-testid="claims">
            {serverUser
              ? JSON.stringify(
                  {
                    id: serverUser.id,
                    email: serverUser.email,
                    full_name: serverUser.full_name,
                    user_type: serverUser.user_type,
                    company_id: serverUser.company_id,
                    ...claims,
                  },
                  null,
                  2,
                )
              : t('backendTest.loading')}
          </pre>
        </section>
      </div>
      <section className="sw-card" aria-labelledby="bt-run">
        <header className="sw-card-head">
          <h3 id="bt-run">{t('backendTest.run.title')}</h3>
          <button type="button" className="sw-btn sw-btn-primary" onClick={() => void runBackendTests()}>
            {t('backendTest.run.submit')}
          </button>
        </header>
        {checks.length > 0 && (
          <Table
            stack={false}
            rows={checks}
            rowKey={(c) => c.name}
            rowProps={(c) => ({ 'data-testid': `check-${c.name}` })}
            columns={[
              { label: t('backendTest.col.check'), cell: (c) => checkLabel(c.name) },
              { label: t('backendTest.col.call'), cell: (c) => <code>{t('backendTest.call', { path: c.path })}</code> },
              {
                label: t('backendTest.col.result'),
                cell: (c) => (
                  <span className={c.status === 'ok' ? 'sw-pill sw-green' : c.status === 'fail' ? 'sw-pill sw-red' : 'sw-pill sw-grey'}>
                    {c.status === 'ok' ? t('backendTest.pass') : c.status === 'fail' ? t('backendTest.fail') : '…'}
                  </span>
                ),
              },
              { label: 'HTTP', cell: (c) => c.code ?? '—' },
              { label: t('backendTest.col.time'), cell: (c) => (c.ms == null ? '—' : t('backendTest.ms', { value: c.ms })) },
              { label: t('backendTest.col.details'), cell: (c) => c.summary },
            ]}
          />
        )}
      </section>
    </div>
  );
}

/** The token's time left ('5m', '1h 2m'), as lib/token.ts formatRemaining counts it, in the reader's language. */
function remainingText(seconds: number): string {
  const s = Math.floor(seconds);
  if (s <= 0) return t('backendTest.token.remaining.expired');
  if (s < 60) return t('backendTest.token.remaining.seconds', { s });
  if (s < 3600) return t('backendTest.token.remaining.minutes', { m: Math.floor(s / 60) });
  return t('backendTest.token.remaining.hours', { h: Math.floor(s / 3600), m: Math.floor((s % 3600) / 60) });
}
