// Push URL tokens (issue 11): the URL is shown when the monitor is created and when its token is
// replaced; the database keeps only the token's SHA-256, so a copy of it cannot report monitors up.
import { createHash, randomBytes } from 'node:crypto';
import type { Ctx } from '../context.ts';

export function hashPushToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function newPushToken(): { token: string; hash: string } {
  const token = randomBytes(24).toString('base64url');
  return { token, hash: hashPushToken(token) };
}

export function pushUrl(ctx: Ctx, token: string): string {
  const c = ctx.services.config;
  // Over https the process sits behind a proxy on 443; over plain http the port is the server's.
  const port = c.publicScheme === 'http' && c.port && c.port !== 80 ? `:${c.port}` : '';
  return `${c.publicScheme}://${c.productDomain}${port}/api/v1/push/${token}`;
}
