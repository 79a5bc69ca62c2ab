// One TLS analysis of one target, end to end: the probe (outside any transaction: it takes
// seconds), then in one transaction the stored result, the findings' life, and the `ssl_warning`
// notifications it causes: the expiry threshold reached (30/14/7/1 days, once per threshold per
// certificate: engine/kinds/certificate-warnings.ts) and every problem newly opened. An asset is
// probed only at the addresses its proof of control vouches for (bound-check.ts).
import { securityFindingsRepo, type FindingInput } from '../../db/repositories/security-findings-repo.ts';
import { tlsAnalysesRepo } from '../../db/repositories/tls-analyses-repo.ts';
import { securityAssetsRepo } from '../../db/repositories/security-assets-repo.ts';
import { withTransaction } from '../../db/scope.ts';
import { dnsResolver } from '../../net/dns-lookup.ts';
import { expiryWarning, type CertificateSubject } from '../../engine/kinds/certificate-warnings.ts';
import { notifyIn, type NotificationDraft } from '../../notify/notify.ts';
import { EXPIRING_KEY, tlsFindings } from '../../security/tls/findings.ts';
import { gradeTls } from '../../security/tls/grade.ts';
import { probeTls, type ProbeEnv } from '../../security/tls/probe.ts';
import { sslResultData, type SslResultData } from '../../security/tls/result-data.ts';
import type { Services } from '../context.ts';
import { DomainError } from '../errors.ts';
import { checkBoundAddresses } from './bound-check.ts';
import type { TlsTarget } from './ssl-targets.ts';

/** The whole probe of one target (about ten handshakes and one GET) ends by then. */
export const PROBE_DEADLINE_MS = 60_000;

/** A problem of a monitor target, kept in its analysis row (assets keep theirs in security_findings). */
export interface StoredProblem extends FindingInput {
  first_seen_at: number;
}

export type MonitorAnalysisData = SslResultData & { problems: StoredProblem[] };

export function probeEnv(services: Services): ProbeEnv {
  return {
    allowPrivateTargets: services.config.allowPrivateTargets,
    resolve: services.monitoring?.resolve ?? dnsResolver(services.config.dnsResolvers),
    extraCa: services.monitoring?.extraCa,
  };
}

function subjectOf(t: TlsTarget): CertificateSubject {
  // A monitor's subject is the engine's own, so both paths warning about it make one notification.
  return t.kind === 'monitor'
    ? { id: t.id, name: t.name, actionUrl: `/monitors?monitor=${t.id}`, ref: { monitor_id: t.id } }
    : { id: t.id, name: t.name, actionUrl: `/ssl-monitoring/${t.id}`, ref: { asset_id: t.id } };
}

const RANK = ['critical', 'high', 'medium', 'low', 'info'] as const;

function newProblems(t: TlsTarget, opened: FindingInput[], checkedAt: number): NotificationDraft | null {
  // An expiring certificate is announced by its threshold warning, not a second time here.
  const fresh = opened.filter((f) => f.key !== EXPIRING_KEY);
  if (fresh.length === 0) return null;
  const severity = RANK.find((r) => fresh.some((f) => f.severity === r)) ?? 'info';
  return {
    type: 'ssl_warning',
    severity,
    title: fresh.length === 1 ? `TLS problem on ${t.name}: ${fresh[0].title}` : `${fresh.length} new TLS problems on ${t.name}`,
    message: fresh.map((f) => `${f.title} (${f.evidence})`).join('\n'),
    details: null,
    metadata: { ...subjectOf(t).ref, host: t.host, port: t.port, findings: fresh.map((f) => f.key) },
    actionUrl: subjectOf(t).actionUrl,
    dedupeKey: `ssl:${t.id}:problems:${checkedAt}`,
  };
}

/** Analyses one target now; answers its grade and the keys of the problems it newly opened. */
export async function analyseTlsTarget(
  services: Services,
  t: TlsTarget,
  signal: AbortSignal = AbortSignal.timeout(PROBE_DEADLINE_MS),
): Promise<{ grade: string | null; opened: string[] }> {
  const port = t.kind === 'asset' ? (services.monitoring?.assetTlsPort?.(t.host) ?? t.port) : t.port;
  const env = probeEnv(services);
  if (t.kind === 'asset') {
    const asset = await securityAssetsRepo(services.db).get(t.company_id, t.id);
    if (!asset || asset.verified_at === null) throw new DomainError('conflict', `${t.host} is not verified: nothing was contacted.`);
    const bound = await checkBoundAddresses(services, asset, signal);
    if (!bound.ok) throw new DomainError('conflict', `The proof of control of this host needs renewing: ${bound.reason}`);
    env.resolve = bound.resolve;
  }
  const probe = await probeTls(t.host, port, env, signal);
  const now = services.now();
  const grade = gradeTls(probe, now);
  const findings = tlsFindings(probe, now);
  const data = sslResultData(probe, grade);
  return withTransaction(services.db, async (tx) => {
    let opened: FindingInput[];
    if (t.kind === 'asset') {
      const repo = securityFindingsRepo(tx);
      await repo.saveResult({
        asset_id: t.id,
        source: 'ssl',
        company_id: t.company_id,
        checked_at: now,
        grade: grade.grade,
        data: JSON.stringify(data),
      });
      opened = (await repo.record({ id: t.id, company_id: t.company_id }, 'ssl', findings, now)).opened;
    } else {
      const repo = tlsAnalysesRepo(tx);
      const before = await repo.get(t.id);
      const seen = new Map((before ? (JSON.parse(before.data) as MonitorAnalysisData).problems : []).map((p) => [p.key, p.first_seen_at]));
      const problems = findings.map((f) => ({ ...f, first_seen_at: seen.get(f.key) ?? now }));
      opened = findings.filter((f) => !seen.has(f.key));
      await repo.save({
        monitor_id: t.id,
        company_id: t.company_id,
        checked_at: now,
        grade: grade.grade,
        data: JSON.stringify({ ...data, problems }),
      });
    }
    const notify = notifyIn(tx, now);
    const expiry = data.cert_expires_at === null ? null : expiryWarning(subjectOf(t), data.cert_expires_at, now, t.thresholds);
    if (expiry) await notify(t.company_id, expiry);
    const problemsDraft = newProblems(t, opened, now);
    if (problemsDraft) await notify(t.company_id, problemsDraft);
    return { grade: grade.grade, opened: opened.map((f) => f.key) };
  });
}
