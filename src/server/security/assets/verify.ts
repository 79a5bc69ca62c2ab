// Proof that a company controls a host name, looked up before anything active is done to it:
// a TXT record `statuswatch-verification=<token>` on the name (or on `_statuswatch.<name>`),
// asked of the configured resolvers (DNS_RESOLVERS), or the file
// /.well-known/statuswatch-verification.txt holding the token, fetched over https and then http.
// These lookups are the only traffic an unverified host ever gets: one TXT question per name,
// and at most one GET of that one path per scheme and address (redirects followed only on the
// same host). Every connection passes the SSRF guard; each lookup is bounded in time, size and
// redirects. A proof binds addresses (bound-addresses.ts): a TXT proof the name's addresses at
// that moment, a file proof each address that served the file, and the file must come from
// every address the name points to.
import { Resolver as CaresResolver } from 'node:dns/promises';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { rootCertificates } from 'node:tls';
import { TXT_LABEL, TXT_PREFIX, WELL_KNOWN_PATH } from '../../../lib/security-assets.ts';
import { networkErrorText } from '../../net/error-text.ts';
import { internalDnsName, resolveAllSafe, TargetRefused, type PrivateTargets, type Resolver } from '../../net/ssrf.ts';
import { addressSet } from './bound-addresses.ts';

export const VERIFY_USER_AGENT = 'StatusWatch-Verification/1.0 (+proof of control)';
/** The whole proof (both lookups) ends within this. */
export const VERIFY_TIMEOUT_MS = 10_000;
const MAX_FILE_BYTES = 4096;
const MAX_HEADER_BYTES = 16 * 1024;
const MAX_REDIRECTS = 3;

/** Test and self-hoster seams: the ports the file is fetched from (default 443 and 80). */
export interface VerificationSeams {
  ports?: { http?: number; https?: number };
  timeoutMs?: number;
}

export interface ProofEnv {
  /** DNS_RESOLVERS; unset: the system's */
  dnsServers?: readonly string[];
  /** Address lookups for the file's connection (through the SSRF guard) */
  resolve: Resolver;
  allowPrivateTargets: PrivateTargets;
  extraCa?: string[];
  seams?: VerificationSeams;
}

/** A proof found, with the addresses it vouches for; or why none was found. */
export type Proof = { ok: true; method: 'dns' | 'file'; addresses: string[] } | { ok: false; error: string };

/** Looks for either proof of `token` on `hostname`; DNS first (it sends nothing to the host itself). */
export async function proveControl(asset: { hostname: string; verification_token: string }, env: ProofEnv): Promise<Proof> {
  const signal = AbortSignal.timeout(env.seams?.timeoutMs ?? VERIFY_TIMEOUT_MS);
  const dns = await txtProof(asset.hostname, asset.verification_token, env, signal);
  if (dns === true) return { ok: true, method: 'dns', addresses: await addressesOf(asset.hostname, env, signal) };
  const file = await fileProof(asset.hostname, asset.verification_token, env, signal);
  if (typeof file !== 'string') return { ok: true, method: 'file', addresses: file.addresses };
  return { ok: false, error: `No proof of control found. DNS: ${dns} File: ${file}` };
}

const DNS_FAILURES: Record<string, string> = {
  ENOTFOUND: 'the name does not exist',
  ENODATA: 'no TXT record',
  ETIMEOUT: 'the DNS servers did not answer in time',
  ECANCELLED: 'the DNS servers did not answer in time',
  ESERVFAIL: 'the DNS server could not answer',
  EREFUSED: 'the DNS server refused the query',
  ECONNREFUSED: 'the DNS server is unreachable',
};

/** true, or why not (a sentence of ours: a record's text is never quoted). */
async function txtProof(host: string, token: string, env: ProofEnv, signal: AbortSignal): Promise<true | string> {
  const internal = internalDnsName(host, env.allowPrivateTargets);
  if (internal) return `${internal}.`;
  const names = [host, `${TXT_LABEL}.${host}`];
  const answers = await Promise.all(names.map((name) => txtValues(name, env.dnsServers, signal)));
  const expected = `${TXT_PREFIX}${token}`;
  if (answers.some((a) => Array.isArray(a) && a.includes(expected))) return true;
  if (answers.some((a) => Array.isArray(a) && a.some((v) => v.startsWith(TXT_PREFIX))))
    return `a ${TXT_PREFIX} TXT record was found, but its token is not this asset's (publish ${expected}).`;
  const why = answers.map((a, i) => `${names[i]}: ${Array.isArray(a) ? `no ${TXT_PREFIX} record` : a}`);
  return `no TXT record ${expected} (${why.join('; ')}).`;
}

async function txtValues(name: string, servers: readonly string[] | undefined, signal: AbortSignal): Promise<string[] | string> {
  const r = new CaresResolver({ timeout: 2000, tries: 2 });
  if (servers?.length) r.setServers([...servers]);
  const cancel = () => r.cancel();
  signal.addEventListener('abort', cancel, { once: true });
  try {
    const records = await r.resolveTxt(name);
    return records.map((chunks) => chunks.join('').trim());
  } catch (e) {
    return DNS_FAILURES[(e as NodeJS.ErrnoException).code ?? ''] ?? 'the lookup failed';
  } finally {
    signal.removeEventListener('abort', cancel);
  }
}

class FileFailure extends Error {}

/**
 * The addresses `host` points to now, as the connections would see them; none when it does not
 * resolve (or only to refused addresses): a proof then vouches for no address at all.
 */
export async function addressesOf(
  host: string,
  env: Pick<ProofEnv, 'resolve' | 'allowPrivateTargets'>,
  signal?: AbortSignal,
): Promise<string[]> {
  try {
    return addressSet((await resolveAllSafe(host, env.allowPrivateTargets, env.resolve, signal)).map((a) => a.address));
  } catch {
    return [];
  }
}

/** The addresses that each served the file, or why not: every address the name points to must serve it. */
async function fileProof(host: string, token: string, env: ProofEnv, signal: AbortSignal): Promise<{ addresses: string[] } | string> {
  let addresses: string[];
  try {
    addresses = addressSet((await resolveAllSafe(host, env.allowPrivateTargets, env.resolve, signal)).map((a) => a.address));
  } catch (e) {
    const text = signal.aborted ? 'timed out' : e instanceof TargetRefused ? e.message : networkErrorText(e);
    return `${WELL_KNOWN_PATH} did not prove control (${text}).`;
  }
  const failed: Array<[string, string]> = [];
  for (const address of addresses) {
    const at = await fileAt(host, address, token, env, signal);
    if (at !== true) failed.push([address, at]);
  }
  if (failed.length === 0) return { addresses };
  if (addresses.length === 1) return `${WELL_KNOWN_PATH} did not prove control (${failed[0][1]}).`;
  return `${WELL_KNOWN_PATH} did not prove control: every address the name points to must serve it (${failed.map(([a, why]) => `${a}: ${why}`).join('; ')}).`;
}

/** true when `address` served the file with the token over https or http, else why not. */
async function fileAt(host: string, address: string, token: string, env: ProofEnv, signal: AbortSignal): Promise<true | string> {
  const why: string[] = [];
  for (const scheme of ['https', 'http'] as const) {
    if (signal.aborted) {
      why.push(`${scheme}: not tried, the time for the proof ran out`);
      continue;
    }
    try {
      const body = await fetchWellKnown(scheme, host, address, env, signal);
      if (body.includes(token)) return true;
      why.push(`${scheme}: the file was found, but it does not contain this asset's token`);
    } catch (e) {
      const text = signal.aborted ? 'timed out' : e instanceof FileFailure || e instanceof TargetRefused ? e.message : networkErrorText(e);
      why.push(`${scheme}: ${text}`);
    }
  }
  return why.join('; ');
}

function urlFor(scheme: 'https' | 'http', host: string, seams?: VerificationSeams): URL {
  const port = seams?.ports?.[scheme];
  return new URL(`${scheme}://${host}${port ? `:${port}` : ''}${WELL_KNOWN_PATH}`);
}

async function fetchWellKnown(
  scheme: 'https' | 'http',
  host: string,
  address: string,
  env: ProofEnv,
  signal: AbortSignal,
): Promise<string> {
  let url = urlFor(scheme, host, env.seams);
  for (let redirects = 0; ; redirects++) {
    const res = await get(url, host, address, env, signal);
    const code = res.statusCode ?? 0;
    const location = res.headers.location;
    if (code >= 300 && code < 400 && location) {
      res.destroy();
      if (redirects >= MAX_REDIRECTS) throw new FileFailure(`more than ${MAX_REDIRECTS} redirects`);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new FileFailure('redirected to an invalid URL');
      }
      // Another host proves nothing about this one, and following would make us a redirector.
      if (next.hostname !== host) throw new FileFailure('redirected to another host (only redirects on the same host are followed)');
      if (next.protocol !== 'https:' && next.protocol !== 'http:') throw new FileFailure('redirected to a URL that is not http or https');
      if (next.pathname !== WELL_KNOWN_PATH) throw new FileFailure(`redirected away from ${WELL_KNOWN_PATH}`);
      url = next.port === '' ? urlFor(next.protocol === 'https:' ? 'https' : 'http', host, env.seams) : next;
      continue;
    }
    if (code !== 200) {
      res.destroy();
      throw new FileFailure(`HTTP ${code}`);
    }
    return readCapped(res, signal);
  }
}

/** One GET of the file from `address` (checked by the SSRF guard when the name was resolved). */
async function get(url: URL, host: string, address: string, env: ProofEnv, signal: AbortSignal): Promise<IncomingMessage> {
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request({
      host: address,
      port: url.port || (secure ? 443 : 80),
      path: url.pathname,
      method: 'GET',
      headers: { 'user-agent': VERIFY_USER_AGENT, accept: 'text/plain', 'accept-encoding': 'identity', host: url.host },
      agent: false,
      signal,
      maxHeaderSize: MAX_HEADER_BYTES,
      ...(secure ? { servername: host, ca: env.extraCa?.length ? [...rootCertificates, ...env.extraCa] : undefined } : {}),
    });
    req.on('response', resolve);
    req.on('error', reject);
    req.end();
  });
}

function readCapped(res: IncomingMessage, signal: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (e: Error) => {
      res.destroy();
      reject(e);
    };
    signal.addEventListener('abort', () => stop(new FileFailure('timed out')), { once: true });
    res.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_FILE_BYTES) return stop(new FileFailure(`the file is larger than ${MAX_FILE_BYTES} bytes`));
      chunks.push(c);
    });
    res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    res.on('error', stop);
  });
}
