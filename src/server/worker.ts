// `npm run worker`: an extra check-engine and jobs process (no HTTP) for PostgreSQL deployments.
// Several workers and servers share one database; leases make sure a due check runs exactly
// once, and each period of a timed job once.
import { startEngine } from './engine/index.ts';
import { browserInstalled, closeSharedBrowser } from './engine/checkers/browser/launch.ts';
import { startJobs } from './jobs/runner.ts';
import { startDeliveryWaker } from './jobs/alert-delivery.ts';
import { configOrExit, exitOnFatal, onStopSignal } from './process-lifecycle.ts';
import { createServices } from './services.ts';

async function main(): Promise<void> {
  const config = configOrExit();
  if (config.databaseKind !== 'postgres') {
    process.stderr.write('Note: extra workers are meant for PostgreSQL (DATABASE_URL); on SQLite the server process runs the checks.\n');
  }
  const services = await createServices(config);
  const log = (m: string) => {
    if (config.logLevel !== 'silent') process.stderr.write(`${m}\n`);
  };
  const engine = startEngine(services, { log });
  startJobs(services, { holder: engine.owner, log });
  startDeliveryWaker(services, { log });
  log(`worker ${engine.owner} checking monitors (${services.db.kind})`);
  if (!browserInstalled())
    log(
      `Browser checks need Chromium at ${config.browser.executablePath} (apt-get install chromium, or set CHROMIUM_PATH): until then they fail saying so`,
    );
  onStopSignal(async () => {
    for (const hook of services.onShutdown ?? []) await hook();
    await closeSharedBrowser();
    await services.db.close();
  });
}

main().catch(exitOnFatal);
