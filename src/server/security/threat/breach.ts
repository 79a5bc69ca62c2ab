// The breach-lookup adapter. The operator names a provider (BREACH_LOOKUP_URL, BREACH_LOOKUP_KEY)
// that speaks this small API (docs/features/threat-intelligence.md):
//   GET <BREACH_LOOKUP_URL>?domain=<e-mail domain>   Authorization: Bearer <key>
//   200 {"breaches": [{"name": "ExampleShop", "date": "2025-04-01", "accounts": 1200,
//                      "data_classes": ["email", "password"]}]}   (an empty list: none known)
// Anything else is an error shown as such; the answer is bounded in size and time.

export interface Breach {
  name: string;
  /** YYYY-MM-DD as the provider dates it */
  date: string;
  accounts: number | null;
  data_classes: string[];
}

const MAX_BYTES = 1024 * 1024;
const TIMEOUT_MS = 15_000;

export class BreachLookupError extends Error {}

function breachOf(v: unknown): Breach | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const b = v as Record<string, unknown>;
  if (typeof b.name !== 'string' || typeof b.date !== 'string') return undefined;
  return {
    name: b.name.slice(0, 200),
    date: b.date.slice(0, 10),
    accounts: typeof b.accounts === 'number' && Number.isFinite(b.accounts) ? b.accounts : null,
    data_classes: Array.isArray(b.data_classes) ? b.data_classes.filter((c): c is string => typeof c === 'string').slice(0, 30) : [],
  };
}

export async function lookupBreaches(provider: { url: string; key: string }, domain: string): Promise<Breach[]> {
  const url = new URL(provider.url);
  url.searchParams.set('domain', domain);
  let res: Response;
  try {
    res = await fetch(url, {
      headers: { authorization: `Bearer ${provider.key}`, accept: 'application/json' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch {
    throw new BreachLookupError('The breach-lookup provider did not answer.');
  }
  const text = await res.text().catch(() => '');
  if (res.status !== 200) throw new BreachLookupError(`The breach-lookup provider answered HTTP ${res.status}.`);
  if (text.length > MAX_BYTES) throw new BreachLookupError('The breach-lookup provider answered too much.');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new BreachLookupError('The breach-lookup provider answered something other than JSON.');
  }
  const list = (body as { breaches?: unknown })?.breaches;
  if (!Array.isArray(list)) throw new BreachLookupError('The breach-lookup provider answered without a breaches list.');
  return list.flatMap((b) => breachOf(b) ?? []).slice(0, 500);
}
