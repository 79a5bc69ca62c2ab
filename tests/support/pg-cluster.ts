// A throwaway PostgreSQL cluster on 127.0.0.1 and a free port, for the test suite and benches.
// PostgreSQL refuses to run as root, so as root it runs as the postgres user.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, chmodSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export interface PgCluster {
  url: string;
  /** Stops the server but keeps its data (an outage); `resume` starts it again on the same port. */
  halt(mode: 'fast' | 'immediate'): void;
  resume(): void;
  stop(): void;
}

function pgBin(): string {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base))
    throw new Error('PostgreSQL is not installed (apt-get install -y postgresql); scripts/ensure-test-deps.sh installs it.');
  const versions = readdirSync(base)
    .filter((v) => existsSync(path.join(base, v, 'bin', 'initdb')))
    .sort((a, b) => Number(b) - Number(a));
  if (!versions.length) throw new Error('No PostgreSQL server binaries found under /usr/lib/postgresql');
  return path.join(base, versions[0], 'bin');
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });
}

/** `password`: TCP logins need it (SCRAM), so a wrong one is refused; unset: no password (trust). */
export async function startPgCluster(opts: { password?: string } = {}): Promise<PgCluster> {
  const bin = pgBin();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sw-pg-'));
  chmodSync(dir, 0o777);
  const data = path.join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  const run = (cmd: string, args: string[]) => {
    const full = asRoot
      ? (['runuser', ['-u', 'postgres', '--', path.join(bin, cmd), ...args]] as const)
      : ([path.join(bin, cmd), args] as const);
    const r = spawnSync(full[0], full[1] as string[], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr || r.stdout}`);
  };
  const auth = ['-A', 'trust'];
  if (opts.password) {
    const pwfile = path.join(dir, 'pw');
    writeFileSync(pwfile, opts.password, { mode: 0o644 });
    auth.splice(0, 2, '--auth-local=trust', '--auth-host=scram-sha-256', `--pwfile=${pwfile}`);
  }
  run('initdb', ['-D', data, ...auth, '-U', 'postgres', '--no-sync', '-E', 'UTF8']);
  const port = await freePort();
  const start = () =>
    run('pg_ctl', [
      '-D',
      data,
      '-l',
      path.join(dir, 'log'),
      '-w',
      '-o',
      `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`,
      'start',
    ]);
  start();
  return {
    url: `postgres://postgres${opts.password ? `:${encodeURIComponent(opts.password)}` : ''}@127.0.0.1:${port}/postgres`,
    halt(mode) {
      run('pg_ctl', ['-D', data, '-m', mode, '-w', 'stop']);
    },
    resume: start,
    stop() {
      try {
        run('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']);
      } catch {
        /* already gone */
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Creates a fresh empty database in the cluster and returns its URL. */
export async function createDatabase(clusterUrl: string, name: string): Promise<string> {
  const pg = (await import('pg')).default;
  const c = new pg.Client({ connectionString: clusterUrl });
  await c.connect();
  try {
    await c.query(`CREATE DATABASE "${name.replace(/[^a-z0-9_]/g, '')}"`);
  } finally {
    await c.end();
  }
  const u = new URL(clusterUrl);
  u.pathname = `/${name}`;
  return u.toString();
}
