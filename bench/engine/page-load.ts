// The status page's load in the server benchmarks, from a child process so its CPU is not the
// server's. Two generators: wrk (C, from Debian's package `wrk`; paced by wrk-paced.lua) and
// autocannon (Node, from the project's packages). Both offer the same requests (the company's
// Host, `accept-encoding: br, gzip`) from the same number of connections. They share the bench's
// two cores with the server, so what the generator spends the server does not get: at 5,200
// requests a second autocannon took about a third of a core, wrk far less (the runs' CPU line
// prints each), which is why wrk is the default where it is installed.
import { spawn, spawnSync } from 'node:child_process';
import path from 'node:path';

export type PageLoadGenerator = 'wrk' | 'autocannon';

export interface PageLoadResult {
  rps: number;
  p99: number;
  errors: number;
  non2xx: number;
}

/** wrk when it is on the PATH (apt-get install wrk), else autocannon. */
export function defaultPageLoad(): PageLoadGenerator {
  return hasWrk() ? 'wrk' : 'autocannon';
}

/** A --page-load option's value: wrk, autocannon, or the default when not given. */
export function pageLoadOption(value: string | undefined): PageLoadGenerator {
  if (value === undefined) return defaultPageLoad();
  if (value !== 'wrk' && value !== 'autocannon') throw new Error(`--page-load must be wrk or autocannon, not ${value}`);
  if (value === 'wrk' && !hasWrk()) throw new Error('--page-load wrk: wrk is not installed (apt-get install wrk)');
  return value;
}

export function hasWrk(): boolean {
  return spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error === undefined;
}

/**
 * Loads `url` as the company `host` for `seconds`: with `rate`, that many requests a second in
 * all (an open load, as visitors make); without, as fast as `connections` go.
 */
export function loadPage(
  url: string,
  host: string,
  seconds: number,
  connections: number,
  rate?: number,
  generator: PageLoadGenerator = 'autocannon',
): Promise<PageLoadResult> {
  return generator === 'wrk' ? wrk(url, host, seconds, connections, rate) : autocannon(url, host, seconds, connections, rate);
}

function run(cmd: string, args: string[], what: string, parse: (out: string) => PageLoadResult): Promise<PageLoadResult> {
  const proc = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  return new Promise((resolve, reject) => {
    proc.once('error', (e) => reject(new Error(`${what}: ${e.message}`)));
    proc.once('exit', () => {
      try {
        resolve(parse(out));
      } catch (e) {
        reject(new Error(`${what}: ${String(e)} ${out.slice(0, 200)}`));
      }
    });
  });
}

function autocannon(url: string, host: string, seconds: number, connections: number, rate?: number): Promise<PageLoadResult> {
  const bin = path.resolve(import.meta.dirname, '../../node_modules/autocannon/autocannon.js');
  const args = [bin, '-j', '-c', String(connections), '-d', String(seconds), '-H', `host=${host}`, '-H', 'accept-encoding=br, gzip'];
  return run(process.execPath, [...args, ...(rate ? ['-R', String(rate)] : []), url], 'autocannon', (out) => {
    const r = JSON.parse(out) as { requests: { average: number }; latency: { p99: number }; errors: number; non2xx: number };
    return { rps: r.requests.average, p99: r.latency.p99, errors: r.errors, non2xx: r.non2xx };
  });
}

function wrk(url: string, host: string, seconds: number, connections: number, rate?: number): Promise<PageLoadResult> {
  const script = path.resolve(import.meta.dirname, 'wrk-paced.lua');
  // One thread: at these rates one epoll loop in C is plenty, and a second would only take CPU.
  // Without a rate the script's pacing is a rate no loopback server reaches.
  const args = ['-t1', `-c${connections}`, `-d${seconds}s`, '-H', `Host: ${host}`, '-H', 'Accept-Encoding: br, gzip', '-s', script, url];
  return run('wrk', [...args, '--', String(rate ?? 1e7), '1'], 'wrk', (out) => {
    const line = out.split('\n').find((l) => l.startsWith('{'));
    if (!line) throw new Error('no summary');
    const r = JSON.parse(line) as { requests: number; duration_us: number; p99_us: number; errors: number; non2xx: number };
    return { rps: r.requests / (r.duration_us / 1e6), p99: Math.round(r.p99_us / 1000), errors: r.errors, non2xx: r.non2xx };
  });
}
