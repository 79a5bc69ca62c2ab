// The platform's one process: configuration, database, HTTP (API + pages) and, later, the check
// engine. Stops cleanly on SIGINT/SIGTERM: stop accepting, finish in-flight requests and
// writes, close the database.
import { ConfigError, parseConfig } from './config.ts';
import { buildApp } from './http/app.ts';
import { startEngine } from './engine/index.ts';
import { createPageServices, createServices } from './services.ts';
import { startTelemetry } from './telemetry/service.ts';

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
  const services = await createServices(config);
  startTelemetry(services); // span writer and the hourly retention sweep of spans and RED rollups
  const app = await buildApp({ services, pages: createPageServices(services), withPages: true });
  await app.listen({ port: config.port, host: config.host });
  app.log.info(`${config.productName} listening on ${config.publicScheme}://${config.productDomain}:${config.port} (${services.db.kind})`);
  if (config.runEngine) startEngine(services, { log: (m) => app.log.warn(m) });

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: shutting down`);
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      await app.close();
      for (const hook of services.onShutdown ?? []) await hook();
      await services.db.close();
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((e: unknown) => {
  process.stderr.write(`Fatal: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
