// Runs one check under its deadline, for the engine (scheduler.ts) and the probe process
// (src/probe) alike: the checker gets an abort signal at the monitor's time-out, and a checker
// that ignores it still ends (a failed outcome 250 ms after the abort, or 1 s after the time-out),
// so a check never holds its slot past its deadline. A checker that throws is a bug: `onBug` gets
// the error for the operator's log and the outcome is a product sentence.
import { type Checker, type CheckEnv, type CheckOutcome, type CheckTarget, failed } from './types.ts';

export async function runChecker(
  checker: Checker,
  target: CheckTarget,
  env: CheckEnv,
  abort: AbortController,
  onBug: (e: Error) => void,
): Promise<CheckOutcome> {
  const timeoutMs = target.timeoutMs;
  const deadline = setTimeout(() => abort.abort(), timeoutMs);
  // Cleared with the deadline: a pending timer would hold the finished check (its request,
  // socket and agent, through the signal) for the whole timeout, 9,000 checks at 833 a second.
  let hardTimer: NodeJS.Timeout | undefined;
  try {
    const hard = new Promise<CheckOutcome>((resolve) => {
      // A checker that ignores its signal still ends: the slot is never held past the deadline.
      hardTimer = setTimeout(() => resolve(failed(`Timed out after ${timeoutMs / 1000} s`)), timeoutMs + 1000);
      abort.signal.addEventListener(
        'abort',
        () =>
          setTimeout(() => {
            clearTimeout(hardTimer);
            resolve(failed(`Timed out after ${timeoutMs / 1000} s`));
          }, 250),
        { once: true },
      );
    });
    return await Promise.race([checker(target, env, abort.signal), hard]);
  } catch (e) {
    onBug(e as Error);
    return failed('The check could not be completed');
  } finally {
    clearTimeout(deadline);
    clearTimeout(hardTimer);
  }
}
