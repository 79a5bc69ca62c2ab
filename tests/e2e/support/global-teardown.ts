export default async function globalTeardown(): Promise<void> {
  const pid = Number(process.env.E2E_PID);
  if (!pid) return;
  try {
    process.kill(pid, 'SIGTERM');
  } catch {
    /* already stopped */
  }
}
