// Reading the operator's threat feeds, one line at a time (a million-line feed never sits in
// memory as one string): plain lists of IPs, CIDR ranges and domains (hosts-file lines too),
// and abuse.ch-style CSV (URLhaus, ThreatFox, Feodo Tracker), whose columns are named by the
// header comment; a URL's host is the indicator.
import type { IndicatorKind } from '../../db/schema/threat.ts';
import type { FeedFormat } from '../../threat-config.ts';
import { canonicalCidr, hostOf } from './addresses.ts';

export interface ParsedIndicator {
  value: string;
  kind: IndicatorKind;
  /** The line's own threat; null: the feed's */
  threat: string | null;
  tags: string;
  /** When the feed says it was added; null when it does not say */
  first_seen_at: number | null;
}

/** A line's value as an indicator: an address, a network, or a domain. */
export function indicatorOf(raw: string): Pick<ParsedIndicator, 'value' | 'kind'> | undefined {
  const s = raw.trim();
  if (s.includes('/') && !s.includes('://')) {
    const c = canonicalCidr(s);
    return c && { value: c.value, kind: c.single ? 'ip' : 'cidr' };
  }
  const h = hostOf(s);
  return h && { value: h.host, kind: h.ip ? 'ip' : 'domain' };
}

/** Hosts files map names to these; the name is the indicator. */
const SINK = new Set(['0.0.0.0', '127.0.0.1', '::', '::1']);

function plainLine(line: string): ParsedIndicator | undefined {
  const hash = line.indexOf('#');
  const text = (hash >= 0 ? line.slice(0, hash) : line).trim();
  if (text === '' || text.startsWith(';') || text.startsWith('//')) return undefined;
  const fields = text.split(/\s+/);
  const token = fields.length > 1 && SINK.has(fields[0]) ? fields[1] : fields[0];
  const ind = indicatorOf(token);
  return ind && { ...ind, threat: null, tags: '', first_seen_at: null };
}

/** One CSV record of a single line (abuse.ch quotes every field; "" is a quote). */
export function csvFields(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let v = '';
      i++;
      while (i < line.length) {
        if (line[i] === '"') {
          if (line[i + 1] === '"') {
            v += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        v += line[i++];
      }
      out.push(v);
      while (i < line.length && line[i] !== ',') i++;
      i++;
    } else {
      const end = line.indexOf(',', i);
      const stop = end < 0 ? line.length : end;
      out.push(line.slice(i, stop).trim());
      i = stop + 1;
    }
  }
  return out;
}

const VALUE_COLUMNS = ['url', 'ioc_value', 'ioc', 'dst_ip', 'ip_address', 'ip', 'host', 'domain'];
const DATE_COLUMNS = ['dateadded', 'first_seen_utc', 'first_seen', 'date_added'];
const THREAT_COLUMNS = ['threat', 'threat_type', 'malware', 'malware_printable'];
const TAG_COLUMNS = ['tags', 'tag', 'malware_alias'];
/** URLhaus's columns, for a file without its header comment */
const URLHAUS = ['id', 'dateadded', 'url', 'url_status', 'last_online', 'threat', 'tags', 'urlhaus_link', 'reporter'];

interface Columns {
  value: number;
  date: number;
  threat: number;
  tags: number;
}

function columnsOf(names: string[]): Columns | undefined {
  const find = (cands: string[]) => {
    for (const c of cands) {
      const i = names.indexOf(c);
      if (i >= 0) return i;
    }
    return -1;
  };
  const value = find(VALUE_COLUMNS);
  return value < 0 ? undefined : { value, date: find(DATE_COLUMNS), threat: find(THREAT_COLUMNS), tags: find(TAG_COLUMNS) };
}

/** abuse.ch writes '2026-05-01 12:00:00' in UTC. */
function utcTime(s: string | undefined): number | null {
  if (!s) return null;
  const t = Date.parse(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/.test(s) ? `${s.replace(' ', 'T')}Z` : s);
  return Number.isFinite(t) ? t : null;
}

/** A parser for one feed's lines: the CSV one learns its columns from the header comment. */
export function feedParser(format: FeedFormat): (line: string) => ParsedIndicator | undefined {
  if (format === 'plain') return plainLine;
  let cols: Columns = columnsOf(URLHAUS)!;
  return (line) => {
    const text = line.trim();
    if (text === '') return undefined;
    const header = text.startsWith('#') ? text.replace(/^#\s*/, '') : text;
    if (header.includes(',')) {
      const names = csvFields(header).map((n) => n.trim().toLowerCase());
      const found = columnsOf(names);
      if (found && names.every((n) => /^([a-z][a-z0-9_ ]*)?$/.test(n))) {
        cols = found;
        return undefined;
      }
    }
    if (text.startsWith('#')) return undefined;
    const f = csvFields(text);
    const ind = indicatorOf(f[cols.value] ?? '');
    if (!ind) return undefined;
    const threat = cols.threat >= 0 ? (f[cols.threat] ?? '').slice(0, 100) : '';
    const tags = cols.tags >= 0 ? (f[cols.tags] ?? '').slice(0, 300) : '';
    return { ...ind, threat: threat || null, tags, first_seen_at: cols.date >= 0 ? utcTime(f[cols.date]) : null };
  };
}
