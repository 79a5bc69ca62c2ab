// `npm run probe`: a probe process (issue 27). Settings from the environment (config.ts); SIGTERM
// or SIGINT stops it cleanly: the results collected go to disk, one last delivery is tried, and
// what is left is delivered after the next start.
import { readFileSync } from 'node:fs';
import { ConfigError } from '../server/env-values.ts';
import { parseProbeConfig, type ProbeConfig } from './config.ts';
import { startProbe } from './probe.ts';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
const log = (line: string) => process.stdout.write(`${new Date().toISOString()} probe: ${line}\n`);

let cfg: ProbeConfig;
try {
  cfg = parseProbeConfig();
} catch (e) {
  if (!(e instanceof ConfigError)) throw e;
  process.stderr.write(`probe: ${e.message}\n`);
  process.exit(2);
}

log(`version ${pkg.version}, instance ${cfg.instance}, buffer ${cfg.bufferDir} (at most ${cfg.bufferMaxBytes / 1048576} MB)`);
const probe = startProbe(cfg, pkg.version, log);
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.once(signal, () => void probe.stop());
process.exitCode = await probe.done;
process.exit(process.exitCode);
