// A throwaway MariaDB server (Debian's mariadb-server) on 127.0.0.1 and a free port, for the mysql
// kind's tests: a fresh data directory (mariadb-install-db), root by its Unix socket only, and the
// users and tables a test asks for made through that socket. TLS with a certificate of the test
// CA when given. scripts/ensure-test-deps.sh installs the package.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './pg-cluster.ts';
import { waitFor } from './wait-for.ts';

export interface MariaDbServer {
  port: number;
  /** Runs SQL as root through the server's socket. */
  sql(statements: string): void;
  stop(): Promise<void>;
  /** Ends the server at once (a process's exit handler, where nothing can be awaited); its directory stays. */
  kill(): void;
}

const BIN = '/usr/sbin/mariadbd';

/** `tlsDir`: a directory holding valid.pem, valid.key and ca.pem (tests/fixtures/targets/tls-targets.ts makeCerts). */
export async function startMariaDbServer(opts: { tlsDir?: string } = {}): Promise<MariaDbServer> {
  if (!existsSync(BIN))
    throw new Error('MariaDB is not installed (apt-get install -y mariadb-server); scripts/ensure-test-deps.sh installs it.');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sw-mariadb-'));
  const data = path.join(dir, 'data');
  const sock = path.join(dir, 'sock');
  // As root the server runs as root (--user=root): a throwaway instance in a private directory.
  const init = spawnSync(
    'mariadb-install-db',
    ['--no-defaults', `--datadir=${data}`, '--user=root', '--auth-root-authentication-method=socket', '--skip-test-db'],
    { encoding: 'utf8' },
  );
  if (init.status !== 0) throw new Error(`mariadb-install-db failed: ${init.stderr || init.stdout}`);
  const port = await freePort();
  const args = [
    '--no-defaults',
    `--datadir=${data}`,
    `--port=${port}`,
    '--bind-address=127.0.0.1',
    `--socket=${sock}`,
    '--user=root',
    '--skip-name-resolve',
    '--skip-log-bin',
    '--innodb-buffer-pool-size=16M',
    `--pid-file=${path.join(dir, 'pid')}`,
    `--log-error=${path.join(dir, 'error.log')}`,
  ];
  if (opts.tlsDir)
    args.push(
      `--ssl-cert=${path.join(opts.tlsDir, 'valid.pem')}`,
      `--ssl-key=${path.join(opts.tlsDir, 'valid.key')}`,
      `--ssl-ca=${path.join(opts.tlsDir, 'ca.pem')}`,
    );
  const child: ChildProcess = spawn(BIN, args, { stdio: 'ignore' });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  const sql = (statements: string) => {
    const r = spawnSync('mariadb', ['--no-defaults', '-S', sock, '-u', 'root', '-e', statements], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`mariadb: ${r.stderr}`);
  };
  await waitFor(
    () => {
      if (exited) throw new Error(`mariadbd exited at start: ${readFileSync(path.join(dir, 'error.log'), 'utf8')}`);
      return spawnSync('mariadb', ['--no-defaults', '-S', sock, '-u', 'root', '-e', 'SELECT 1'], { encoding: 'utf8' }).status === 0;
    },
    { timeoutMs: 30_000 },
  );
  return {
    port,
    sql,
    kill() {
      if (!exited) child.kill('SIGKILL');
    },
    async stop() {
      if (!exited) {
        const gone = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await gone;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
