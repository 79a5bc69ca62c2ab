// `npm run worker`: an extra check-engine process (no HTTP) for PostgreSQL deployments. Several
// workers and servers share one database; leases make sure a due check runs exactly once.
import { ConfigError, parseConfig } from './config.ts';
import { startEngine } from './engine/index.ts';
import { createServices } from './services.ts';

async function main(): Promise<void> {
  let config;
  try {
    config = parseConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
  if (config.databaseKind !== 'postgres') {
    process.stderr.write('Note: extra workers are meant for PostgreSQL (DATABASE_URL); on SQLite the server process runs the checks.\n');
  }
  const services = await createServices(config);
  const log = (m: string) => {
    if (config.logLevel !== 'silent') process.stderr.write(`${m}\n`);
  };
  const engine = startEngine(services, { log });
  log(`worker ${engine.owner} checking monitors (${services.db.kind})`);
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      for (const hook of services.onShutdown ?? []) await hook();
      await services.db.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((e: unknown) => {
  process.stderr.write(`Fatal: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
