// The SSL/TLS screens' service verbs: the company's TLS targets with their latest analysis and
// open problems, one target, and "analyse now". Permission first (resource ssl_monitoring), the
// company filter always, and nothing while ENABLE_SSL_MONITORING is off.
import { securityFindingsRepo } from '../../db/repositories/security-findings-repo.ts';
import { tlsAnalysesRepo } from '../../db/repositories/tls-analyses-repo.ts';
import type { SslResultData } from '../../security/tls/result-data.ts';
import { companyScope, requirePermission } from '../authz.ts';
import type { Ctx } from '../context.ts';
import { DomainError, notFound } from '../errors.ts';
import { flagOn } from '../flags/flags.ts';
import { analyseTlsTarget, type MonitorAnalysisData } from './ssl-analysis.ts';
import { tlsTarget, tlsTargets, type TlsTarget } from './ssl-targets.ts';

const DAY_MS = 86_400_000;
/** A target analysed less than this long ago is not analysed again on demand */
export const CHECK_NOW_INTERVAL_MS = 60_000;

const GRADE_ORDER = ['T', 'F', 'E', 'D', 'C', 'B', 'A-', 'A', 'A+'];

interface Problem {
  key: string;
  severity: 'critical' | 'high' | 'medium' | 'low' | 'info';
  title: string;
  evidence: string;
  first_seen_at: number;
  status: 'open' | 'accepted';
}

interface Latest {
  checked_at: number;
  grade: string | null;
  data: SslResultData;
  problems: Problem[];
}

async function requireFlag(ctx: Ctx) {
  if (!(await flagOn(ctx.services, 'ENABLE_SSL_MONITORING')))
    throw new DomainError('forbidden', 'SSL monitoring is turned off (the “SSL monitoring” feature flag).');
}

/** The latest analysis of each target of a company (every company's for `null`), by target id. */
async function latestOf(ctx: Ctx, companyId: string | null): Promise<Map<string, Latest>> {
  const db = ctx.services.db;
  const out = new Map<string, Latest>();
  const repo = securityFindingsRepo(db);
  const findings = (await repo.list({ companyId, source: 'ssl' })).filter((f) => f.status !== 'fixed');
  for (const r of await repo.listResults(companyId, 'ssl')) {
    const problems = findings
      .filter((f) => f.asset_id === r.asset_id)
      .map((f) => ({
        key: f.key,
        severity: f.severity,
        title: f.title,
        evidence: f.evidence,
        first_seen_at: Number(f.first_seen_at),
        status: f.status as 'open' | 'accepted',
      }));
    out.set(r.asset_id, { checked_at: Number(r.checked_at), grade: r.grade, data: JSON.parse(r.data) as SslResultData, problems });
  }
  for (const r of await tlsAnalysesRepo(db).list(companyId)) {
    const { problems, ...data } = JSON.parse(r.data) as MonitorAnalysisData;
    out.set(r.monitor_id, {
      checked_at: Number(r.checked_at),
      grade: r.grade,
      data,
      problems: problems.map((p) => ({ ...p, status: 'open' as const })),
    });
  }
  return out;
}

function present(t: TlsTarget, latest: Latest | undefined, now: number) {
  const expires = latest?.data.cert_expires_at ?? null;
  const { host: _host, port, ...analysis } = latest?.data ?? ({} as Partial<SslResultData>);
  return {
    id: t.id,
    kind: t.kind,
    company_id: t.company_id,
    name: t.name,
    host: t.host,
    port: latest ? (port ?? t.port) : t.port,
    checked_at: latest?.checked_at ?? null,
    grade: latest?.grade ?? null,
    days_left: expires === null ? null : Math.floor((expires - now) / DAY_MS),
    analysis: latest ? (analysis as Omit<SslResultData, 'host' | 'port'>) : null,
    problems: latest?.problems ?? [],
  };
}

const rank = (grade: string | null) => (grade === null ? GRADE_ORDER.length : GRADE_ORDER.indexOf(grade));

export async function listSslTargets(ctx: Ctx, q: { tenant?: string }) {
  requirePermission(ctx, 'view', 'ssl_monitoring');
  await requireFlag(ctx);
  const companyId = companyScope(ctx, q.tenant);
  const latest = await latestOf(ctx, companyId);
  const now = ctx.services.now();
  const items = (await tlsTargets(ctx.services.db, companyId)).map((t) => present(t, latest.get(t.id), now));
  // Worst first: the targets that need attention lead; never-analysed ones last.
  items.sort((a, b) => rank(a.grade) - rank(b.grade) || a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  return { items };
}

async function targetOf(ctx: Ctx, id: string): Promise<TlsTarget> {
  const companyId = companyScope(ctx);
  const t = await tlsTarget(ctx.services.db, companyId, id);
  if (!t) throw notFound('TLS target');
  return t;
}

export async function getSslTarget(ctx: Ctx, id: string) {
  requirePermission(ctx, 'view', 'ssl_monitoring');
  await requireFlag(ctx);
  const t = await targetOf(ctx, id);
  return present(t, (await latestOf(ctx, t.company_id)).get(t.id), ctx.services.now());
}

export async function checkSslTarget(ctx: Ctx, id: string) {
  requirePermission(ctx, 'update', 'ssl_monitoring', 'check certificates');
  await requireFlag(ctx);
  const t = await targetOf(ctx, id);
  const before = (await latestOf(ctx, t.company_id)).get(t.id);
  const now = ctx.services.now();
  if (before && now - before.checked_at < CHECK_NOW_INTERVAL_MS) {
    const wait = Math.ceil((CHECK_NOW_INTERVAL_MS - (now - before.checked_at)) / 1000);
    throw new DomainError('rate_limited', `This target was analysed moments ago; try again in ${wait} s.`, { retryAfter: wait });
  }
  await analyseTlsTarget(ctx.services, t);
  return present(t, (await latestOf(ctx, t.company_id)).get(t.id), ctx.services.now());
}
