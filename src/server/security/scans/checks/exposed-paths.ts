// Sensitive files left on the web server. A path is reported only when its answer is a 200
// whose content proves what it is (a .git/HEAD that reads `ref: refs/heads/…`, a .env of
// KEY=VALUE lines, a zip's magic bytes…), and differs from what the host answers for a random
// path that cannot exist: a host answering 200 with one page for everything (a "soft 404")
// produces no finding.
import { randomBytes } from 'node:crypto';
import type { FindingSeverity } from '../../../db/schema/security.ts';
import type { FetchedResponse, ScanCheck, ScanFinding } from '../types.ts';
import { firstBytes, quote } from './evidence.ts';

interface SensitivePath {
  path: string;
  severity: FindingSeverity;
  title: string;
  /** Whether the body (first bytes) is the file the path names */
  confirms(body: Buffer): boolean;
  /** The evidence for files of secrets: their names without the values (default: the first bytes) */
  shown?(body: Buffer): string;
}

const text = (b: Buffer) => b.toString('latin1');
const looksHtml = (b: Buffer) => /^\s*(<!doctype|<html|<head|<body|<\?xml)/i.test(text(b.subarray(0, 200)));
const magic =
  (bytes: number[], at = 0) =>
  (b: Buffer) =>
    bytes.every((x, i) => b[at + i] === x);

/** Non-empty, non-comment lines that are all KEY=VALUE (at least two) */
function isDotEnv(b: Buffer): boolean {
  if (looksHtml(b)) return false;
  const lines = text(b)
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  return lines.length >= 2 && lines.every((l) => /^(export\s+)?[A-Za-z_][A-Za-z0-9_.]*\s*=/.test(l));
}

/** `NAME=…` for each variable: which secrets leak, not the secrets */
const namesOnly = (b: Buffer) =>
  quote(
    text(b)
      .split(/\r?\n/)
      .map((l) => /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_.]*)\s*=/.exec(l)?.[1])
      .filter((n) => n !== undefined)
      .map((n) => `${n}=…`)
      .join('\n'),
    300,
  );

const zip = magic([0x50, 0x4b, 0x03, 0x04]);
const gzip = magic([0x1f, 0x8b]);
const sqlDump = (b: Buffer) =>
  !looksHtml(b) && /(^-- (MySQL|MariaDB) dump|^-- PostgreSQL database dump|^CREATE TABLE |^INSERT INTO )/im.test(text(b));

export const SENSITIVE_PATHS: SensitivePath[] = [
  {
    path: '/.git/HEAD',
    severity: 'high',
    title: 'Git repository exposed (/.git/HEAD)',
    confirms: (b) => /^(ref: refs\/[\w./-]+|[0-9a-f]{40})\s*$/.test(text(b)),
  },
  {
    path: '/.git/config',
    severity: 'high',
    title: 'Git repository configuration exposed (/.git/config)',
    confirms: (b) => /^\s*\[core\]/m.test(text(b)) && !looksHtml(b),
  },
  { path: '/.env', severity: 'critical', title: 'Environment file exposed (/.env)', confirms: isDotEnv, shown: namesOnly },
  {
    path: '/server-status',
    severity: 'medium',
    title: 'Apache server-status page exposed',
    confirms: (b) => /Apache Server Status for/i.test(text(b)),
  },
  { path: '/.DS_Store', severity: 'low', title: 'macOS folder index exposed (/.DS_Store)', confirms: magic([0x42, 0x75, 0x64, 0x31], 4) },
  { path: '/backup.zip', severity: 'high', title: 'Backup archive exposed (/backup.zip)', confirms: zip },
  { path: '/site.zip', severity: 'high', title: 'Backup archive exposed (/site.zip)', confirms: zip },
  { path: '/backup.tar.gz', severity: 'high', title: 'Backup archive exposed (/backup.tar.gz)', confirms: gzip },
  { path: '/db.sql', severity: 'critical', title: 'Database dump exposed (/db.sql)', confirms: sqlDump },
  { path: '/backup.sql', severity: 'critical', title: 'Database dump exposed (/backup.sql)', confirms: sqlDump },
  {
    path: '/wp-config.php.bak',
    severity: 'critical',
    title: 'WordPress configuration backup exposed',
    confirms: (b) => /define\(\s*['"]DB_PASSWORD/.test(text(b)),
  },
  {
    path: '/.htpasswd',
    severity: 'high',
    title: 'Password file exposed (/.htpasswd)',
    confirms: (b) => !looksHtml(b) && /^[^:\s<]+:\$?[\w./$]{10,}\s*$/m.test(text(b)),
    shown: (b) => quote(text(b).replace(/:.*$/gm, ':…'), 300),
  },
  {
    path: '/phpinfo.php',
    severity: 'medium',
    title: 'phpinfo() page exposed',
    confirms: (b) => /<title>phpinfo\(\)<\/title>/i.test(text(b)),
  },
];

/** The first bytes the checks read of each path */
const PROBE_BYTES = 8 * 1024;

export const exposedPaths: ScanCheck = {
  label: 'exposed files',
  async run(ctx) {
    const page = await ctx.home();
    if (!page) return [];
    const get = (path: string) => ctx.fetcher.get(`${page.origin}${path}`, { maxBytes: PROBE_BYTES });
    // What this host answers for a path that cannot exist.
    const baseline = await get(`/statuswatch-scanner-${randomBytes(8).toString('hex')}`);
    const sameAsBaseline = (r: FetchedResponse) =>
      baseline.status === 200 && r.body.subarray(0, 512).equals(baseline.body.subarray(0, 512));
    const out: ScanFinding[] = [];
    for (const p of SENSITIVE_PATHS) {
      // A path that does not answer in time is not exposed; the scan's deadline still ends the check.
      const r = await get(p.path).catch((e: unknown) => {
        if (ctx.signal.aborted) throw e;
        return null;
      });
      if (r?.status !== 200 || sameAsBaseline(r) || !p.confirms(r.body)) continue;
      out.push({
        key: `path.${p.path}`,
        severity: p.severity,
        title: p.title,
        evidence: `GET ${r.url} → 200, ${p.shown ? `content (values hidden): ${p.shown(r.body)}` : `first bytes: ${firstBytes(r.body)}`}`,
      });
    }
    return out;
  },
};
