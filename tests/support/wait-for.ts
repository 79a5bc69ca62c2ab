// Waiting for a condition instead of for time: tests poll what a user could observe (a mail in
// the sink, a row, a status) until it holds, so they pass as soon as it does and hold on a
// loaded machine. The deadline only turns a hang into a clear failure; it never decides a pass.
// Real timers are taken at load, so polling still works while a test fakes setTimeout or Date.

const realSetTimeout = globalThis.setTimeout;
const monotonicMs = () => performance.now();

export interface WaitOptions {
  /** Fail after this long (default 20 s: generous, since a passing test never waits it out) */
  timeoutMs?: number;
  /** Time between two probes (default 10 ms) */
  intervalMs?: number;
  /** What is awaited, for the failure message */
  what?: string;
}

/** Not there yet: the probe answers undefined, null or false. */
type Ready<T> = Exclude<T, undefined | null | false>;

/**
 * Probes until `probe` answers something other than undefined, null or false, and answers that.
 * Throws `waited N ms for <what>` (with the last answer or error) when the deadline passes.
 */
export async function waitFor<T>(probe: () => T | Promise<T>, opts: WaitOptions | number = {}): Promise<Ready<T>> {
  const { timeoutMs = 20_000, intervalMs = 10, what = probe.toString() } = typeof opts === 'number' ? { timeoutMs: opts } : opts;
  const start = monotonicMs();
  let last: unknown;
  for (;;) {
    try {
      last = await probe();
      if (last !== undefined && last !== null && last !== false) return last as Ready<T>;
    } catch (e) {
      last = e;
    }
    if (monotonicMs() - start > timeoutMs) {
      const seen = last instanceof Error ? `error ${last.message}` : `last answer ${JSON.stringify(last)}`;
      throw new Error(`waited ${timeoutMs} ms for ${what} (${seen})`);
    }
    await new Promise((r) => realSetTimeout(r, intervalMs));
  }
}
