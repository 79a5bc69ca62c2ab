// Past incidents an export carries (Statuspage's history), planned beside the monitors-as-code
// file: the server says which are already there (same title, same start), and the rest are
// written in ONE call (POST /api/v1/imports/incidents, one transaction) after everything else,
// so a refusal there leaves none of them and the import's undo takes back the rest.
import type { Api } from '../monitors-as-code/api.ts';
import type { Change, RunContext } from '../monitors-as-code/plan.ts';

export interface PastIncidentSpec {
  title: string;
  impact: 'minor' | 'major' | 'critical';
  started_at: string;
  resolved_at: string;
  /** Monitors of the file (or already on the server) by name */
  monitors: string[];
  updates: { status: 'investigating' | 'identified' | 'monitoring' | 'resolved'; message: string; at: string }[];
}

interface Answer {
  incidents: { title: string; started_at: string; action: 'create' | 'unchanged' }[];
}

const PATH = '/api/v1/imports/incidents';

export async function planIncidents(api: Api, incidents: PastIncidentSpec[] | undefined): Promise<Change[]> {
  if (!incidents || incidents.length === 0) return [];
  const body = (ids: (name: string) => string | undefined, list: PastIncidentSpec[]) =>
    list.map(({ monitors, ...i }) => ({ ...i, monitor_ids: monitors.flatMap((n) => ids(n) ?? []) }));
  // Monitors may not exist yet: the dry run matches by title and start only.
  const known = await api.send<Answer>('POST', PATH, { dry_run: true, incidents: body(() => undefined, incidents) });
  const toCreate = incidents.filter((_, k) => known.incidents[k]?.action === 'create');
  let sent = false;
  const sendAll = async (ctx: RunContext) => {
    if (sent) return;
    sent = true;
    await ctx.api.send('POST', PATH, { incidents: body((n) => ctx.ids.get(n), toCreate) });
  };
  return incidents.map((i, k) => {
    const create = known.incidents[k]?.action === 'create';
    return {
      what: 'incident',
      name: `${i.title} (${i.started_at.slice(0, 10)})`,
      action: create ? 'create' : 'unchanged',
      details: create
        ? [
            `${i.started_at} → ${i.resolved_at}`,
            `impact: ${i.impact}`,
            `${i.updates.length} updates`,
            ...(i.monitors.length ? [`monitors: ${JSON.stringify(i.monitors)}`] : []),
          ]
        : [],
      run: create ? sendAll : undefined,
    } satisfies Change;
  });
}

export interface ConfirmedSubscriberSpec {
  email: string;
  subscribed_at: string;
}

const SUBSCRIBERS = '/api/v1/imports/subscribers';

/** Confirmed subscribers: those the page does not know yet are added in ONE call, last of all. */
export async function planSubscribers(api: Api, subscribers: ConfirmedSubscriberSpec[] | undefined): Promise<Change[]> {
  if (!subscribers || subscribers.length === 0) return [];
  const known = await api.send<{ subscribers: { email: string; action: 'create' | 'unchanged' }[] }>('POST', SUBSCRIBERS, {
    dry_run: true,
    subscribers,
  });
  const toAdd = subscribers.filter((_, k) => known.subscribers[k]?.action === 'create');
  let sent = false;
  const sendAll = async (ctx: RunContext) => {
    if (sent) return;
    sent = true;
    await ctx.api.send('POST', SUBSCRIBERS, { subscribers: toAdd });
  };
  return subscribers.map((s, k) => {
    const create = known.subscribers[k]?.action === 'create';
    return {
      what: 'subscriber',
      name: s.email,
      action: create ? 'create' : 'unchanged',
      details: create ? [`confirmed, subscribed ${s.subscribed_at}`] : [],
      run: create ? sendAll : undefined,
    } satisfies Change;
  });
}
