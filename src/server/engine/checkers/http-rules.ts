// How an HTTP check judges a response against the monitor's rules: status code lists and a
// small JSONPath subset. Pure.
import { DEFAULT_ACCEPTED_STATUS_CODES } from '../../../lib/monitor-kinds.ts';

/** "200-299", "301", "2xx" → does `code` match one of them? */
export function statusAccepted(code: number, accepted: string[] | undefined): boolean {
  const list = accepted?.length ? accepted : DEFAULT_ACCEPTED_STATUS_CODES;
  return list.some((rule) => {
    const r = rule.trim().toLowerCase();
    const xx = /^([1-5])xx$/.exec(r);
    if (xx) return Math.floor(code / 100) === Number(xx[1]);
    const range = /^(\d{3})\s*-\s*(\d{3})$/.exec(r);
    if (range) return code >= Number(range[1]) && code <= Number(range[2]);
    return /^\d{3}$/.test(r) && Number(r) === code;
  });
}

/** A small JSONPath subset: $.a.b[0].c (dots and array indexes). undefined when absent. */
export function jsonPathGet(doc: unknown, path: string): unknown {
  const p = path.trim().replace(/^\$\.?/, '');
  if (p === '') return doc;
  let cur: unknown = doc;
  for (const part of p.match(/[^.[\]]+|\[\d+\]/g) ?? []) {
    if (cur === null || typeof cur !== 'object') return undefined;
    const key = part.startsWith('[') ? Number(part.slice(1, -1)) : part;
    cur = (cur as Record<string | number, unknown>)[key];
  }
  return cur;
}
