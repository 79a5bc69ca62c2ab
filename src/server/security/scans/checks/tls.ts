// TLS problems come from the TLS analysis (source 'ssl'): its open findings on this host are
// reported again in the scan, under the same keys, so one report lists everything. Nothing is
// probed here.
import type { ScanCheck } from '../types.ts';

export const tlsProblems: ScanCheck = {
  label: 'TLS problems',
  async run(ctx) {
    return ctx.env.sslFindings.map((f) => ({ ...f }));
  },
};
