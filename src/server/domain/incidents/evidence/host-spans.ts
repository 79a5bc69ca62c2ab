// The company's spans that name the monitored host (OTLP ingest): client spans calling it
// (server.address, net.peer.name, the URL) and server spans serving it (http.host,
// server.address). The query narrows by text; the host is checked here exactly.
import { evidenceSourcesRepo, type HostSpan } from '../../../db/repositories/evidence-sources-repo.ts';
import type { DbScope } from '../../../db/scope.ts';
import { hostOf } from '../../../security/threat/addresses.ts';

const HOST_ATTRIBUTES = ['server.address', 'net.peer.name', 'http.host', 'url.full', 'http.url'];
const LIMIT = 5000;

export function namesHost(attributesJson: string, host: string): boolean {
  let attrs: Record<string, unknown>;
  try {
    attrs = JSON.parse(attributesJson) as Record<string, unknown>;
  } catch {
    return false;
  }
  return HOST_ATTRIBUTES.some((k) => typeof attrs[k] === 'string' && hostOf(attrs[k] as string)?.host === host);
}

export async function spansOfHost(db: DbScope, companyId: string, host: string, from: number, to: number): Promise<HostSpan[]> {
  const rows = await evidenceSourcesRepo(db).spansNamingHost(companyId, host, from * 1000, to * 1000, LIMIT);
  return rows.filter((s) => namesHost(s.attributes, host));
}
