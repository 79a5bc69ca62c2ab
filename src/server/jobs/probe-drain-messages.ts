// What the main thread and the probe drain thread say to each other (probe-drain.ts, probe-drain-thread.ts).
import type { Config } from '../config.ts';
import type { ProbeCheckCount } from '../domain/context.ts';

export interface DrainThreadData {
  config: Config;
}

/** From the main thread */
export type ToDrainThread =
  /** results landed in the inbox: drain, then answer `drained` with this `seq` */
  { type: 'kick'; seq: number } | { type: 'stop' };

/** From the drain thread */
export type FromDrainThread =
  | { type: 'failed'; error: string }
  /** everything landed before kick `seq` is stored */
  | { type: 'drained'; seq: number }
  /** checks_total for what a stored row held */
  | { type: 'counted'; label: string; counts: ProbeCheckCount[] }
  /** alert deliveries committed: the main thread's runner sends them */
  | { type: 'deliveries' };
