// Starts the real, built server as a child process on a free loopback port with a fresh data
// directory, for end-to-end tests and benchmarks.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../support/pg-cluster.ts';

export interface RunningServer {
  port: number;
  dataDir: string;
  baseUrl: string;
  proc: ChildProcess;
  /** everything the server wrote to stdout and stderr so far */
  output(): string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(os.tmpdir(), 'sw-e2e-'));
  const proc = spawn(process.execPath, ['src/server/main.ts'], {
    cwd: path.resolve(import.meta.dirname, '../../..'),
    // No per-destination budget (the API suite tests it): every spec's monitors check loopback
    // targets on 127.0.0.1, many every second, which the default budget would refuse.
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      DATA_DIR: dataDir,
      MAX_CHECKS_PER_HOST_PER_MINUTE: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  proc.stdout!.on('data', (d) => (output += d));
  proc.stderr!.on('data', (d) => (output += d));
  const baseUrl = `http://localhost:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode}: ${output}`);
    try {
      const r = await fetch(`http://127.0.0.1:${port}/readyz`);
      if (r.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not become ready: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    port,
    dataDir,
    baseUrl,
    proc,
    output: () => output,
    stop(signal = 'SIGTERM') {
      return new Promise((resolve) => {
        if (proc.exitCode !== null) return resolve(proc.exitCode);
        proc.once('exit', (code) => resolve(code));
        proc.kill(signal);
      });
    },
  };
}
