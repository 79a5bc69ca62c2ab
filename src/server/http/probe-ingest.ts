// Starts the probe ingest thread (probe-ingest-thread.ts) when PROBE_INGEST_PORT is set: probes
// pointed at that port (PROBE_URL) have their calls answered by a thread of their own, so an
// ingest call's latency no longer includes the main event loop's pauses under page load (issue
// 27: 133 ms p99 with 5 probes while the page served 5,000 req/s, the call's own work being ~8 ms).
// The main port keeps serving the same calls for probes pointed at it.
import { Worker } from 'node:worker_threads';
import type { Services } from '../domain/context.ts';
import { DomainError } from '../domain/errors.ts';
import { kickInbox } from '../domain/probes/inbox.ts';
import { postProbeResults } from '../domain/probes/results.ts';
import type { IngestThreadData, IngestThreadMessage, MainMessage } from './probe-ingest-messages.ts';

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
  const worker = new Worker(new URL('./probe-ingest-thread.ts', import.meta.url), {
    workerData: data,
    // the thread's name in `top -H` and /proc/PID/task/TID/comm
    name: 'probe-ingest',
  });
  let stopping = false;
  const reply = (m: MainMessage) => worker.postMessage(m);
  // SQLite: the thread read, parsed and validated the call; the batch is taken here, by the database's one writer.
  const take = async (call: number, presented: string | null, input: Parameters<typeof postProbeResults>[2]) => {
    try {
      reply({ type: 'answer', call, answer: await postProbeResults(services, presented, input) });
    } catch (e) {
      if (e instanceof DomainError)
        reply({ type: 'refused', call, code: e.code, detail: e.detail, ...(e.fields ? { fields: e.fields } : {}) });
      else {
        opts.log(`probe ingest: taking a batch failed: ${e instanceof Error ? e.message : String(e)}`);
        reply({ type: 'refused', call, code: null, detail: 'taking the batch failed' });
      }
    }
  };
  const listening = new Promise<number>((resolve, reject) => {
    worker.on('message', (m: IngestThreadMessage) => {
      // Once stopping, what lands stays in the inbox (durable): the probe-inbox job stores it later.
      if (m.type === 'inbox') {
        if (!stopping) kickInbox(services);
      } else if (m.type === 'results') void take(m.call, m.presented, m.input);
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
      reply({ type: 'stop' });
      await exited;
    },
  };
  // The thread's calls end before the main thread's database closes (main.ts runs these first).
  (services.onShutdown ??= []).unshift(() => ingest.stop());
  return ingest;
}
