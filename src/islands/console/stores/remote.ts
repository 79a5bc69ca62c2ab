// What every feature store does with the API: load an answer into a Load<> atom, run a change and
// then reload, and report failures in the spec's texts (section 8: some shown, some only logged).
import type { WritableAtom } from 'nanostores';
import { errorText } from '../api.ts';
import type { Load } from '../ui/load.ts';
import { showToast } from './toast.ts';

/** An openapi-fetch answer: data when the call went through, else the error (a problem body). */
type Answer<T> = { data?: T; error?: unknown; response?: Response };

/** How a failed call reads on screen. */
export type FailureText = (error: unknown) => string;
/** The spec's text, whatever the server said. */
export const always =
  (text: string): FailureText =>
  () =>
    text;
/** The server's explanation, or the spec's text when it gives none. */
export const serverOr =
  (text: string): FailureText =>
  (error) =>
    errorText(error, text);

/**
 * Loading while the call runs, then its data or the failure text. An answer that comes when
 * `current()` no longer holds (a later load of the same store began meanwhile) is dropped, so a
 * slow earlier answer never overwrites a later one.
 */
export async function loadInto<T>(
  store: WritableAtom<Load<T>>,
  call: () => Promise<Answer<T>>,
  failed: FailureText,
  current: () => boolean = () => true,
): Promise<void> {
  store.set({ status: 'loading' });
  try {
    const { data, error, response } = await call();
    if (!current()) return;
    store.set(data !== undefined ? { status: 'ready', data } : { status: 'error', message: failed(error), httpStatus: response?.status });
  } catch (e) {
    if (current()) store.set({ status: 'error', message: failed(e) });
  }
}

/**
 * A reload behind what is shown (a live update): the store changes only when data comes and
 * `wanted()` still holds (the screen did not move on meanwhile); a failure keeps what is shown.
 */
export async function refreshInto<T>(
  store: WritableAtom<Load<T>>,
  call: () => Promise<Answer<T>>,
  wanted: () => boolean = () => true,
): Promise<void> {
  try {
    const { data } = await call();
    if (data !== undefined && wanted()) store.set({ status: 'ready', data });
  } catch {
    /* offline or timed out: the next event or reconnection reloads */
  }
}

/** A call's data, or null after logging the failure (for what the spec only logs). */
export async function dataOrLog<T>(call: () => Promise<Answer<T>>, failed: string): Promise<T | null> {
  try {
    const { data, error } = await call();
    if (data !== undefined) return data;
    console.error(failed, error);
  } catch (e) {
    console.error(failed, e);
  }
  return null;
}

/** How a change's outcome is told to the user. */
export interface ChangeReport {
  done(): void;
  failed(error: unknown): void;
}

/** Runs a change; when it went through, reports it and reloads, else reports why. True when it went through. */
export async function changeThenReload(
  call: () => Promise<Answer<unknown>>,
  report: ChangeReport,
  reload: () => Promise<void>,
): Promise<boolean> {
  try {
    const { data, error } = await call();
    if (data !== undefined) {
      report.done();
      await reload();
      return true;
    }
    report.failed(error);
  } catch (e) {
    report.failed(e);
  }
  return false;
}

/** The success or failure alert above a management list. */
export interface Alert {
  ok: boolean;
  text: string;
}

/** Outcome in an alert: the spec's success text, or its failure text followed by the server's reason. */
export function inAlert(alert: WritableAtom<Alert | null>, done: string, failed: string): ChangeReport {
  return {
    done: () => alert.set({ ok: true, text: done }),
    failed: (error) => alert.set({ ok: false, text: `${failed} ${errorText(error, '')}`.trim() }),
  };
}

/** Outcome as a toast; a failure is only logged. */
export function inToast(done: string, failed: string): ChangeReport {
  return {
    done: () => showToast(done),
    failed: (error) => console.error(failed, error),
  };
}
