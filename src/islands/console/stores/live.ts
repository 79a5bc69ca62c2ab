// The tab's one live connection (GET /api/v1/events, server-sent events): the header's unread
// count, and what screens listen to so they update without a reload. The browser reconnects a
// dropped stream by itself (after the server's `retry:`); it gives up when the server answers
// with an error instead of a stream (401 once the access token expired, 429), so then we renew
// the session through the API client and reopen, backing off. Coming back from sleep or from
// offline reopens a closed stream at once. Each stream's start asks the screens to reload what
// they show, since what changed before it has no event.
import { atom } from 'nanostores';
import type { components } from '../../../api/schema.d.ts';
import { api } from '../api.ts';

export type LiveMonitor = components['schemas']['LiveMonitor'];
type MonitorEvent = components['schemas']['LiveMonitorEvent'];

export type LiveMessage =
  | ({ type: 'monitor' } & MonitorEvent)
  | { type: 'incident' }
  | { type: 'maintenance' }
  | { type: 'notifications'; unread: number }
  /** The stream (re)started: reload what is shown, it may have changed unheard */
  | { type: 'resync' };

export const EVENTS_PATH = '/api/v1/events';
const MAX_BACKOFF_MS = 10_000;

/** The signed-in user's unread notifications; null until the stream said. */
export const $unread = atom<number | null>(null);

const listeners = new Set<(m: LiveMessage) => void>();

/** Calls `fn` for every live message until the returned function is called (a screen's effect). */
export function onLive(fn: (m: LiveMessage) => void): () => void {
  listeners.add(fn);
  return () => void listeners.delete(fn);
}

function emit(m: LiveMessage): void {
  for (const fn of [...listeners]) fn(m);
}

let source: EventSource | null = null;
let tenant: string | null = null;
let failures = 0;
let retry: ReturnType<typeof setTimeout> | undefined;
let watching = false;

function urlFor(t: string | null): string {
  return t ? `${EVENTS_PATH}?tenant=${encodeURIComponent(t)}` : EVENTS_PATH;
}

function open(): void {
  clearTimeout(retry);
  source?.close();
  const es = new EventSource(urlFor(tenant));
  source = es;
  // set again at each connection, also the browser's own reconnections of this EventSource
  let started = false;
  es.onopen = () => {
    failures = 0;
    started = false;
  };
  const on = (type: string, handle: (data: unknown) => void) =>
    es.addEventListener(type, (e) => {
      try {
        handle(JSON.parse((e as MessageEvent<string>).data));
      } catch {
        /* a malformed event is dropped */
      }
    });
  on('monitor', (d) => emit({ type: 'monitor', ...(d as MonitorEvent) }));
  on('incident', () => emit({ type: 'incident' }));
  on('maintenance', () => emit({ type: 'maintenance' }));
  // A stream's first event is the unread count, sent once the server took the stream's starting
  // point: a change before it (while the screen loaded, or the tab was offline) has no event,
  // so the screens reload then.
  on('notifications', (d) => {
    const unread = (d as { unread: number }).unread;
    $unread.set(unread);
    emit(started ? { type: 'notifications', unread } : { type: 'resync' });
    started = true;
  });
  es.onerror = () => {
    if (es.readyState === EventSource.CLOSED && source === es) reopenLater();
  };
}

function reopenLater(): void {
  clearTimeout(retry);
  const wait = Math.min(MAX_BACKOFF_MS, 1000 * 2 ** failures++);
  retry = setTimeout(async () => {
    // a call through the client renews an expired access token (or leads to sign-in)
    await api.GET('/api/v1/auth/me').catch(() => undefined);
    if (source) open();
  }, wait);
}

/** After sleep or a network change the stream may be gone: reopen it now rather than at the back-off's end. */
function wake(): void {
  if (document.visibilityState !== 'visible' || !source) return;
  if (source.readyState === EventSource.CLOSED) {
    failures = 0;
    open();
  }
}

/** Back online: reloads made while offline failed, so screens reload what they show. */
function backOnline(): void {
  wake();
  emit({ type: 'resync' });
}

/** Opens the tab's stream for this scope (the super admin's chosen tenant, else null), or keeps the open one. */
export function connectLive(scope: string | null): void {
  if (source && scope === tenant && source.readyState !== EventSource.CLOSED) return;
  tenant = scope;
  if (!watching) {
    watching = true;
    document.addEventListener('visibilitychange', wake);
    window.addEventListener('online', backOnline);
  }
  open();
}

/** Closes the stream (the console left the signed-in layout). */
export function disconnectLive(): void {
  clearTimeout(retry);
  source?.close();
  source = null;
  $unread.set(null);
}

/**
 * Runs `load` for live updates at most once at a time: a call while one runs runs once more
 * after it, so a burst of events costs two loads, and the last one sees the latest data.
 */
export function coalesced(load: () => Promise<unknown>): () => void {
  let running = false;
  let again = false;
  const run = async (): Promise<void> => {
    running = true;
    try {
      await load();
    } catch {
      /* a failed live reload keeps what is shown */
    }
    running = false;
    if (again) {
      again = false;
      void run();
    }
  };
  return () => {
    if (running) again = true;
    else void run();
  };
}
