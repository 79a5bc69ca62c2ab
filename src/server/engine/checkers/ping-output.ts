// Reading the summary Debian's ping (iputils) prints. Pure, so its odd and hostile forms are
// table-tested; anything that is not the summary we expect is "unreadable", never guessed at.

export interface PingSummary {
  sent: number;
  received: number;
  /** Round trips in ms; null when no reply came back */
  rtt: { min: number; avg: number; max: number } | null;
}

const COUNTS = /^(\d{1,6}) packets transmitted, (\d{1,6}) received\b/m;
const RTT = /^(?:rtt|round-trip) min\/avg\/max\/(?:mdev|stddev) = (\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)\/\d+(?:\.\d+)? ms$/m;

/** The summary in `stdout`, or null when it holds none (or one that contradicts itself). */
export function parsePingSummary(stdout: string): PingSummary | null {
  const counts = COUNTS.exec(stdout);
  if (!counts) return null;
  const sent = Number(counts[1]);
  const received = Number(counts[2]);
  if (sent < 1 || received > sent) return null;
  const rtt = RTT.exec(stdout);
  if (received > 0 && !rtt) return null;
  if (received === 0) return { sent, received, rtt: null };
  const [min, avg, max] = [Number(rtt![1]), Number(rtt![2]), Number(rtt![3])];
  if (!(min <= avg && avg <= max)) return null;
  return { sent, received, rtt: { min, avg, max } };
}

/** "2 of 3 packets lost (67 %)" */
export function lossText(s: PingSummary): string {
  const lost = s.sent - s.received;
  if (lost === s.sent) return s.sent === 1 ? 'The packet was lost' : `All ${s.sent} packets lost`;
  return `${lost} of ${s.sent} packet${s.sent === 1 ? '' : 's'} lost (${Math.round((lost / s.sent) * 100)} %)`;
}

/** "round trip min/avg/max 0.03/0.04/0.05 ms" */
export function rttText(s: PingSummary): string {
  if (!s.rtt) return '';
  const f = (ms: number) => (ms >= 100 ? String(Math.round(ms)) : String(Math.round(ms * 100) / 100));
  return `round trip min/avg/max ${f(s.rtt.min)}/${f(s.rtt.avg)}/${f(s.rtt.max)} ms`;
}
