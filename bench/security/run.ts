// The security suite's benchmarks (issue 16 targets). Each analysis has its part beside this
// file (tls.ts, domains.ts, ...) and one call below; each prints its figure beside its target.
// Usage: npm run bench:security [-- --assets 1000 --servers 100 --domains 1000]
import { parseArgs } from 'node:util';
import { benchDomains } from './domains.ts';
import { benchScan } from './scan.ts';
import { runTlsBench, TLS_TARGET_PERCENT } from './tls.ts';

const { values } = parseArgs({
  options: {
    assets: { type: 'string', default: '1000' },
    servers: { type: 'string', default: '100' },
    domains: { type: 'string', default: '1000' },
  },
});

const fmt = (n: number, d = 1) => n.toFixed(d);

const tls = await runTlsBench({ assets: Number(values.assets), servers: Number(values.servers) });
console.log(`TLS: ${tls.analysed} of ${tls.assets} assets analysed in ${fmt(tls.wallSeconds)} s (grades ${JSON.stringify(tls.grades)})`);
console.log(
  `TLS: CPU ${fmt(tls.cpuSecondsAnalyses)} s for the analyses + ${fmt(tls.cpuSecondsIdleRuns, 2)} s for the day's idle runs = ` +
    `${fmt(tls.percentOfCore, 3)} % of one core over a day (target <= ${TLS_TARGET_PERCENT} %) ` +
    (tls.percentOfCore <= TLS_TARGET_PERCENT ? 'OK' : 'OVER'),
);

const d = await benchDomains(Number(values.domains));
console.log(
  `domain checks: ${d.domains} domains checked in ${d.wallSeconds.toFixed(1)} s (${d.failedChecks} failed); ` +
    `${d.cpuSecondsPerDay.toFixed(1)} s CPU a day = ${d.corePercent.toFixed(3)} % of one core ` +
    `(target: daily SSL and domain checks of 1,000 assets <= 5 % of one core)`,
);

const scan = await benchScan();
console.log(
  `vulnerability scan of one loopback host: ${scan.seconds.toFixed(1)} s (target ≤ 60 s), ${scan.requests} requests, busiest second ${scan.busiestSecond} (limit ${scan.rate}/s)`,
);
