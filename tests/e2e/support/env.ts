// Where the e2e server runs: http://localhost:PORT (main host), http://NAME.localhost:PORT (tenants).
export function e2ePort(): number {
  const port = Number(process.env.E2E_PORT);
  if (!port) throw new Error('E2E_PORT is not set: run the e2e tests through playwright (global setup starts the server)');
  return port;
}
export const mainUrl = (path = '/') => `http://localhost:${e2ePort()}${path}`;
export const tenantUrl = (subdomain: string, path = '/') => `http://${subdomain}.localhost:${e2ePort()}${path}`;
export { E2E_ADMIN } from './global-setup.ts';
