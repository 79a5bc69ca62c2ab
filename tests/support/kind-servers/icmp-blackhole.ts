// A loopback address whose ICMP echo requests vanish, for ping checks' packet loss without
// leaving the machine: an nftables rule (input hook, so nothing answers and the sender sees no
// error) dropping echo requests to one 127.x address, all of them or only chosen sequence
// numbers. Needs root (CAP_NET_ADMIN) and nft (Debian's nftables, installed by
// scripts/ensure-test-deps.sh); `available()` says why not otherwise, for a skip with a reason.
import { execFileSync } from 'node:child_process';

export interface IcmpBlackhole {
  host: string;
  close(): Promise<void>;
}

/** Why this machine cannot black-hole ICMP, or null when it can. */
export function blackholeUnavailable(): string | null {
  try {
    execFileSync('nft', ['--version'], { stdio: 'ignore' });
  } catch {
    return 'nft (Debian package nftables) is not installed';
  }
  const probe = `sw_probe_${process.pid}`;
  try {
    execFileSync('nft', ['add', 'table', 'inet', probe], { stdio: 'pipe' });
    execFileSync('nft', ['delete', 'table', 'inet', probe], { stdio: 'pipe' });
    return null;
  } catch {
    return 'nftables rules cannot be added here (not root, or the kernel lacks nf_tables)';
  }
}

let seq = 0;

/**
 * Drops echo requests to `host` (a 127.x address; loopback answers the whole 127/8), or only
 * those whose ICMP sequence number is in `sequences` (iputils counts from 1).
 */
export async function startIcmpBlackhole(host: string, sequences?: number[]): Promise<IcmpBlackhole> {
  if (!/^127\.\d+\.\d+\.\d+$/.test(host) || host === '127.0.0.1') throw new Error('pick a 127.x address other than 127.0.0.1');
  // One table per black hole: tests in parallel processes never touch each other's rules.
  const table = `sw_blackhole_${process.pid}_${++seq}`;
  const nft = (...args: string[]) => execFileSync('nft', args, { stdio: 'pipe' });
  nft('add', 'table', 'inet', table);
  nft('add', 'chain', 'inet', table, 'input', '{ type filter hook input priority 0; policy accept; }');
  const which = sequences?.length ? ['icmp', 'sequence', `{ ${sequences.join(', ')} }`] : [];
  nft('add', 'rule', 'inet', table, 'input', 'ip', 'daddr', host, 'icmp', 'type', 'echo-request', ...which, 'drop');
  return {
    host,
    close: async () => {
      nft('delete', 'table', 'inet', table);
    },
  };
}
