// The platform's one process: configuration, database, HTTP (API + pages), the check engine and
// the timed jobs. Stops cleanly on SIGINT/SIGTERM: stop accepting, finish in-flight requests,
// checks, jobs and writes, close the database.
import { buildApp } from './http/app.ts';
import { startEngine } from './engine/index.ts';
import { startJobs } from './jobs/runner.ts';
import { startDeliveryWaker } from './jobs/alert-delivery.ts';
import { configOrExit, exitOnFatal, onStopSignal } from './process-lifecycle.ts';
import { createPageServices, createServices } from './services.ts';
import { needsSetup } from './domain/setup/first-admin.ts';
import { publicMainOrigin } from './domain/status-page/public-links.ts';
import { startProbeIngest } from './http/probe-ingest.ts';
import { drainProbeInboxInThread } from './jobs/probe-drain.ts';
import { browserInstalled, closeSharedBrowser } from './engine/checkers/browser/launch.ts';

async function main(): Promise<void> {
  const config = configOrExit();
  const services = await createServices(config);
  const app = await buildApp({ services, pages: createPageServices(services), withPages: true });
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`${config.productName} listening on ${config.publicScheme}://${config.productDomain}:${config.port} (${services.db.kind})`);
  // PostgreSQL: the probes' results are stored by a thread of their own, started with the first ones
  drainProbeInboxInThread(services, { log: (m) => app.log.warn(m) });
  if (config.probeIngestPort) {
    const ingest = await startProbeIngest(services, { port: config.probeIngestPort, host: config.host, log: (m) => app.log.warn(m) });
    app.log.info(`probe calls also on port ${ingest.port} (PROBE_INGEST_PORT), served by a thread of their own`);
  }
  // with no user yet the operator must find /setup: say where, once
  if (await needsSetup(services))
    app.log.warn(`No user yet: open ${publicMainOrigin(config)}/setup to create the first super administrator`);
  if (config.runEngine && !browserInstalled())
    app.log.warn(
      `Browser checks need Chromium at ${config.browser.executablePath} (apt-get install chromium, or set CHROMIUM_PATH): until then they fail saying so`,
    );
  if (config.runEngine) startEngine(services, { log: (m) => app.log.warn(m) });
  startJobs(services, { log: (m) => app.log.warn(m) });
  startDeliveryWaker(services, { log: (m) => app.log.warn(m) });

  onStopSignal(async (signal) => {
    app.log.info(`${signal}: shutting down`);
    await app.close();
    for (const hook of services.onShutdown ?? []) await hook();
    await closeSharedBrowser();
    await services.db.close();
  });
}

main().catch(exitOnFatal);
