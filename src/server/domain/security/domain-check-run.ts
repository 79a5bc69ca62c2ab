// Runs the domain checks of one verified domain asset and records what they saw, in one
// transaction: the latest result (source 'dns', with the record snapshot and when each record
// set last changed), the findings, and `dns_warning` notifications at the registration expiry
// thresholds (30, 14, 7 and 1 days, once each per expiry date), on record changes and on new
// problems. Also picks the domains due: each is checked once a day at its own time of day.
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { dnsResolver } from '../../net/dns-lookup.ts';
import { internalDnsName } from '../../net/ssrf.ts';
import { securityAssetsRepo, type SecurityAssetRow } from '../../db/repositories/security-assets-repo.ts';
import { securityFindingsRepo, type SecurityFindingRow } from '../../db/repositories/security-findings-repo.ts';
import { domainSettingsRepo } from '../../db/repositories/domain-settings-repo.ts';
import { withTransaction } from '../../db/scope.ts';
import { notifyIn, type NotificationDraft } from '../../notify/notify.ts';
import { checkDomain, type DomainCheckEnv, type DomainReport } from '../../security/domains/domain-check.ts';
import { daysLeft, domainFindings } from '../../security/domains/findings.ts';
import { rdapDirectory, readBootstrap, SHIPPED_BOOTSTRAP, type RdapDirectory } from '../../net/rdap-bootstrap.ts';
import {
  describeChange,
  diffSnapshots,
  RECORD_SETS,
  type RecordChange,
  type RecordSet,
  type Snapshot,
} from '../../security/domains/records.ts';
import type { Services } from '../context.ts';

export const DAY_MS = 86_400_000;
/** Days before registration expiry that warn, each once per expiry date */
export const EXPIRY_THRESHOLDS = [30, 14, 7, 1] as const;
/** One domain's whole check, registration and every record included */
const CHECK_TIMEOUT_MS = 30_000;

/** The result data of source 'dns' (security_results.data); the /security overview reads the first two fields. */
export interface DomainResultData {
  registration_expires_at: number | null;
  registrar: string | null;
  registered_at: number | null;
  registration_status: string[];
  registry_nameservers: string[];
  rdap_error: string | null;
  records: Snapshot;
  /** When each record set last changed (null: not since the first check) */
  record_changed_at: Record<RecordSet, number | null>;
  /** The changes the latest run that saw any found, and when */
  last_changes: { at: number; changes: RecordChange[] } | null;
  spf: { record: string | null; count: number; all: string | null; lookups: number; mechanisms: string[]; broken: string[] } | null;
  dmarc: { record: string | null; policy: string | null; subdomain_policy: string | null; pct: number; rua: string[] } | null;
  dkim: Array<{ selector: string; status: string; key_type: string | null }>;
  mta_sts: { id: string; mode: string | null; error: string | null } | null;
  dnssec: { status: string; validated: boolean };
  cnames: Array<{ name: string; target: string; dangling: boolean }>;
  /** Expiry thresholds already warned about, for this expiry date */
  expiry_warned: { expires_at: number | null; days: number[] };
}

const directories = new Map<string, RdapDirectory>();

/** The RDAP directory of the configuration (the bootstrap file read once per process). */
function directoryOf(services: Services): RdapDirectory {
  const file = services.config.rdapBootstrapFile ?? fileURLToPath(SHIPPED_BOOTSTRAP);
  const key = `${file}\n${JSON.stringify(services.config.rdapBaseUrls)}`;
  let d = directories.get(key);
  if (!d) {
    d = rdapDirectory(readBootstrap(file), services.config.rdapBaseUrls);
    directories.set(key, d);
  }
  return d;
}

export function domainCheckEnv(services: Services): DomainCheckEnv {
  return {
    dnsServers: services.config.dnsResolvers,
    allowPrivateTargets: services.config.allowPrivateTargets,
    resolve: services.monitoring?.resolve ?? dnsResolver(services.config.dnsResolvers),
    extraCa: services.monitoring?.extraCa,
    rdap: directoryOf(services),
    mtaStsPort: services.securityDomains?.mtaStsPort,
    timeoutMs: CHECK_TIMEOUT_MS,
  };
}

const under = (name: string, domain: string) => name === domain || name.endsWith(`.${domain}`);

/** The names whose CNAMEs are watched: the company's verified hosts under the domain and the admin's names. */
async function namesUnder(services: Services, asset: SecurityAssetRow, watched: string[]): Promise<string[]> {
  const hosts = (await securityAssetsRepo(services.db).listVerified(asset.company_id))
    .filter((a) => a.kind === 'host' && under(a.hostname, asset.hostname) && a.hostname !== asset.hostname)
    .map((a) => a.hostname);
  return [...new Set([...hosts, ...watched])].sort();
}

function resultData(r: DomainReport, before: DomainResultData | null, now: number): Omit<DomainResultData, 'expiry_warned'> {
  const changes = diffSnapshots(before?.records ?? null, r.records);
  const changedAt = Object.fromEntries(
    RECORD_SETS.map((s) => [s, changes.some((c) => c.set === s) ? now : (before?.record_changed_at[s] ?? null)]),
  ) as Record<RecordSet, number | null>;
  return {
    registration_expires_at: r.registration?.expiresAt ?? null,
    registrar: r.registration?.registrar ?? null,
    registered_at: r.registration?.registeredAt ?? null,
    registration_status: r.registration?.status ?? [],
    registry_nameservers: r.registration?.nameservers ?? [],
    rdap_error: r.rdapError,
    records: r.records,
    record_changed_at: changedAt,
    last_changes: changes.length ? { at: now, changes } : (before?.last_changes ?? null),
    spf: r.spf && {
      record: r.spf.record,
      count: r.spf.count,
      all: r.spf.all,
      lookups: r.spf.lookups,
      mechanisms: r.spf.terms.map(
        (t) =>
          `${t.qualifier === '+' ? '' : t.qualifier}${t.name}${t.value === null ? '' : `${/^(redirect|exp)$/.test(t.name) ? '=' : ':'}${t.value}`}`,
      ),
      broken: r.spf.broken,
    },
    dmarc: r.dmarc && {
      record: r.dmarc.record,
      policy: r.dmarc.policy,
      subdomain_policy: r.dmarc.subdomainPolicy,
      pct: r.dmarc.pct,
      rua: r.dmarc.rua,
    },
    dkim: r.dkim.map((k) => ({ selector: k.selector, status: k.status, key_type: k.keyType })),
    mta_sts: r.mtaSts,
    dnssec: r.dnssec,
    cnames: r.cnames,
  };
}

const SEVERITY_ORDER = ['info', 'low', 'medium', 'high', 'critical'] as const;
const worst = (rows: SecurityFindingRow[]) =>
  rows.reduce(
    (w, f) => (SEVERITY_ORDER.indexOf(f.severity) > SEVERITY_ORDER.indexOf(w) ? f.severity : w),
    'info' as SecurityFindingRow['severity'],
  );

function draft(
  asset: SecurityAssetRow,
  key: string,
  d: Pick<NotificationDraft, 'severity' | 'title' | 'message'> & { metadata: Record<string, unknown> },
): NotificationDraft {
  return {
    type: 'dns_warning',
    details: null,
    actionUrl: `/domain-checks?domain=${asset.id}`,
    dedupeKey: `domain:${asset.id}:${key}`,
    ...d,
    metadata: { asset_id: asset.id, domain: asset.hostname, ...d.metadata },
  };
}

/** The threshold to warn about now (the most urgent newly crossed), and the thresholds then warned. */
export function expiryWarning(
  expiresAt: number | null,
  prior: DomainResultData['expiry_warned'] | undefined,
  now: number,
): { warn: number | null; warned: DomainResultData['expiry_warned'] } {
  if (expiresAt === null) return { warn: null, warned: { expires_at: null, days: [] } };
  const before = prior && prior.expires_at === expiresAt ? prior.days : [];
  const days = daysLeft(expiresAt, now);
  const crossed = EXPIRY_THRESHOLDS.filter((t) => days <= t);
  const fresh = crossed.filter((t) => !before.includes(t));
  return {
    warn: fresh.length ? Math.min(...fresh) : null,
    warned: { expires_at: expiresAt, days: [...new Set([...before, ...crossed])].sort((a, b) => b - a) },
  };
}

/** Checks one domain asset now, if it is (still) verified; answers false when it was not checked. */
export async function runDomainCheck(services: Services, assetId: string): Promise<boolean> {
  const asset = await securityAssetsRepo(services.db).get(null, assetId);
  if (asset?.kind !== 'domain' || asset.verified_at === null) return false;
  // An internal zone (.internal, .lan, a private reverse zone) would have the platform's resolver
  // describe its own network; refused unless the operator opened private targets.
  if (internalDnsName(asset.hostname, services.config.allowPrivateTargets)) return false;
  const settings = await domainSettingsRepo(services.db).get(asset.id);
  const report = await checkDomain(
    {
      domain: asset.hostname,
      names: await namesUnder(services, asset, settings ? (JSON.parse(settings.watched_names) as string[]) : []),
      dkimSelectors: settings ? (JSON.parse(settings.dkim_selectors) as string[]) : [],
    },
    domainCheckEnv(services),
  );
  const now = services.now();
  await withTransaction(services.db, async (tx) => {
    const findings = securityFindingsRepo(tx);
    const previous = await findings.getResult(asset.id, 'dns');
    const before = previous ? (JSON.parse(previous.data) as DomainResultData) : null;
    const data = resultData(report, before, now);
    const expiry = expiryWarning(data.registration_expires_at, before?.expiry_warned, now);
    await findings.saveResult({
      asset_id: asset.id,
      source: 'dns',
      company_id: asset.company_id,
      checked_at: now,
      grade: null,
      data: JSON.stringify({ ...data, expiry_warned: expiry.warned } satisfies DomainResultData),
    });
    const change = await findings.record(asset, 'dns', domainFindings(asset.hostname, report, now), now);
    const notify = notifyIn(tx, now);
    if (expiry.warn !== null && data.registration_expires_at !== null) {
      const expired = data.registration_expires_at <= now;
      const left = daysLeft(data.registration_expires_at, now);
      const date = new Date(data.registration_expires_at).toISOString().slice(0, 10);
      await notify(
        asset.company_id,
        draft(asset, `expiry:${data.registration_expires_at}:${expiry.warn}`, {
          severity: expired || expiry.warn === 1 ? 'critical' : expiry.warn === 7 ? 'high' : 'medium',
          title: expired
            ? `The registration of ${asset.hostname} has expired`
            : `The registration of ${asset.hostname} expires in ${left} day${left === 1 ? '' : 's'}`,
          message: `Registrar: ${data.registrar ?? 'unknown'}. Expiry date (RDAP): ${date}.`,
          metadata: { threshold_days: expiry.warn, expires_at: data.registration_expires_at },
        }),
      );
    }
    if (before && data.last_changes?.at === now) {
      await notify(
        asset.company_id,
        draft(asset, `changed:${now}`, {
          severity: 'medium',
          title: `DNS records of ${asset.hostname} changed`,
          message: data.last_changes.changes.map(describeChange).join('\n'),
          metadata: { changes: data.last_changes.changes },
        }),
      );
    }
    // Registration findings are announced by the expiry warnings above, once per threshold.
    const problems = change.opened.filter((f) => !f.key.startsWith('registration.'));
    if (problems.length) {
      await notify(
        asset.company_id,
        draft(asset, `problems:${now}`, {
          severity: worst(problems),
          title: problems.length === 1 ? problems[0].title : `${problems.length} new DNS problems on ${asset.hostname}`,
          message: problems.map((f) => f.title).join('\n'),
          metadata: { finding_keys: problems.map((f) => f.key) },
        }),
      );
    }
  });
  return true;
}

/** The moment of the day (ms after midnight UTC) a domain is checked: spread by its id. */
export function dailySlot(assetId: string): number {
  return createHash('sha256').update(assetId).digest().readUInt32BE(0) % DAY_MS;
}

/** Whether a domain last checked at `checkedAt` is due at `now`: never checked, or not since its latest slot. */
export function isDue(assetId: string, checkedAt: number | null, now: number): boolean {
  if (checkedAt === null) return true;
  const slot = dailySlot(assetId);
  const latestSlot = now - ((((now - slot) % DAY_MS) + DAY_MS) % DAY_MS);
  return checkedAt < latestSlot;
}

/** Verified domain assets due for their daily check, at most `limit`. */
export async function dueDomains(services: Services, now: number, limit: number): Promise<string[]> {
  const assets = (await securityAssetsRepo(services.db).listVerified()).filter((a) => a.kind === 'domain');
  const checked = new Map(
    (await securityFindingsRepo(services.db).listResults(null, 'dns')).map((r) => [r.asset_id, Number(r.checked_at)]),
  );
  return assets
    .filter((a) => isDue(a.id, checked.get(a.id) ?? null, now))
    .sort((a, b) => (checked.get(a.id) ?? 0) - (checked.get(b.id) ?? 0))
    .slice(0, limit)
    .map((a) => a.id);
}
