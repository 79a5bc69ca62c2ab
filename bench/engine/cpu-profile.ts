// A CPU profile of the main thread over a benchmark's measured window (open the file in Chrome's
// DevTools, Performance, or read it with scripts). No file: nothing is profiled.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';

export async function startCpuProfile(file: string | undefined): Promise<{ stop(): Promise<void> }> {
  if (!file) return { stop: async () => {} };
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      writeFileSync(file, JSON.stringify(profile));
      session.disconnect();
    },
  };
}
