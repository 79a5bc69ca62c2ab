// Runs one kind's check the way the engine does (runChecker: the monitor's deadline, its abort
// signal), without a database: the kinds' checker tests call it against their loopback servers.
import { runChecker } from '../../../../src/server/engine/checkers/run.ts';
import { DEFAULT_LIMITS, type CheckOutcome } from '../../../../src/server/engine/checkers/types.ts';
import { KINDS } from '../../../../src/server/engine/kinds/index.ts';
import type { MonitorType } from '../../../../src/server/db/schema/monitoring.ts';
import type { PrivateTargets, Resolver } from '../../../../src/server/net/ssrf.ts';

/** A resolver that knows one name, for checks of a host name without a DNS server. */
export const fixedResolver =
  (answers: Record<string, string>): Resolver =>
  async (host) => {
    const address = answers[host];
    if (!address) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };

export async function checkKind(
  type: MonitorType,
  input: Record<string, unknown>,
  opts: { timeoutMs?: number; allowPrivate?: PrivateTargets; resolve?: Resolver; extraCa?: string[] } = {},
): Promise<CheckOutcome> {
  const allowPrivate = opts.allowPrivate ?? true;
  const kind = KINDS[type];
  const { config, problems } = kind.validate((k) => input[k as string] as never, { allowPrivate });
  if (Object.keys(problems).length) throw new Error(`invalid test monitor: ${JSON.stringify(problems)}`);
  const timeoutMs = opts.timeoutMs ?? 2000;
  return runChecker(
    kind.check,
    { id: 'test', type, config, timeoutMs, lastPushAt: null, intervalMs: 60_000, createdAt: Date.now() },
    {
      now: () => Date.now(),
      allowPrivateTargets: allowPrivate,
      resolve: opts.resolve ?? fixedResolver({}),
      extraCa: opts.extraCa,
      limits: DEFAULT_LIMITS,
    },
    new AbortController(),
    (e) => {
      throw e;
    },
  );
}
