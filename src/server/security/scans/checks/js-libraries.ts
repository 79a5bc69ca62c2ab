// Vulnerable JavaScript libraries: the front page and the scripts it loads from the same host
// (a bounded number, each read up to a size cap) are matched with retire.js against its
// vulnerability repository (retire-repository.ts). One finding per library and version, at the
// worst severity of its known vulnerabilities, listing them with their CVEs and CVSS scores.
import { createHash } from 'node:crypto';
import { scanFileContent, scanFileName } from 'retire/lib/retire.js';
import type { FindingSeverity } from '../../../db/schema/security.ts';
import type { RetireRepository, ScanCheck, ScanFinding } from '../types.ts';
import { quote } from './evidence.ts';

const hasher = { sha1: (data: string) => createHash('sha1').update(data).digest('hex') };
const RANK: Record<string, number> = { info: 0, low: 1, medium: 2, high: 3, critical: 4 };

interface Vulnerability {
  severity?: string;
  identifiers?: { CVE?: string[]; summary?: string };
}
interface Detected {
  component: string;
  version: string;
  vulnerabilities?: Vulnerability[];
}

/** Same-host script URLs of a page, in document order, deduplicated. */
export function scriptSources(html: string, pageUrl: string, hostname: string, max: number): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(/<script\b[^>]*?\bsrc\s*=\s*(?:"([^"]+)"|'([^']+)'|([^\s>]+))/gi)) {
    let url: URL;
    try {
      url = new URL(m[1] ?? m[2] ?? m[3], pageUrl);
    } catch {
      continue;
    }
    if (url.hostname !== hostname || (url.protocol !== 'http:' && url.protocol !== 'https:')) continue;
    url.hash = '';
    if (!out.includes(url.href)) out.push(url.href);
    if (out.length >= max) break;
  }
  return out;
}

/** The CVSS score our snapshot gives a vulnerability (retire's check passes `identifiers` by reference). */
function cvssOf(repo: RetireRepository, component: string, v: Vulnerability): number | null {
  const entry = repo[component]?.vulnerabilities?.find((x) => x.identifiers === v.identifiers) as { cvss?: unknown } | undefined;
  return typeof entry?.cvss === 'number' ? entry.cvss : null;
}

export function libraryFinding(repo: RetireRepository, d: Detected, file: string): ScanFinding | null {
  const vulns = d.vulnerabilities ?? [];
  if (vulns.length === 0) return null;
  let severity: FindingSeverity = 'low';
  let cvss: number | null = null;
  const lines: string[] = [];
  for (const v of vulns) {
    const sev = (RANK[v.severity ?? ''] !== undefined ? v.severity : 'medium') as FindingSeverity;
    if (RANK[sev] > RANK[severity]) severity = sev;
    const score = cvssOf(repo, d.component, v);
    if (score !== null && (cvss === null || score > cvss)) cvss = score;
    const ids = v.identifiers?.CVE?.join(', ') || 'no CVE';
    lines.push(`${ids} (${sev}${score !== null ? `, CVSS ${score}` : ''}): ${v.identifiers?.summary ?? 'known vulnerability'}`);
  }
  return {
    key: `js.${d.component}@${d.version}`,
    severity,
    cvss,
    title: `${d.component} ${d.version} has ${vulns.length} known ${vulns.length === 1 ? 'vulnerability' : 'vulnerabilities'}`,
    evidence: `${d.component} ${d.version} in ${quote(file, 300)}\n${[...new Set(lines)].join('\n')}`,
  };
}

export const jsLibraries: ScanCheck = {
  label: 'JavaScript libraries',
  async run(ctx) {
    const page = await ctx.home();
    if (!page) return [];
    const repo = ctx.env.retire;
    const found = new Map<string, ScanFinding>();
    const add = (results: Detected[], file: string) => {
      for (const d of results) {
        const f = libraryFinding(repo, d, file);
        if (f && !found.has(f.key)) found.set(f.key, f);
      }
    };
    const html = page.body.toString('utf8');
    add(scanFileContent(html, repo, hasher) as Detected[], page.url);
    for (const src of scriptSources(html, page.url, ctx.hostname, ctx.env.options.maxScripts)) {
      add(scanFileName(new URL(src).pathname, repo, true) as Detected[], src);
      const r = await ctx.fetcher.get(src, { maxBytes: ctx.env.options.maxScriptBytes, maxRedirects: 2 }).catch((e: unknown) => {
        if (ctx.signal.aborted) throw e;
        return null; // a script that does not load is matched by its URL only
      });
      if (r?.status === 200) add(scanFileContent(r.body.toString('utf8'), repo, hasher) as Detected[], src);
    }
    return [...found.values()];
  },
};
