import { readFileSync } from 'node:fs';

export default async function globalTeardown(): Promise<void> {
  try {
    const { pid } = JSON.parse(readFileSync('.tmp/e2e-server.json', 'utf8')) as { pid: number };
    process.kill(pid, 'SIGTERM');
  } catch {
    /* already stopped */
  }
}
