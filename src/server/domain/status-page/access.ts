// Who may read a company's public documents (issue 17 item 4): everyone (public), holders of the
// page password, the company's own signed-in users, or visitors from allowed IP ranges; in any
// mode also the holder of an unexpired, unrevoked share link. One decision, taken by the HTTP
// guard (http/page-access-guard.ts) before any document, cache or 304 is reached.
// Credentials are HMAC-signed with the server's secret: the password cookie names its company
// and a fingerprint of the password hash (a new password voids every cookie), share tokens name
// their link (stored, so it can be revoked) and both carry their expiry.
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { Services } from '../context.ts';
import { pageAccessRepo } from '../../db/repositories/page-access-repo.ts';
import { companiesRepo } from '../../db/repositories/companies-repo.ts';
import type { PageAccessMode } from '../../db/schema/public.ts';
import { ipAllowed } from './ip-allowlist.ts';
import { settleWithin } from './cache.ts';
import { verifySession } from '../auth/sessions.ts';
import { verifyPassword } from '../auth/password.ts';
import { SlidingWindow } from '../auth/throttle.ts';
import { resolveHost } from '../tenants/resolve-host.ts';
import { DomainError } from '../errors.ts';

export type { PageAccessMode };
export const PASSWORD_COOKIE_SECONDS = 12 * 3600;
/** Wrong page passwords per company and address before it waits (15 minutes' window). */
export const PASSWORD_FAILURES = 5;
const FAILURE_WINDOW_MS = 15 * 60_000;
/** How long this process trusts what it read of a rule or a host (a save here drops it at once). */
const MEMO_MS = 5_000;
/** The public documents' own word for a database that cannot be read (service.ts). */
const UNAVAILABLE = 'Failed to load status page';

export interface AccessRule {
  mode: PageAccessMode;
  passwordHash: string | null;
  ipAllowlist: string[];
}

export interface Visitor {
  ip: string;
  /** The company of the request's host: cookies and sessions count only on the page's own host */
  hostCompanyId: string | null;
  host: string;
  passwordCookie: string | null;
  shareCookie: string | null;
  sessionToken: string | null;
}

export type AccessDecision =
  | { allowed: true; restricted: boolean }
  | { allowed: false; mode: Exclude<PageAccessMode, 'public'>; status: 401 | 403 };

/** Memos of page access rules and custom hosts, and wrong page passwords per address. */
export interface PageAccessState {
  rules: Map<string, { value: AccessRule; at: number }>;
  hosts: Map<string, { value: string | null; at: number }>;
  /** reads under way, by 'rule <company>' or the host key */
  inflight: Map<string, Promise<unknown>>;
  /** the last read failed or outlasted STALE_WAIT_MS: known values are used without waiting */
  slow: { now: boolean };
  failures: SlidingWindow;
}
export function newPageAccessState(): PageAccessState {
  return {
    rules: new Map(),
    hosts: new Map(),
    inflight: new Map(),
    slow: { now: false },
    failures: new SlidingWindow(PASSWORD_FAILURES, FAILURE_WINDOW_MS),
  };
}

declare module '../context.ts' {
  interface ProcessState {
    /** The status pages' access memos and password failures (this file) */
    pageAccess: PageAccessState;
  }
}

const PUBLIC: AccessRule = { mode: 'public', passwordHash: null, ipAllowlist: [] };

export async function accessRuleOf(services: Services, companyId: string): Promise<AccessRule> {
  const { rules, inflight, slow } = services.state.pageAccess;
  return remembered<AccessRule>(rules, inflight, slow, `rule ${companyId}`, companyId, async () => {
    const row = await pageAccessRepo(services.db).get(companyId);
    return row ? { mode: row.mode, passwordHash: row.password_hash, ipAllowlist: JSON.parse(row.ip_allowlist) as string[] } : PUBLIC;
  });
}

/** How long a request waits for a fresh answer when an older one is known (the database may hang). */
const STALE_WAIT_MS = 250;

/**
 * A value read at most every MEMO_MS, one read per key at a time. While a read is slow or the
 * database cannot be read, the last value known stands: the request that starts the read waits
 * for it at most STALE_WAIT_MS, the others take the known value at once; with nothing known yet
 * the read's own answer (or its failure, 503) is awaited, never let through unchecked.
 */
async function remembered<T>(
  memos: Map<string, { value: T; at: number }>,
  inflight: Map<string, Promise<unknown>>,
  slow: { now: boolean },
  flightKey: string,
  key: string,
  read: () => Promise<T>,
): Promise<T> {
  const now = Date.now();
  const memo = memos.get(key);
  if (memo && now - memo.at < MEMO_MS) return memo.value;
  const running = inflight.get(flightKey) as Promise<T> | undefined;
  if (running && memo) return memo.value;
  const p =
    running ??
    read()
      .then(
        (value) => {
          slow.now = false;
          if (memos.size > 10_000) memos.clear();
          memos.set(key, { value, at: Date.now() });
          return value;
        },
        (e: unknown) => {
          slow.now = true;
          throw e;
        },
      )
      .finally(() => inflight.delete(flightKey));
  if (!running) {
    inflight.set(flightKey, p);
    p.catch(() => undefined); // a read nobody waits for (the known value served) fails quietly
  }
  if (memo && slow.now) return memo.value;
  if (!memo)
    return p.catch((e: unknown) => {
      throw new DomainError('unavailable', UNAVAILABLE, { cause: e });
    });
  return settleWithin(
    p.catch(() => memo.value),
    STALE_WAIT_MS,
    memo.value,
    () => {
      slow.now = true;
    },
  );
}

/** Called after a save: this process applies the new rule at once. */
export function forgetAccessRule(services: Services, companyId: string): void {
  services.state.pageAccess.rules.delete(companyId);
}

/**
 * A company id looked up at most every MEMO_MS; while the database cannot be read the last
 * answer known stands (the page itself is then served from its snapshot), and a company never
 * looked up is unavailable (503), never let through unchecked.
 */
async function memoCompany(services: Services, key: string, find: () => Promise<string | null>): Promise<string | null> {
  const { hosts, inflight, slow } = services.state.pageAccess;
  return remembered(hosts, inflight, slow, key, key, find);
}

/**
 * True when this process knows, fresh from the last MEMO_MS, that the company behind `key`
 * ('host …' or 'sub …') has a public page or does not exist: the guard then lets the request
 * through without a promise (the public fast path stays as fast as it was).
 */
export function knownOpen(services: Services, key: string): boolean {
  const { hosts, rules } = services.state.pageAccess;
  const now = Date.now();
  const company = hosts.get(key);
  if (!company || now - company.at >= MEMO_MS) return false;
  if (company.value === null) return true;
  const rule = rules.get(company.value);
  return !!rule && now - rule.at < MEMO_MS && rule.value.mode === 'public';
}
export const hostKey = (host: string) => `host ${host}`;
export const subdomainKey = (subdomain: string) => `sub ${subdomain.toLowerCase()}`;

/** The company whose documents a host serves (the platform's host mapping), or null. */
export function companyOfHost(services: Services, host: string): Promise<string | null> {
  return memoCompany(services, hostKey(host), async () => {
    const where = await resolveHost(services, host);
    return where.kind === 'tenant' ? where.company.id : null;
  });
}

/** The active company of a subdomain named in a path (the public-status call), or null. */
export function companyOfSubdomain(services: Services, subdomain: string): Promise<string | null> {
  return memoCompany(services, subdomainKey(subdomain), async () => {
    const c = await companiesRepo(services.db).findBySubdomain(subdomain.toLowerCase());
    return c?.is_active ? c.id : null;
  });
}

// --- signed credentials ---

function key(services: Services): Buffer {
  return createHmac('sha256', services.config.sessionSecret).update('status-page-access v1').digest();
}
function sign(services: Services, payload: string): string {
  return createHmac('sha256', key(services)).update(payload).digest('base64url');
}
/** The payload's parts when the signature is the server's, else null. */
function opened(services: Services, token: string | null, tag: string, parts: number): string[] | null {
  if (!token || token.length > 512) return null;
  const all = token.split('.');
  if (all.length !== parts + 2 || all[0] !== tag) return null;
  const payload = all.slice(0, -1).join('.');
  const given = Buffer.from(all.at(-1)!, 'utf8');
  const wanted = Buffer.from(sign(services, payload), 'utf8');
  if (given.length !== wanted.length || !timingSafeEqual(given, wanted)) return null;
  return all.slice(1, -1);
}
const fingerprint = (hash: string) => createHash('sha256').update(hash).digest('base64url').slice(0, 16);

export function passwordCookieValue(services: Services, companyId: string, passwordHash: string): string {
  const exp = Math.floor(services.now() / 1000) + PASSWORD_COOKIE_SECONDS;
  const payload = `p1.${companyId}.${exp}.${fingerprint(passwordHash)}`;
  return `${payload}.${sign(services, payload)}`;
}

export function shareToken(services: Services, linkId: string, companyId: string, expiresAt: number): string {
  const payload = `s1.${linkId}.${companyId}.${Math.floor(expiresAt / 1000)}`;
  return `${payload}.${sign(services, payload)}`;
}

/** The link a share token names when its signature, company and expiry hold (revocation is checked by the caller). */
export function openShareToken(services: Services, token: string | null, companyId: string): { linkId: string; expiresAt: number } | null {
  const p = opened(services, token, 's1', 3);
  if (!p || p[1] !== companyId) return null;
  const expiresAt = Number(p[2]) * 1000;
  if (!Number.isFinite(expiresAt) || expiresAt <= services.now()) return null;
  return { linkId: p[0], expiresAt };
}

async function shareLinkValid(services: Services, token: string | null, companyId: string): Promise<boolean> {
  const t = openShareToken(services, token, companyId);
  if (!t) return false;
  const link = await pageAccessRepo(services.db).shareLink(t.linkId, companyId);
  return !!link && link.revoked_at === null && link.expires_at > services.now();
}

function passwordCookieValid(services: Services, value: string | null, companyId: string, rule: AccessRule): boolean {
  const p = opened(services, value, 'p1', 3);
  if (!p || !rule.passwordHash || p[0] !== companyId) return false;
  return Number(p[1]) * 1000 > services.now() && p[2] === fingerprint(rule.passwordHash);
}

async function companyUser(services: Services, v: Visitor, companyId: string): Promise<boolean> {
  if (!v.sessionToken) return false;
  const s = await verifySession(services, v.sessionToken, v.host).catch(() => null);
  return !!s && s.actor.companyId === companyId;
}

/** May this visitor read the company's public documents? */
export async function decidePageAccess(services: Services, companyId: string, v: Visitor): Promise<AccessDecision> {
  const rule = await accessRuleOf(services, companyId);
  if (rule.mode === 'public') return { allowed: true, restricted: false };
  const ownHost = v.hostCompanyId === companyId;
  let ok = false;
  if (rule.mode === 'ip_allowlist') ok = ipAllowed(v.ip, rule.ipAllowlist);
  else if (ownHost && rule.mode === 'password') ok = passwordCookieValid(services, v.passwordCookie, companyId, rule);
  else if (ownHost && rule.mode === 'users') ok = await companyUser(services, v, companyId);
  if (!ok && ownHost && v.shareCookie) ok = await shareLinkValid(services, v.shareCookie, companyId);
  if (ok) return { allowed: true, restricted: true };
  return { allowed: false, mode: rule.mode, status: rule.mode === 'ip_allowlist' ? 403 : 401 };
}

export type PasswordAttempt =
  | { kind: 'ok'; cookie: string }
  | { kind: 'wrong' }
  | { kind: 'throttled'; retryAfter: number }
  | { kind: 'not_protected' };

/** Checks a page password typed by a visitor; wrong ones are counted per company and address. */
export async function tryPagePassword(services: Services, companyId: string, ip: string, password: string): Promise<PasswordAttempt> {
  const rule = await accessRuleOf(services, companyId);
  if (rule.mode !== 'password' || !rule.passwordHash) return { kind: 'not_protected' };
  const { failures } = services.state.pageAccess;
  const k = `${companyId} ${ip}`;
  const now = services.now();
  const wait = failures.retryAfter(k, now);
  if (wait > 0) return { kind: 'throttled', retryAfter: wait };
  if (password.length > 0 && password.length <= 200 && (await verifyPassword(rule.passwordHash, password))) {
    failures.clear(k);
    return { kind: 'ok', cookie: passwordCookieValue(services, companyId, rule.passwordHash) };
  }
  failures.hit(k, now);
  return { kind: 'wrong' };
}

/** Opens a share link: its token when valid (to keep as a cookie) and how long it has left. */
export async function openShareLink(services: Services, token: string, companyId: string): Promise<{ seconds: number } | null> {
  if (!(await shareLinkValid(services, token, companyId))) return null;
  const t = openShareToken(services, token, companyId)!;
  return { seconds: Math.max(1, Math.floor((t.expiresAt - services.now()) / 1000)) };
}
