// Security suite benchmark (issue 16 targets). Each analysis adds its part beside this file
// (tls.ts here; scan.ts and others by their areas) and one call below.
// Usage: npm run bench:security [-- --assets 1000 --servers 100]
import { parseArgs } from 'node:util';
import { runTlsBench, TLS_TARGET_PERCENT } from './tls.ts';

const { values } = parseArgs({
  options: {
    assets: { type: 'string', default: '1000' },
    servers: { type: 'string', default: '100' },
  },
});

const fmt = (n: number, d = 1) => n.toFixed(d);

async function main(): Promise<void> {
  const tls = await runTlsBench({ assets: Number(values.assets), servers: Number(values.servers) });
  console.log(`TLS: ${tls.analysed} of ${tls.assets} assets analysed in ${fmt(tls.wallSeconds)} s (grades ${JSON.stringify(tls.grades)})`);
  console.log(
    `TLS: CPU ${fmt(tls.cpuSecondsAnalyses)} s for the analyses + ${fmt(tls.cpuSecondsIdleRuns, 2)} s for the day's idle runs = ` +
      `${fmt(tls.percentOfCore, 3)} % of one core over a day (target <= ${TLS_TARGET_PERCENT} %) ` +
      (tls.percentOfCore <= TLS_TARGET_PERCENT ? 'OK' : 'OVER'),
  );
}

await main();
