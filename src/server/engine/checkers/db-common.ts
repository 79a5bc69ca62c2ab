// What the database checkers (postgres, mysql, redis) share: a cap on the bytes a server may
// send, the comparison with the expected value, the outcome of an answer, and the TLS options
// for a connection made to the checked address but verified against the URL's host name.
import { isIP, type Socket } from 'node:net';
import type { ConnectionOptions } from 'node:tls';
import { certificateFacts } from './certificate.ts';
import { trustContext } from './socket-session.ts';
import type { CheckEnv, CheckOutcome, Timings } from './types.ts';

export const TOO_MUCH = 'The server sent more than 1 MB: the check stopped reading';

/** Counts what the server sends on `socket`; past `limit` bytes, destroys it (`tooMuch()` then says so). */
export function capBytes(socket: Socket, limit: number): { tooMuch(): boolean } {
  let seen = 0;
  let over = false;
  socket.on('data', (chunk: Buffer) => {
    seen += chunk.length;
    if (seen > limit && !over) {
      over = true;
      socket.destroy(new Error(TOO_MUCH));
    }
  });
  return { tooMuch: () => over };
}

/**
 * TLS to the checked address: SNI and the certificate's name are the URL's host (never an IP as
 * SNI); `verify` false still encrypts but accepts any certificate (sslmode=require).
 */
export function tlsOptions(host: string, verify: boolean, env: CheckEnv): ConnectionOptions {
  return {
    servername: isIP(host) ? undefined : host,
    rejectUnauthorized: verify,
    secureContext: trustContext(env),
  };
}

/** The expected value against the first value of the answer; null: it matches (or none expected). */
export function expectedProblem(expected: string | null | undefined, got: unknown): string | null {
  if (expected === null || expected === undefined || expected === '') return null;
  const text = got === null || got === undefined ? 'NULL' : Buffer.isBuffer(got) ? got.toString('utf8') : String(got);
  if (text === expected) return null;
  // The target's text, capped and without control characters: it is shown to the tenant.
  const shown = text.replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').slice(0, 60);
  return `Expected "${expected}" but the query returned "${shown}${text.length > 60 ? '…' : ''}"`;
}

/** An answer received: down on a wrong value, degraded when slow, else operational. */
export function answered(
  timings: Timings,
  problem: string | null,
  degradedMs: number | null | undefined,
  peer?: Parameters<typeof certificateFacts>[0],
): CheckOutcome {
  const facts = peer ? certificateFacts(peer) : { certExpiresAt: null };
  const base = { responseTimeMs: timings.total, httpCode: null, timings, ...facts };
  if (problem) return { ...base, status: 'down', error: problem };
  if (degradedMs && timings.total > degradedMs)
    return { ...base, status: 'degraded', error: `The server answered in ${Math.round(timings.total)} ms` };
  return { ...base, status: 'operational', error: null };
}
