// One check of a monitor that is not saved (the console's Test now): the kind's checker, the
// same SSRF guard, limits, resolver and deadline as the engine's checks, and nothing stored.
import type { MonitorType } from '../db/schema/monitoring.ts';
import { DEFAULT_LIMITS, failed, type CheckEnv, type CheckOutcome } from './checkers/types.ts';
import { dnsResolver } from '../net/dns-lookup.ts';
import { configuredRdapDirectory } from '../net/rdap-bootstrap.ts';
import { monitorLinksRepo } from '../db/repositories/monitor-links-repo.ts';
import { KINDS } from './kinds/index.ts';
import { hostSecretsKey, openSecrets } from './kinds/secret-box.ts';
import { companySecrets } from './company-secrets.ts';
import type { EngineHost } from './ports.ts';
import type { StepResult } from './kinds/synthetic-run.ts';

export interface UnsavedMonitor {
  type: MonitorType;
  config: object;
  timeoutSeconds: number;
  intervalSeconds: number;
  /** The company whose secrets its steps may name (api_flow, browser); null: none */
  companyId?: string | null;
  /** Each step's result as it is known (synthetic kinds; CheckEnv.onStep) */
  onStep?: (step: StepResult) => void;
}

export async function checkOnce(host: EngineHost, m: UnsavedMonitor): Promise<CheckOutcome> {
  const timeoutMs = m.timeoutSeconds * 1000;
  const env: CheckEnv = {
    now: () => host.now(),
    allowPrivateTargets: host.config.allowPrivateTargets,
    resolve: host.monitoring?.resolve ?? dnsResolver(host.config.dnsResolvers),
    dnsServers: host.config.dnsResolvers,
    rdap: configuredRdapDirectory(host.config.rdapBootstrapFile, host.config.rdapBaseUrls),
    memberStatuses: (ids) => monitorLinksRepo(host.db).statusesOf(ids),
    extraCa: host.monitoring?.extraCa,
    limits: DEFAULT_LIMITS,
    secrets: companySecrets(host.db, hostSecretsKey(host.config), m.companyId ?? null),
    ...(m.onStep ? { onStep: m.onStep } : {}),
  };
  const abort = new AbortController();
  const timedOut = () => failed(`Timed out after ${timeoutMs / 1000} s`);
  let hardTimer: NodeJS.Timeout | undefined;
  const deadline = setTimeout(() => abort.abort(), timeoutMs);
  // A checker that ignores its signal still ends shortly after the deadline, as in the engine.
  const hard = new Promise<CheckOutcome>((resolve) => {
    hardTimer = setTimeout(() => resolve(timedOut()), timeoutMs + 1000);
  });
  try {
    const now = host.now();
    // The validated config holds sealed credentials, as a saved monitor's would.
    const opened = openSecrets(m.config, hostSecretsKey(host.config));
    if (opened.error !== null) return failed(opened.error);
    const target = {
      id: 'unsaved',
      type: m.type,
      config: opened.config,
      timeoutMs,
      lastPushAt: null,
      intervalMs: m.intervalSeconds * 1000,
      createdAt: now,
    };
    return await Promise.race([KINDS[m.type].check(target as never, env, abort.signal), hard]);
  } catch {
    return failed('The check could not be completed');
  } finally {
    clearTimeout(deadline);
    clearTimeout(hardTimer);
  }
}
