// Sending right after the commit: a transaction that wrote deliveries wakes this process's
// delivery runner (jobs/alert-delivery.ts) once it has committed (afterCommit in db/scope.ts),
// so an alert leaves within milliseconds instead of at the next tick of the 1 s job. This file
// only carries the signal, so that writers of deliveries need not import the sender.
import { afterCommit, type DbScope } from '../../db/scope.ts';

const wakers = new Set<() => void>();

function wakeAll(): void {
  for (const wake of wakers) wake();
}

/**
 * Deliveries were committed by another thread of this process (the probe drain thread,
 * jobs/probe-drain.ts): this thread's runner sends them now.
 */
export function deliveriesWrittenElsewhere(): void {
  wakeAll();
}

/** Call where deliveries are written: this process sends them once `scope` has committed. */
export function deliveriesWritten(scope: DbScope): void {
  afterCommit(scope, wakeAll);
}

/** Calls `wake` whenever this process committed deliveries; answers the function that stops it. */
export function onDeliveriesWritten(wake: () => void): () => void {
  wakers.add(wake);
  return () => wakers.delete(wake);
}
