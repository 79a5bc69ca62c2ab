// What every entry point (server, worker, admin CLI) does around its work: read the
// configuration or stop with one clear line, and stop gracefully on SIGINT/SIGTERM.
import { ConfigError, parseConfig, type Config } from './config.ts';
import { describeDbFailure, dbOutageOf } from './db/outage.ts';

export function configOrExit(): Config {
  try {
    return parseConfig();
  } catch (e) {
    if (e instanceof ConfigError) {
      process.stderr.write(`Configuration error: ${e.message}\n`);
      process.exit(1);
    }
    throw e;
  }
}

/** Runs `stop` once on the first SIGINT/SIGTERM; exits 0 after it, 1 if it takes over 15 s. */
export function onStopSignal(stop: (signal: string) => Promise<void>): void {
  let stopping = false;
  const handle = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    try {
      await stop(signal);
    } finally {
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void handle('SIGINT'));
  process.on('SIGTERM', () => void handle('SIGTERM'));
}

export function exitOnFatal(e: unknown): never {
  // A driver's message names the database host, user or database: one line with its code instead.
  if (dbOutageOf(e)) {
    process.stderr.write(`Fatal: ${describeDbFailure(e)} at start; check DATABASE_URL (or DATA_DIR) and that the database is running.\n`);
    process.exit(1);
  }
  process.stderr.write(`Fatal: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
}
