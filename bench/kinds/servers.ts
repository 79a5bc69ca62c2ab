// bench/kinds's loopback servers in their own process (their CPU is not the checkers'): starts
// every entry of targets.ts and prints one JSON line, kind → its BenchTarget. Ends on SIGTERM.
import { TARGETS, type BenchTarget } from './targets.ts';

const out: Record<string, BenchTarget | { error: string }> = {};
for (const [kind, start] of Object.entries(TARGETS)) {
  try {
    out[kind] = await start!();
  } catch (e) {
    out[kind] = { error: e instanceof Error ? e.message : String(e) };
  }
}
process.stdout.write(`${JSON.stringify(out)}\n`);
process.on('SIGTERM', () => process.exit(0));
