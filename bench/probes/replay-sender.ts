// The replay half of `bench:probes --scenario replay` (run.ts starts it as a process of its own):
// sends delivery calls that five real probes made (recorded by run.ts), at the moments relative to
// each other that the probes made them, to the platform's ingest port, round after round of the
// recording, and times each call. Each round gives the results new ids (a probe's stream ids
// `p1:<stream>:<seq>` get a stream of their own per round, `<stream>rN`, so they stay in the
// stream form the platform takes by their mark; any other id gets `.rN` appended) and moves
// their check times on by the rounds' length, so the platform takes every call as new results
// checked now: the bodies, their sizes and their mix are the probes', only ids and times change.
// This process does nothing else, so a call's time is the platform's answer, not this sender's
// own pauses (a probe that also runs 333 checks a second delays reading its answers: measured
// 127-830 ms lag p99 in the five-probe run on this box).
// Usage (by run.ts): node replay-sender.ts <recording.jsonl> <ingest url> <warm-up s> <measured s>
// Prints one JSON line: { calls, sent, p50, p99, max, errors } for the calls begun after warm-up.
import { readFileSync } from 'node:fs';
import { parseStreamResultId, streamResultId } from '../../src/lib/probe-result-ids.ts';
import { setTimeout as sleep } from 'node:timers/promises';

interface Recorded {
  /** ms since the recording began */
  at: number;
  /** Date.now() when the probe made the call */
  wall: number;
  authorization: string;
  body: { stats: unknown; results: Array<{ id: string; checked_at: number } & Record<string, unknown>> };
}

const [file, url, warmupS, secondsS] = process.argv.slice(2);
const calls = readFileSync(file, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Recorded);
if (calls.length === 0) throw new Error('replay: the recording holds no calls');
const span = Math.max(...calls.map((c) => c.at)) + 1000;
const warmupMs = Number(warmupS) * 1000;
const endMs = warmupMs + Number(secondsS) * 1000;
const times: number[] = [];
let errors = 0;
let sent = 0;
const inFlight = new Set<Promise<void>>();
const t0 = performance.now();
const wall0 = Date.now();

function roundId(id: string, round: number): string {
  const s = parseStreamResultId(id);
  return s ? streamResultId(`${s.stream}r${round}`, s.seq) : `${id}.r${round}`;
}

async function send(c: Recorded, round: number, measured: boolean): Promise<void> {
  // As long after the check as when the probe sent it.
  const shift = wall0 + round * span + c.at - c.wall;
  const body = JSON.stringify({
    stats: c.body.stats,
    results: c.body.results.map((r) => ({ ...r, id: roundId(r.id, round), checked_at: Math.round(r.checked_at + shift) })),
  });
  const start = performance.now();
  try {
    const res = await fetch(`${url}/api/v1/probe/results`, {
      method: 'POST',
      headers: { authorization: c.authorization, 'content-type': 'application/json' },
      body,
    });
    const answer = (await res.json()) as { accepted?: number };
    if (!res.ok) errors++;
    else sent += answer.accepted ?? 0;
  } catch {
    errors++;
  }
  if (measured) times.push(performance.now() - start);
}

for (let round = 0; ; round++) {
  let done = false;
  for (const c of calls) {
    const due = round * span + c.at;
    if (due >= endMs) {
      done = true;
      break;
    }
    const wait = due - (performance.now() - t0);
    if (wait > 0) await sleep(wait);
    const p = send(c, round, due >= warmupMs);
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  }
  if (done) break;
}
await Promise.all(inFlight);
times.sort((a, b) => a - b);
const q = (x: number) => Math.round(times[Math.min(times.length - 1, Math.floor(x * times.length))] ?? Number.NaN);
process.stdout.write(
  `${JSON.stringify({ calls: times.length, sent, p50: q(0.5), p99: q(0.99), max: Math.round(times.at(-1) ?? Number.NaN), errors })}\n`,
);
