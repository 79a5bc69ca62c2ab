// The OTLP benchmark's server process: the real app (Fastify, ingest, span writer, rollups) on
// an SQLite file (or DATABASE_URL), one enterprise company with an ingest key. Prints one JSON
// line {port, key, pid} and serves until SIGTERM (then flushes and closes).
import { parseConfig } from '../../src/server/config.ts';
import { buildApp } from '../../src/server/http/app.ts';
import { createServices } from '../../src/server/services.ts';
import { companiesRepo } from '../../src/server/db/repositories/companies-repo.ts';
import { createApiKey } from '../../src/server/domain/telemetry/api-keys.ts';
import { newId } from '../../src/server/domain/ids.ts';

const config = parseConfig({ ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent', RUN_ENGINE: 'false' });
const services = await createServices(config);
const app = await buildApp({ services, withPages: false, logger: false });
const id = newId();
const now = Date.now();
await companiesRepo(services.db).insert({
  id,
  name: 'Bench Co',
  email: 'bench@example.com',
  subdomain: 'bench',
  slug: 'bench',
  plan: 'enterprise',
  created_at: now,
  updated_at: now,
});
const superAdmin = {
  userId: 'bench',
  email: 'bench@example.com',
  fullName: 'Bench',
  userType: 1 as const,
  role: 'super_admin' as const,
  companyId: null,
  sessionId: 'bench',
  iat: 0,
  exp: 0,
};
const { key } = await createApiKey(
  { services, actor: superAdmin, host: 'localhost', ip: '127.0.0.1', userAgent: 'bench' },
  { name: 'bench', scope: 'ingest', company_id: id },
);
await app.listen({ port: 0, host: '127.0.0.1' });
process.stdout.write(JSON.stringify({ port: (app.server.address() as { port: number }).port, key, pid: process.pid }) + '\n');
process.on('SIGTERM', async () => {
  await app.close();
  for (const hook of services.onShutdown ?? []) await hook();
  await services.db.close();
  process.exit(0);
});
