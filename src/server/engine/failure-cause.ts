// Why a check failed, when the failure has a cause other warnings can be about too: a
// certificate the check refused (ssl monitors, https checks) is what "Certificate … is invalid",
// the TLS analysis's problems and its expiry warnings are about as well. The monitor keeps the
// cause of its latest result (monitors.failure_cause), so those warnings join the incident the
// failure opens instead of notifying on their own (notify/related-signals.ts). Pure.
import type { CheckOutcome } from './checkers/types.ts';

export type FailureCause = 'certificate';

/** The cause of a failing result, or null (operational, degraded, or a failure with no shared cause). */
export function failureCause(outcome: Pick<CheckOutcome, 'status' | 'detail'>): FailureCause | null {
  if (outcome.status !== 'down') return null;
  if (outcome.detail?.certValid === false) return 'certificate';
  return null;
}
