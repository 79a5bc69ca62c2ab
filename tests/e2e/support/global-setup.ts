// One running server for the e2e run, with a super admin. Tests create their own companies
// (unique subdomains) so they never depend on each other. The port and pid travel in the
// environment (Playwright hands globalSetup's env to workers and teardown), so concurrent runs
// never see each other's server.
import { startServer } from './server.ts';

export const E2E_ADMIN = { email: 'root@statuswatch.test', password: 'correct horse battery staple' };

export default async function globalSetup(): Promise<void> {
  const server = await startServer({ ADMIN_EMAIL: E2E_ADMIN.email, ADMIN_PASSWORD: E2E_ADMIN.password, MIN_CHECK_INTERVAL_SECONDS: '1' });
  process.env.E2E_PORT = String(server.port);
  process.env.E2E_PID = String(server.proc.pid);
  process.env.E2E_DATA_DIR = server.dataDir;
  server.proc.unref();
}
