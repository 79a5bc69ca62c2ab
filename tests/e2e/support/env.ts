// Where the e2e server runs: http://localhost:PORT (main host), http://NAME.localhost:PORT (tenants).
import { readFileSync } from 'node:fs';

export function e2ePort(): number {
  return Number(process.env.E2E_PORT ?? JSON.parse(readFileSync('.tmp/e2e-server.json', 'utf8')).port);
}
export const mainUrl = (path = '/') => `http://localhost:${e2ePort()}${path}`;
export const tenantUrl = (subdomain: string, path = '/') => `http://${subdomain}.localhost:${e2ePort()}${path}`;
export { E2E_ADMIN } from './global-setup.ts';
