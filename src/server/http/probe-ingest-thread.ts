// The probe ingest thread (PROBE_INGEST_PORT; started by probe-ingest.ts): the probes' own calls
// (hello, assignments, results) on a port of their own, served by this thread's event loop, its
// own database connection and its own copy of the app restricted to those paths. A delivery call
// here claims its ids and lands its results in the inbox (domain/probes/results.ts) without
// waiting on the main thread, which may be busy serving thousands of status-page requests a
// second; the main thread is then told to drain the inbox (storing results stays in one place:
// its metrics, live streams and caches see every result as before).
import { parentPort, workerData } from 'node:worker_threads';
import type { Config } from '../config.ts';
import { openDb } from '../db/connect.ts';
import { createServices } from '../services.ts';
import { buildApp } from './app.ts';

export interface IngestThreadData {
  config: Config;
  port: number;
  host: string;
}

export type IngestThreadMessage = { type: 'listening'; port: number } | { type: 'inbox' } | { type: 'failed'; error: string };

const port = parentPort;
if (!port) throw new Error('probe-ingest-thread.ts runs as a worker thread (probe-ingest.ts starts it)');
const data = workerData as IngestThreadData;
const send = (m: IngestThreadMessage) => port.postMessage(m);

try {
  const { config } = data;
  const db = config.databaseUrl
    ? openDb({ kind: 'postgres', url: config.databaseUrl, max: 4 })
    : openDb({ kind: 'sqlite', file: config.sqlitePath, checkpointedElsewhere: true });
  const services = await createServices(config, { db });
  services.probeInboxLanded = () => send({ type: 'inbox' });
  const app = await buildApp({ services, probeCallsOnly: true, logger: false });
  await app.listen({ port: data.port, host: data.host });
  const address = app.server.address();
  send({ type: 'listening', port: typeof address === 'object' && address ? address.port : data.port });
  port.on('message', async (m: unknown) => {
    if (m !== 'stop') return;
    await app.close();
    for (const hook of services.onShutdown ?? []) await hook();
    await services.db.close();
    port.close();
  });
} catch (e) {
  send({ type: 'failed', error: e instanceof Error ? e.message : String(e) });
}
