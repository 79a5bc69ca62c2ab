// What a timed job declares: its name (which also names its lease), how often it runs, and the
// work of one period. Jobs are listed in registry.ts and run by runner.ts.
import type { Services } from '../domain/context.ts';

export interface Job {
  /** Unique among the jobs; kebab-case */
  name: string;
  /** Time between two runs across all processes; one run must fit in it (the lease lasts this long) */
  periodMs: number;
  /** One period's work at `now`; answers a line for the log when the run did something worth noting */
  run(services: Services, now: number): Promise<string | undefined>;
}
