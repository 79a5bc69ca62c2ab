// The security suite's benchmarks (issue 16): each part prints its figure beside its target.
// Other parts (TLS and domain checks, threat feeds) add their line here.
import { benchScan } from './scan.ts';

const scan = await benchScan();
console.log(
  `vulnerability scan of one loopback host: ${scan.seconds.toFixed(1)} s (target ≤ 60 s), ${scan.requests} requests, busiest second ${scan.busiestSecond} (limit ${scan.rate}/s)`,
);
