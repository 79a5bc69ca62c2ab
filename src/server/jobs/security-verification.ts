// Re-verifies the security suite's assets (domain/security/verification.ts): every 15 minutes it
// takes the assets whose proof was last looked up a day ago or more (or never), so each is
// re-checked daily; one whose proof is gone stops being verified and its admins are told.
import { reverifyDueAssets } from '../domain/security/verification.ts';
import type { Job } from './job.ts';

export const securityVerification: Job = {
  name: 'security-verification',
  periodMs: 15 * 60_000,
  async run(services, now) {
    const c = await reverifyDueAssets(services, now);
    const total = c.verified + c.confirmed + c.lost + c.unverified;
    if (total === 0) return undefined;
    return `security-verification: ${total} assets looked up (${c.verified} newly verified, ${c.confirmed} still verified, ${c.lost} lost their proof, ${c.unverified} still unverified)`;
  },
};
