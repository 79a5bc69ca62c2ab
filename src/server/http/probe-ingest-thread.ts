// The probe ingest thread (PROBE_INGEST_PORT; started by probe-ingest.ts): the probes' own calls
// (hello, assignments, results) on a port of their own, served by this thread's event loop, its
// own database connection and its own copy of the app restricted to those paths, so a call never
// waits out the main event loop's pauses while it serves thousands of status-page requests a
// second. The batch of a delivery call is taken (ids claimed, results into the inbox):
// - on PostgreSQL here, on this thread's connection; the main thread is then told to drain;
// - on SQLite by the main thread, handed over once read, parsed and validated here: node:sqlite
//   is synchronous, so a second writer would make the main thread sleep in SQLite's busy handler
//   whenever this one held the lock (measured: the page fell from 5,000 to 28 req/s).
// Storing the results is not this thread's: on SQLite the main thread stores them; on PostgreSQL the
// drain thread does (jobs/probe-drain.ts; the main thread forwards this thread's word to it).
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../config.ts';
import { DomainError, type ErrorCode } from '../domain/errors.ts';
import type { ProbeResultsAnswer } from '../domain/probes/result-batch.ts';
import { createServices, openConfiguredDb } from '../services.ts';
import { buildApp } from './app.ts';
import type { IngestThreadData, MainMessage, IngestThreadMessage } from './probe-ingest-messages.ts';

const port = parentPort;
if (!port) throw new Error('probe-ingest-thread.ts runs as a worker thread (probe-ingest.ts starts it)');
const data = workerData as IngestThreadData;
const send = (m: IngestThreadMessage) => port.postMessage(m);

const waiting = new Map<number, { resolve(a: ProbeResultsAnswer): void; reject(e: Error): void }>();
let nextCall = 0;

try {
  const { config }: { config: Config } = data;
  const db = openConfiguredDb(config, { secondConnection: true });
  const services = await createServices(config, { db });
  if (db.kind === 'sqlite')
    services.probeResultsVia = (presented, input) =>
      new Promise((resolve, reject) => {
        const call = ++nextCall;
        waiting.set(call, { resolve, reject });
        send({ type: 'results', call, presented, input });
      });
  else services.probeInboxLanded = () => send({ type: 'inbox' });
  const app = await buildApp({ services, probeCallsOnly: true, logger: false });
  await app.listen({ port: data.port, host: data.host });
  const address = app.server.address();
  send({ type: 'listening', port: typeof address === 'object' && address ? address.port : data.port });
  port.on('message', async (m: MainMessage) => {
    if (m.type === 'answer' || m.type === 'refused') {
      const w = waiting.get(m.call);
      waiting.delete(m.call);
      if (m.type === 'answer') w?.resolve(m.answer);
      else
        w?.reject(
          m.code ? new DomainError(m.code as ErrorCode, m.detail, m.fields ? { fields: m.fields } : undefined) : new Error(m.detail),
        );
      return;
    }
    await app.close();
    for (const w of waiting.values()) w.reject(new DomainError('unavailable', 'The platform is stopping: send the batch again.'));
    for (const hook of services.onShutdown ?? []) await hook();
    await services.db.close();
    port.close();
  });
} catch (e) {
  send({ type: 'failed', error: e instanceof Error ? e.message : String(e) });
}
