// One vulnerability scan of one verified host: every check of registry.ts in turn, sharing one
// paced fetcher (so the whole scan keeps the host's request rate) and one fetch of the front
// page, all within the scan's deadline. A check that fails is named in the notes; the others
// still report. The caller has checked that the host is verified.
import { networkErrorText } from '../../net/error-text.ts';
import { TargetRefused } from '../../net/ssrf.ts';
import { OffHost, politeFetcher } from './fetch.ts';
import { SCAN_CHECKS } from './registry.ts';
import type { HostPage, ScanContext, ScanEnv, ScanFinding } from './types.ts';

export interface ScanOutcome {
  findings: ScanFinding[];
  /** Checks that could not run, and why, in the product's words */
  notes: string[];
  /** HTTP requests and TCP connects made */
  requests: number;
  /** The origin whose pages were scanned; null when no web server answered */
  origin: string | null;
}

export class ScanDeadline extends Error {}

/** Why a check or a scan failed, in the product's words (never what the host sent). */
export function failureText(e: unknown): string {
  if (e instanceof TargetRefused || e instanceof OffHost || e instanceof ScanDeadline) return e.message;
  if ((e as Error | undefined)?.name === 'TimeoutError' || (e as Error | undefined)?.name === 'AbortError') return 'Timed out';
  return networkErrorText(e);
}

export async function scanHost(hostname: string, env: ScanEnv, userAgent: string): Promise<ScanOutcome> {
  const deadline = AbortSignal.timeout(env.options.deadlineMs);
  const fetcher = politeFetcher(hostname, env, userAgent, deadline);
  const origins = env.options.origins ?? [`https://${hostname}`, `http://${hostname}`];
  let home: Promise<HostPage | null> | undefined;
  const ctx: ScanContext = {
    hostname,
    env,
    fetcher,
    signal: deadline,
    home: () =>
      (home ??= (async () => {
        for (const origin of origins) {
          try {
            const r = await fetcher.get(`${origin}/`, { maxBytes: 1024 * 1024, maxRedirects: 3 });
            return { ...r, origin: new URL(r.url).origin };
          } catch {
            if (deadline.aborted) return null;
          }
        }
        return null;
      })()),
  };
  const findings: ScanFinding[] = [];
  const notes: string[] = [];
  for (const check of Object.values(SCAN_CHECKS)) {
    try {
      findings.push(...(await check.run(ctx)));
    } catch (e) {
      if (deadline.aborted) throw new ScanDeadline(`The scan did not finish within ${env.options.deadlineMs / 1000} s`);
      notes.push(`${check.label}: ${failureText(e)}`);
    }
  }
  const page = await ctx.home();
  if (!page) notes.push(`No web server answered at ${origins.join(' or ')}`);
  return { findings, notes, requests: fetcher.count(), origin: page?.origin ?? null };
}
