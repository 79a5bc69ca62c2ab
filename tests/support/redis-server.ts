// A throwaway Redis server (Debian's redis-server) on 127.0.0.1 and free ports, for the redis
// kind's tests: a password, an ACL user allowed PING only, and a TLS port with a certificate of
// the test CA. Nothing is saved; its directory goes with stop(). scripts/ensure-test-deps.sh
// installs the package.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './pg-cluster.ts';
import { waitFor } from './wait-for.ts';

export interface RedisServer {
  port: number;
  tlsPort: number | null;
  stop(): Promise<void>;
  /** Ends the server at once (a process's exit handler, where nothing can be awaited); its directory stays. */
  kill(): void;
}

const BIN = '/usr/bin/redis-server';

/** `tls`: a directory holding valid.pem, valid.key and ca.pem (tests/fixtures/targets/tls-targets.ts makeCerts). */
export async function startRedisServer(opts: {
  password: string;
  aclUser?: { name: string; password: string };
  tlsDir?: string;
}): Promise<RedisServer> {
  if (!existsSync(BIN))
    throw new Error('Redis is not installed (apt-get install -y redis-server); scripts/ensure-test-deps.sh installs it.');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'sw-redis-'));
  const port = await freePort();
  const tlsPort = opts.tlsDir ? await freePort() : null;
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no', '--daemonize', 'no'];
  args.push('--requirepass', opts.password, '--logfile', path.join(dir, 'log'));
  if (opts.aclUser) args.push('--user', opts.aclUser.name, 'on', `>${opts.aclUser.password}`, '+ping');
  if (opts.tlsDir && tlsPort) {
    args.push('--tls-port', String(tlsPort), '--tls-auth-clients', 'no');
    args.push('--tls-cert-file', path.join(opts.tlsDir, 'valid.pem'), '--tls-key-file', path.join(opts.tlsDir, 'valid.key'));
    args.push('--tls-ca-cert-file', path.join(opts.tlsDir, 'ca.pem'));
  }
  const child: ChildProcess = spawn(BIN, args, { stdio: 'ignore' });
  let exited = false;
  child.once('exit', () => {
    exited = true;
  });
  await waitFor(
    () => {
      if (exited)
        throw new Error(`redis-server exited at start: ${spawnSync('cat', [path.join(dir, 'log')], { encoding: 'utf8' }).stdout}`);
      return new Promise<boolean>((resolve) => {
        const s = net.connect({ host: '127.0.0.1', port }, () => s.write('PING\r\n'));
        s.once('data', (d) => {
          s.destroy();
          resolve(/NOAUTH|PONG/.test(d.toString()));
        });
        s.once('error', () => resolve(false));
      });
    },
    { timeoutMs: 15_000 },
  );
  return {
    port,
    tlsPort,
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
