// The probe's figures over its whole run, logged when it stops (and read by bench/probes): how
// many checks ran and how late they started (scheduling lag), how many results the platform took
// and how long each delivery call took. Whole milliseconds in fixed buckets, so a long run costs
// the same memory as a short one.
const MAX_MS = 120_000;

class Histogram {
  private counts = new Uint32Array(MAX_MS + 1);
  private n = 0;
  private top = 0;
  add(ms: number): void {
    const b = Math.min(MAX_MS, Math.max(0, Math.round(ms)));
    this.counts[b]++;
    this.n++;
    if (ms > this.top) this.top = ms;
  }
  get count(): number {
    return this.n;
  }
  quantile(q: number): number {
    if (this.n === 0) return 0;
    const want = Math.ceil(this.n * q);
    let seen = 0;
    for (let i = 0; i <= MAX_MS; i++) {
      seen += this.counts[i];
      if (seen >= want) return i;
    }
    return MAX_MS;
  }
  get max(): number {
    return Math.round(this.top);
  }
}

export class RunFigures {
  readonly lag = new Histogram();
  readonly delivery = new Histogram();
  delivered = 0;
  private readonly started = Date.now();

  /** One line: "run 300 s: 100000 checks (333.3/s), lag p50 1 ms p99 12 ms max 40 ms; 99500 results delivered in 200 calls, p50 30 ms p99 80 ms" */
  summary(now = Date.now()): string {
    const secs = Math.max(0.001, (now - this.started) / 1000);
    const l = this.lag;
    const d = this.delivery;
    return (
      `run ${Math.round(secs)} s: ${l.count} checks (${(l.count / secs).toFixed(1)}/s), lag p50 ${l.quantile(0.5)} ms p99 ${l.quantile(0.99)} ms max ${l.max} ms; ` +
      `${this.delivered} results delivered in ${d.count} calls, p50 ${d.quantile(0.5)} ms p99 ${d.quantile(0.99)} ms max ${d.max} ms`
    );
  }
}
