// One running server for the e2e run, with a super admin. Tests create their own companies
// (unique subdomains) so they never depend on each other.
import { writeFileSync, mkdirSync } from 'node:fs';
import { startServer } from './server.ts';

export const E2E_ADMIN = { email: 'root@statuswatch.test', password: 'correct horse battery staple' };

export default async function globalSetup(): Promise<void> {
  const server = await startServer({ ADMIN_EMAIL: E2E_ADMIN.email, ADMIN_PASSWORD: E2E_ADMIN.password, MIN_CHECK_INTERVAL_SECONDS: '1' });
  mkdirSync('.tmp', { recursive: true });
  writeFileSync('.tmp/e2e-server.json', JSON.stringify({ port: server.port, pid: server.proc.pid, dataDir: server.dataDir }));
  process.env.E2E_PORT = String(server.port);
  server.proc.unref();
}
