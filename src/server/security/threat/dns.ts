// The DNS questions of threat intelligence, through the operator's resolvers (DNS_RESOLVERS):
// blocklist answers and their TXT reasons, and whether a lookalike name is registered. All
// passive: a blocklist or a registry is asked about a name; the name's own hosts are not touched.
import { Resolver } from 'node:dns/promises';

export interface ThreatDns {
  /** A records; [] when the name does not exist or has none; throws when the DNS did not answer */
  a(name: string): Promise<string[]>;
  txt(name: string): Promise<string[]>;
  /** Any NS, A or SOA answer: registered; NXDOMAIN: not; undefined: no answer to tell */
  registered(name: string): Promise<boolean | undefined>;
}

const codeOf = (e: unknown) => (e as NodeJS.ErrnoException).code ?? '';
/** "No such name" and "no record of this type": a real answer, not a failure */
const ABSENT = new Set(['ENOTFOUND', 'ENODATA']);

export function threatDns(servers?: readonly string[]): ThreatDns {
  const resolver = () => {
    const r = new Resolver({ timeout: 1000, tries: 2 });
    if (servers?.length) r.setServers([...servers]);
    return r;
  };
  const absentAsEmpty = async <T>(ask: () => Promise<T[]>): Promise<T[]> => {
    try {
      return await ask();
    } catch (e) {
      if (ABSENT.has(codeOf(e))) return [];
      throw e;
    }
  };
  return {
    a: (name) => absentAsEmpty(() => resolver().resolve4(name)),
    txt: async (name) => (await absentAsEmpty(() => resolver().resolveTxt(name))).map((parts) => parts.join('')),
    async registered(name) {
      const r = resolver();
      for (const ask of [() => r.resolveNs(name), () => r.resolve4(name), async () => [await r.resolveSoa(name)]]) {
        try {
          if ((await ask()).length > 0) return true;
        } catch (e) {
          const code = codeOf(e);
          if (code === 'ENOTFOUND') return false; // NXDOMAIN: nobody holds the name
          if (code !== 'ENODATA') return undefined;
        }
      }
      return false;
    },
  };
}
