// The hosts a company's services call, from their client spans (OTLP kind 3): the semantic
// conventions name the peer in server.address (current), net.peer.name (older), or only in the
// URL (url.full, http.url). Kept per (company, host, service) at ingest so threat matching
// reads a few rows instead of a day of span attributes.
import { hostOf } from '../security/threat/addresses.ts';

const HOST_ATTRIBUTES = ['server.address', 'net.peer.name', 'url.full', 'http.url'];
const CLIENT = 3;

export interface PeerCall {
  company_id: string;
  host: string;
  service: string;
  seen_at: number;
}

/** One row per (company, host, service) of the batch, with the latest call's time in ms. */
export function peerCalls(
  companyId: string,
  spans: ReadonlyArray<{ kind: number; service: string; start_us: number; attributes: string }>,
): PeerCall[] {
  const out = new Map<string, PeerCall>();
  for (const s of spans) {
    if (s.kind !== CLIENT) continue;
    let attrs: Record<string, unknown>;
    try {
      attrs = JSON.parse(s.attributes) as Record<string, unknown>;
    } catch {
      continue;
    }
    let host: string | undefined;
    for (const name of HOST_ATTRIBUTES) {
      const v = attrs[name];
      if (typeof v === 'string' && (host = hostOf(v)?.host)) break;
    }
    if (!host) continue;
    const service = s.service.slice(0, 200);
    const key = `${host}\n${service}`;
    const seen_at = Math.floor(s.start_us / 1000);
    const before = out.get(key);
    if (!before || before.seen_at < seen_at) out.set(key, { company_id: companyId, host, service, seen_at });
  }
  return [...out.values()];
}
