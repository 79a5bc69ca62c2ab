// Starts the probe ingest thread (probe-ingest-thread.ts) when PROBE_INGEST_PORT is set: probes
// pointed at that port (PROBE_URL) have their calls answered by a thread of their own, so an
// ingest call's latency no longer includes the main event loop's pauses under page load (issue
// 27: 133 ms p99 with 5 probes while the page served 5,000 req/s, the call's own work being ~8 ms).
// The main port keeps serving the same calls for probes pointed at it.
import { Worker } from 'node:worker_threads';
import type { Services } from '../domain/context.ts';
import { kickInbox } from '../domain/probes/inbox.ts';
import type { IngestThreadData, IngestThreadMessage } from './probe-ingest-thread.ts';

export interface ProbeIngest {
  /** The port it listens on (the configured one, or the one given for 0 in tests) */
  port: number;
  stop(): Promise<void>;
}

export async function startProbeIngest(
  services: Services,
  opts: { port: number; host: string; log(m: string): void },
): Promise<ProbeIngest> {
  const data: IngestThreadData = { config: services.config, port: opts.port, host: opts.host };
  const worker = new Worker(new URL('./probe-ingest-thread.ts', import.meta.url), { workerData: data });
  let stopping = false;
  const listening = new Promise<number>((resolve, reject) => {
    worker.on('message', (m: IngestThreadMessage) => {
      // Once stopping, what lands stays in the inbox (durable): the probe-inbox job stores it later.
      if (m.type === 'inbox') {
        if (!stopping) kickInbox(services);
      }
      else if (m.type === 'listening') resolve(m.port);
      else if (m.type === 'failed') reject(new Error(`probe ingest port ${opts.port}: ${m.error}`));
    });
    worker.once('exit', (code) => reject(new Error(`probe ingest thread ended (code ${code}) before it listened`)));
  });
  worker.on('error', (e) =>
    opts.log(`probe ingest thread failed: ${e.message}; probes on its port must use the main port until a restart`),
  );
  worker.on('exit', (code) => {
    if (!stopping) opts.log(`probe ingest thread ended (code ${code})`);
  });
  const port = await listening;
  const ingest: ProbeIngest = {
    port,
    async stop() {
      if (stopping) return;
      stopping = true;
      const exited = new Promise((r) => worker.once('exit', r));
      worker.postMessage('stop');
      await exited;
    },
  };
  // The thread's calls end before the main thread's database closes (main.ts runs these first).
  (services.onShutdown ??= []).unshift(() => ingest.stop());
  return ingest;
}
