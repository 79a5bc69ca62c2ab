// autocannon ships no types; the benchmark uses only this much of it.
declare module 'autocannon' {
  interface Histogram {
    average: number;
    p99: number;
  }
  interface Result {
    requests: Histogram & { total: number };
    latency: Histogram;
    throughput: Histogram;
    errors: number;
    non2xx: number;
  }
  interface Options {
    url: string;
    connections: number;
    duration: number;
    headers?: Record<string, string>;
    pipelining?: number;
  }
  export default function autocannon(opts: Options): Promise<Result>;
}
