// /backend-test: token state, role and tenant, the server's claims, the unsigned test token
// (which the server must refuse) and the backend checks.
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { formatRemaining, isExpired, isExpiringSoon, isWellFormedToken, secondsRemaining } from '../../../../lib/token.ts';
import { $role, $user } from '../../stores/auth.ts';
import { $selectedTenant } from '../../stores/tenant.ts';
import { fmtTime } from '../../ui/format.ts';
import {
  $checks,
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
    const t = setInterval(() => setNow(Date.now()), ms);
    return () => clearInterval(t);
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
  const tokenState = exp == null ? 'Unknown' : isExpired(exp, now) ? 'Expired' : isExpiringSoon(exp, now) ? 'Expiring soon' : 'Valid';
  return (
    <div className="sw-backend-test">
      <div className="sw-page-head">
        <h2 className="sw-page-title">Backend Test</h2>
        <p className="sw-muted">Diagnostics of the session and the API.</p>
      </div>
      <div className="sw-grid">
        <section className="sw-card" aria-labelledby="bt-token">
          <header className="sw-card-head">
            <h3 id="bt-token">Token state</h3>
          </header>
          <dl className="sw-dl">
            <dt>Session token</dt>
            <dd>HttpOnly cookie (not readable by scripts)</dd>
            <dt>State</dt>
            <dd data-testid="token-state">{tokenState}</dd>
            <dt>Expires</dt>
            <dd>
              {exp == null
                ? '—'
                : `${fmtTime(new Date(exp * 1000).toISOString(), '—')} (${formatRemaining(secondsRemaining(exp, now))} left)`}
            </dd>
            <dt>Session ends</dt>
            <dd>{claims?.session_expires_at ? fmtTime(new Date(claims.session_expires_at * 1000).toISOString(), '—') : '—'}</dd>
            <dt>Stored test token</dt>
            <dd data-testid="stored-token">
              {token ? `${isWellFormedToken(token) ? 'well-formed' : 'malformed'} (${token.length} characters)` : 'none'}
            </dd>
          </dl>
          <div className="sw-row">
            <button type="button" className="sw-btn" onClick={() => void setTestToken()}>
              Set Test Token
            </button>
            {token && (
              <button type="button" className="sw-btn" onClick={clearTestToken}>
                Clear Test Token
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
            <h3 id="bt-role">Role and tenant</h3>
          </header>
          <dl className="sw-dl">
            <dt>Role</dt>
            <dd data-testid="bt-role">{role ?? 'none'}</dd>
            <dt>User type</dt>
            <dd>{user?.user_type ?? '—'}</dd>
            <dt>Company</dt>
            <dd>{user?.company_id ?? 'none'}</dd>
            <dt>Selected tenant</dt>
            <dd data-testid="bt-tenant">{tenant ?? 'Global view'}</dd>
          </dl>
        </section>
        <section className="sw-card" aria-labelledby="bt-claims">
          <header className="sw-card-head">
            <h3 id="bt-claims">Claims from the server</h3>
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
              : 'Loading…'}
          </pre>
        </section>
      </div>
      <section className="sw-card" aria-labelledby="bt-run">
        <header className="sw-card-head">
          <h3 id="bt-run">Backend tests</h3>
          <button type="button" className="sw-btn sw-btn-primary" onClick={() => void runBackendTests()}>
            Run Backend Tests
          </button>
        </header>
        {checks.length > 0 && (
          <Table
            stack={false}
            rows={checks}
            rowKey={(c) => c.name}
            rowProps={(c) => ({ 'data-testid': `check-${c.name}` })}
            columns={[
              { label: 'Check', cell: (c) => c.name },
              { label: 'Call', cell: (c) => <code>GET {c.path}</code> },
              {
                label: 'Result',
                cell: (c) => (
                  <span className={c.status === 'ok' ? 'sw-pill sw-green' : c.status === 'fail' ? 'sw-pill sw-red' : 'sw-pill sw-grey'}>
                    {c.status === 'ok' ? 'PASS' : c.status === 'fail' ? 'FAIL' : '…'}
                  </span>
                ),
              },
              { label: 'HTTP', cell: (c) => c.code ?? '—' },
              { label: 'Time', cell: (c) => (c.ms == null ? '—' : `${c.ms} ms`) },
              { label: 'Details', cell: (c) => c.summary },
            ]}
          />
        )}
      </section>
    </div>
  );
}
