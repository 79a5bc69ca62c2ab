// /backend-test: the diagnostic page's checks (spec sections 2, 7 and 9).
import { atom } from 'nanostores';
import type { components } from '../../../../api/schema.d.ts';
import { api, errorText } from '../../api.ts';
import { t } from '../../i18n.ts';
import { loadInto, serverOr } from '../../stores/remote.ts';
import type { Load } from '../../ui/load.ts';

export type Claims = components['schemas']['SessionClaims'];
export const TEST_TOKEN_KEY = 'sw_auth_token';
export const TEST_TOKEN_LIFETIME_SECONDS = 3_600;

export interface CheckRow {
  name: string;
  path: string;
  status: 'pending' | 'ok' | 'fail';
  code: number | null;
  ms: number | null;
  summary: string;
}

export const $serverUser = atom<Load<components['schemas']['CurrentUser']>>({ status: 'loading' });
export const $testToken = atom<string | null>(readToken());
export const $tokenVerdict = atom<{ accepted: boolean; text: string } | null>(null);
export const $checks = atom<CheckRow[]>([]);

function readToken(): string | null {
  try {
    return localStorage.getItem(TEST_TOKEN_KEY);
  } catch {
    return null;
  }
}

function b64url(s: string): string {
  return btoa(String.fromCharCode(...new TextEncoder().encode(s)))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** An unsigned token (alg none) with the default 3600 s lifetime: the server must refuse it. */
export function makeTestToken(claims: { sub: string; email: string; role: string | null; tenantId: string | null }, nowMs: number): string {
  const iat = Math.floor(nowMs / 1000);
  return [
    b64url(JSON.stringify({ alg: 'none', typ: 'JWT' })),
    b64url(JSON.stringify({ ...claims, iat, exp: iat + TEST_TOKEN_LIFETIME_SECONDS })),
    'unsigned',
  ].join('.');
}

export function loadServerClaims(): Promise<void> {
  return loadInto($serverUser, () => api.GET('/api/v1/auth/me'), serverOr(t('backendTest.loadFailed')));
}

/** Stores an unsigned test token and presents it, alone (no cookies), to the server. */
export async function setTestToken(): Promise<void> {
  const server = $serverUser.get();
  const u = server.status === 'ready' ? server.data : null;
  const token = makeTestToken(
    { sub: u?.id ?? 'test', email: u?.email ?? 'test@example.com', role: u?.role ?? null, tenantId: u?.company_id ?? null },
    Date.now(),
  );
  try {
    localStorage.setItem(TEST_TOKEN_KEY, token);
  } catch {
    /* storage unavailable */
  }
  $testToken.set(token);
  try {
    const { data, error, response } = await api.GET('/api/v1/auth/me', {
      headers: { authorization: `Bearer ${token}` },
      credentials: 'omit',
    });
    $tokenVerdict.set(
      data
        ? { accepted: true, text: t('backendTest.verdict.accepted', { status: response.status }) }
        : {
            accepted: false,
            text: t('backendTest.verdict.rejected', {
              status: response.status,
              reason: errorText(error, t('backendTest.verdict.unauthorized')),
            }),
          },
    );
  } catch (e) {
    $tokenVerdict.set({ accepted: false, text: t('backendTest.verdict.failed', { reason: errorText(e, t('backendTest.networkError')) }) });
  }
}

export function clearTestToken(): void {
  try {
    localStorage.removeItem(TEST_TOKEN_KEY);
  } catch {
    /* storage unavailable */
  }
  $testToken.set(null);
  $tokenVerdict.set(null);
}

type Call = () => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** A check's name as the table shows it; `name` itself stays the row's stable id */
export function checkLabel(name: string): string {
  switch (name) {
    case 'Health':
      return t('backendTest.check.health');
    case 'Companies':
      return t('backendTest.check.companies');
    case 'Dashboard summary':
      return t('backendTest.check.dashboard');
    case 'RED metrics (24h)':
      return t('backendTest.check.red');
    default:
      return name;
  }
}

const CHECKS: Array<{ name: string; path: string; call: Call; summarize: (d: unknown) => string }> = [
  {
    name: 'Health',
    path: '/api/v1/health/',
    call: () => api.GET('/api/v1/health/'),
    summarize: (d) => {
      const h = d as components['schemas']['Health'] | components['schemas']['HealthStatus'];
      return 'version' in h
        ? t('backendTest.summary.healthFull', { status: h.status, version: h.version, kind: h.database.kind, database: h.database.status })
        : t('backendTest.summary.health', { status: h.status });
    },
  },
  {
    name: 'Companies',
    path: '/api/v1/admin/companies',
    call: () => api.GET('/api/v1/admin/companies'),
    summarize: (d) => t('backendTest.summary.companies', { count: (d as unknown[]).length }),
  },
  {
    name: 'Dashboard summary',
    path: '/api/v1/admin/dashboard-summary',
    call: () => api.GET('/api/v1/admin/dashboard-summary'),
    summarize: (d) => {
      const s = d as components['schemas']['DashboardSummary'];
      return t('backendTest.summary.dashboard', {
        companies: s.companies,
        users: s.users,
        monitors: s.monitors,
        incidents: s.open_incidents,
      });
    },
  },
  {
    name: 'RED metrics (24h)',
    path: '/api/v1/api-intelligence/metrics/red?range=24h',
    call: () => api.GET('/api/v1/api-intelligence/metrics/red', { params: { query: { range: '24h' } } }),
    summarize: (d) => (Array.isArray(d) ? t('backendTest.summary.tenants', { count: d.length }) : t('backendTest.summary.oneCompany')),
  },
];

export async function runBackendTests(): Promise<void> {
  $checks.set(CHECKS.map((c) => ({ name: c.name, path: c.path, status: 'pending', code: null, ms: null, summary: '' })));
  await Promise.all(
    CHECKS.map(async (c, i) => {
      const started = performance.now();
      let row: CheckRow;
      try {
        const { data, error, response } = await c.call();
        const ms = Math.round(performance.now() - started);
        row =
          data !== undefined
            ? { name: c.name, path: c.path, status: 'ok', code: response.status, ms, summary: c.summarize(data) }
            : { name: c.name, path: c.path, status: 'fail', code: response.status, ms, summary: errorText(error, t('backendTest.failed')) };
      } catch (e) {
        row = {
          name: c.name,
          path: c.path,
          status: 'fail',
          code: null,
          ms: Math.round(performance.now() - started),
          summary: errorText(e, t('backendTest.networkError')),
        };
      }
      const rows = [...$checks.get()];
      rows[i] = row;
      $checks.set(rows);
    }),
  );
}
