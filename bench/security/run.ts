// The security suite's benchmarks (issue 16 targets). Run: npm run bench:security [-- --domains N]
// Each part prints its figure beside its target.
import { parseArgs } from 'node:util';
import { benchDomains } from './domains.ts';

const { values } = parseArgs({ options: { domains: { type: 'string', default: '1000' } } });

const d = await benchDomains(Number(values.domains));
console.log(
  `domain checks: ${d.domains} domains checked in ${d.wallSeconds.toFixed(1)} s (${d.failedChecks} failed); ` +
    `${d.cpuSecondsPerDay.toFixed(1)} s CPU a day = ${d.corePercent.toFixed(3)} % of one core ` +
    `(target: daily SSL and domain checks of 1,000 assets <= 5 % of one core)`,
);
