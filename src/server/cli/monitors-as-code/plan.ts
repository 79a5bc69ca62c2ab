// The difference between a file and the server, as a list of changes, each with the calls
// that make it. Everything is decided before the first write: an unknown type change, an
// ambiguous name on the server or a secret whose variable is unset stops the run untouched.
import type { Api } from './api.ts';
import { monitorSecretFieldsOf, resolveSecret, secretFieldsOf } from './file.ts';
import type { ApiMonitor, ApiPageSettings, ChannelSpec, CodeFile, MaintenanceSpec, MonitorSpec, Placement, RemoteState } from './model.ts';

export type Action = 'create' | 'update' | 'unchanged' | 'restore' | 'archive' | 'cancel' | 'disable' | 'kept';

export interface Change {
  what: 'monitor' | 'maintenance window' | 'alert channel' | 'status page' | 'incident' | 'subscriber';
  name: string;
  action: Action;
  /** "field: old → new" lines */
  details: string[];
  run?: (ctx: RunContext) => Promise<void>;
}

export interface RunContext {
  api: Api;
  /** Monitor ids by name, completed as monitors are created */
  ids: Map<string, string>;
  /** Lines worth telling the user (a new push monitor's URL, shown once) */
  notes: string[];
}

export class PlanError extends Error {}

export interface PlanOptions {
  prune: boolean;
  resendSecrets: boolean;
  env: NodeJS.ProcessEnv;
  /** Filled with each secret a write would send whose variable is unset ("where: NAME") */
  missingSecrets: string[];
}

/** A secret's value for a write; an unset variable is recorded (apply then stops before any write). */
function secretValue(value: unknown, opts: PlanOptions, where: string): unknown {
  const r = resolveSecret(value, opts.env);
  for (const name of r.missing) opts.missingSecrets.push(`${where} needs environment variable ${name}`);
  return r.value;
}

const show = (v: unknown) => (v === undefined ? '(unset)' : JSON.stringify(v));

/** Equal as JSON, object keys in any order. */
function same(a: unknown, b: unknown): boolean {
  const norm = (v: unknown): unknown =>
    Array.isArray(v)
      ? v.map(norm)
      : v && typeof v === 'object'
        ? Object.fromEntries(
            Object.entries(v)
              .sort(([x], [y]) => x.localeCompare(y))
              .map(([k, x]) => [k, norm(x)]),
          )
        : v;
  return JSON.stringify(norm(a ?? null)) === JSON.stringify(norm(b ?? null));
}

const sorted = (xs: string[]) => [...xs].sort();

/** The one object of that name on the server, refusing two. */
function single<T>(items: T[], key: (t: T) => string, name: string, what: string): T | undefined {
  const found = items.filter((i) => key(i) === name);
  if (found.length > 1)
    throw new PlanError(
      `The server has ${found.length} ${what}s named "${name}"; rename all but one in the console first (objects are matched by name).`,
    );
  return found[0];
}

function diffFields(
  spec: Record<string, unknown>,
  remote: Record<string, unknown>,
  fields: string[],
): { details: string[]; changed: Record<string, unknown> } {
  const details: string[] = [];
  const changed: Record<string, unknown> = {};
  for (const f of fields) {
    if (!(f in spec)) continue;
    if (!same(spec[f], remote[f])) {
      details.push(`${f}: ${show(remote[f] ?? null)} → ${show(spec[f])}`);
      changed[f] = spec[f];
    }
  }
  return { details, changed };
}

const idOf = (ctx: RunContext, name: string) => {
  const id = ctx.ids.get(name);
  if (!id) throw new PlanError(`monitor "${name}" has no id`);
  return id;
};

/**
 * The file's monitors with each group after the monitors it contains (a group is created with its
 * children, which must exist by then); otherwise in the file's order. A cycle is left in place
 * for the server to refuse with its own message.
 */
function linkOrder(specs: MonitorSpec[]): MonitorSpec[] {
  const byName = new Map(specs.map((s) => [s.name, s]));
  const out: MonitorSpec[] = [];
  const placed = new Set<string>();
  const visiting = new Set<string>();
  const place = (s: MonitorSpec) => {
    if (placed.has(s.name) || visiting.has(s.name)) return;
    visiting.add(s.name);
    for (const child of Array.isArray(s.children) ? (s.children as string[]) : []) {
      const c = byName.get(child);
      if (c) place(c);
    }
    visiting.delete(s.name);
    placed.add(s.name);
    out.push(s);
  };
  for (const s of specs) place(s);
  return out;
}

function planMonitors(file: CodeFile, remote: RemoteState & { archived: ApiMonitor[] }, opts: PlanOptions): Change[] {
  // A section the file leaves out is not managed (not even by --prune).
  if (file.monitors === undefined) return [];
  const changes: Change[] = [];
  const specs = linkOrder(file.monitors);
  const nameOf = new Map([...remote.archived, ...remote.monitors].map((m) => [m.id, m.name]));
  const namesOf = (ids: unknown) => (Array.isArray(ids) ? ids.map((id) => nameOf.get(id as string) ?? (id as string)) : ids);
  for (const spec of specs) {
    // `parents` is set once every monitor exists (they may name each other in any order).
    const { name, type, paused, parents: _parents, ...all } = spec;
    // A password is never in the server's answer: sent when the monitor is made, and again only
    // with --resend-secrets (like channel secrets); its ${ENV_VAR} is resolved only then.
    const secretKeys = monitorSecretFieldsOf(type).filter((f) => f in all);
    const secrets = () => Object.fromEntries(secretKeys.map((f) => [f, secretValue(all[f], opts, `monitor "${name}" ${f}`)]));
    const fields = Object.fromEntries(Object.entries(all).filter(([f]) => !secretKeys.includes(f)));
    const withIds = (body: Record<string, unknown>, ctx: RunContext) =>
      Array.isArray(body.children) ? { ...body, children: (body.children as string[]).map((n) => idOf(ctx, n)) } : body;
    let current = single(remote.monitors, (m) => m.name, name, 'monitor');
    let restore = false;
    if (!current) {
      current = remote.archived.filter((m) => m.name === name).at(-1);
      restore = current !== undefined;
    }
    if (!current) {
      const sent = secrets();
      changes.push({
        what: 'monitor',
        name,
        action: 'create',
        details: [...Object.entries(fields).map(([f, v]) => `${f}: ${show(v)}`), ...secretKeys.map((f) => `${f}: (secret)`)],
        async run(ctx) {
          const created = await ctx.api.send<ApiMonitor & { push_url: string | null }>(
            'POST',
            '/api/v1/monitors',
            withIds({ name, type, ...fields, ...sent }, ctx),
          );
          ctx.ids.set(name, created.id);
          if (created.push_url) ctx.notes.push(`push URL of monitor "${name}" (shown once): ${created.push_url}`);
          if (paused) await ctx.api.send('POST', `/api/v1/monitors/${created.id}/pause`);
        },
      });
      continue;
    }
    if (current.type !== type)
      throw new PlanError(
        `monitor "${name}" is a ${current.type} monitor on the server and ${type} in the file; a monitor's type cannot change (rename one of them).`,
      );
    const id = current.id;
    const { details, changed } = diffFields(fields, { ...current, children: namesOf(current.children) }, Object.keys(fields));
    if (opts.resendSecrets && secretKeys.length > 0) {
      Object.assign(changed, secrets());
      details.push(...secretKeys.map((f) => `${f}: (secret, sent again)`));
    }
    const pause = paused !== undefined && paused !== current.is_paused;
    if (pause) details.push(`paused: ${current.is_paused} → ${paused}`);
    if (restore) details.unshift('archived → restored');
    const action: Action = restore ? 'restore' : details.length > 0 ? 'update' : 'unchanged';
    changes.push({
      what: 'monitor',
      name,
      action,
      details,
      run:
        action === 'unchanged'
          ? undefined
          : async (ctx) => {
              if (restore) {
                await ctx.api.send('POST', `/api/v1/monitors/${id}/restore`);
                ctx.ids.set(name, id);
              }
              if (Object.keys(changed).length > 0) await ctx.api.send('PUT', `/api/v1/monitors/${id}`, withIds(changed, ctx));
              if (pause) await ctx.api.send('POST', `/api/v1/monitors/${id}/${paused ? 'pause' : 'resume'}`);
            },
    });
  }
  for (const spec of specs) {
    if (spec.parents === undefined) continue;
    const wanted = (spec.parents ?? []) as string[];
    const current = remote.monitors.find((m) => m.name === spec.name) ?? remote.archived.filter((m) => m.name === spec.name).at(-1);
    const now = (namesOf(current?.parents) as string[] | undefined) ?? [];
    if (same(sorted(now), sorted(wanted))) continue;
    changes.push({
      what: 'monitor',
      name: spec.name,
      action: 'update',
      details: [`parents: ${show(now)} → ${show(wanted)}`],
      run: (ctx) => ctx.api.send('PUT', `/api/v1/monitors/${idOf(ctx, spec.name)}`, { parents: wanted.map((n) => idOf(ctx, n)) }),
    });
  }
  const named = new Set(specs.map((s) => s.name));
  for (const m of remote.monitors.filter((m) => !named.has(m.name))) {
    changes.push(
      opts.prune
        ? {
            what: 'monitor',
            name: m.name,
            action: 'archive',
            details: [],
            run: (ctx) => ctx.api.send('POST', `/api/v1/monitors/${m.id}/archive`),
          }
        : { what: 'monitor', name: m.name, action: 'kept', details: ['not in the file (--prune archives it)'] },
    );
  }
  return changes;
}

function planWindows(file: CodeFile, remote: RemoteState, opts: PlanOptions, monitorName: (id: string) => string): Change[] {
  if (file.maintenance === undefined) return [];
  const changes: Change[] = [];
  const body = (w: MaintenanceSpec, ctx: RunContext, fields: string[]) => {
    const out: Record<string, unknown> = {};
    for (const f of fields) {
      if (f === 'monitors') out.monitor_ids = (w.monitors ?? []).map((n) => idOf(ctx, n));
      else out[f] = w[f as keyof MaintenanceSpec];
    }
    return out;
  };
  for (const w of file.maintenance) {
    const current = single(remote.windows, (x) => x.title, w.title, 'maintenance window');
    const given = Object.keys(w).filter((f) => f !== 'title');
    if (!current) {
      changes.push({
        what: 'maintenance window',
        name: w.title,
        action: 'create',
        details: given.map((f) => `${f}: ${show(w[f as keyof MaintenanceSpec])}`),
        run: (ctx) => ctx.api.send('POST', '/api/v1/maintenance-windows', { title: w.title, ...body(w, ctx, given) }),
      });
      continue;
    }
    const now: Record<string, unknown> = { ...current, monitors: sorted(current.monitor_ids.map(monitorName)) };
    const want: Record<string, unknown> = { ...w, ...(w.monitors ? { monitors: sorted(w.monitors) } : {}) };
    const details: string[] = [];
    const fields: string[] = [];
    for (const f of given) {
      const instant = f === 'starts_at' || f === 'ends_at';
      const equal = instant ? Date.parse(String(want[f])) === Date.parse(String(now[f])) : same(want[f], now[f]);
      if (!equal) {
        details.push(`${f}: ${show(now[f])} → ${show(want[f])}`);
        fields.push(f);
      }
    }
    changes.push({
      what: 'maintenance window',
      name: w.title,
      action: details.length > 0 ? 'update' : 'unchanged',
      details,
      run:
        details.length > 0 ? (ctx) => ctx.api.send('PATCH', `/api/v1/maintenance-windows/${current.id}`, body(w, ctx, fields)) : undefined,
    });
  }
  const titled = new Set(file.maintenance.map((w) => w.title));
  for (const w of remote.windows.filter((x) => !titled.has(x.title) && (x.state === 'scheduled' || x.state === 'active'))) {
    changes.push(
      opts.prune
        ? {
            what: 'maintenance window',
            name: w.title,
            action: 'cancel',
            details: [],
            run: (ctx) => ctx.api.send('POST', `/api/v1/maintenance-windows/${w.id}/cancel`),
          }
        : { what: 'maintenance window', name: w.title, action: 'kept', details: ['not in the file (--prune cancels it)'] },
    );
  }
  return changes;
}

function planChannels(file: CodeFile, remote: RemoteState, opts: PlanOptions, monitorName: (id: string) => string): Change[] {
  if (file.alert_channels === undefined) return [];
  const changes: Change[] = [];
  for (const c of file.alert_channels) {
    const current = single(remote.channels, (x) => x.name, c.name, 'alert channel');
    const secretKeys = secretFieldsOf(c.type).filter((f) => f in c.config);
    const secrets = () =>
      Object.fromEntries(secretKeys.map((f) => [f, secretValue(c.config[f], opts, `alert channel "${c.name}" config.${f}`)]));
    const plain = Object.fromEntries(Object.entries(c.config).filter(([f]) => !secretKeys.includes(f)));
    const ids = (ctx: RunContext) =>
      c.monitors === undefined ? {} : { monitor_ids: c.monitors === null ? null : c.monitors.map((n) => idOf(ctx, n)) };
    const rest = (spec: ChannelSpec) => ({
      ...(spec.events ? { events: spec.events } : {}),
      ...(spec.min_severity ? { min_severity: spec.min_severity } : {}),
      ...(spec.enabled === undefined ? {} : { enabled: spec.enabled }),
    });
    if (!current) {
      const config = { ...plain, ...secrets() };
      changes.push({
        what: 'alert channel',
        name: c.name,
        action: 'create',
        details: [`type: ${c.type}`, ...secretKeys.map((f) => `config.${f}: (secret)`)],
        run: (ctx) => ctx.api.send('POST', '/api/v1/alert-channels', { name: c.name, type: c.type, config, ...rest(c), ...ids(ctx) }),
      });
      continue;
    }
    if (current.type !== c.type)
      throw new PlanError(
        `alert channel "${c.name}" is of type ${current.type} on the server and ${c.type} in the file; the type cannot change.`,
      );
    const details: string[] = [];
    for (const [f, v] of Object.entries(plain))
      if (!same(v, current.config[f])) details.push(`config.${f}: ${show(current.config[f])} → ${show(v)}`);
    const resend = opts.resendSecrets && secretKeys.length > 0;
    const sentSecrets = resend ? secrets() : {};
    if (resend) details.push(...secretKeys.map((f) => `config.${f}: (secret, sent again)`));
    const configChanged = details.length > 0;
    const update: Record<string, unknown> = configChanged ? { config: { ...current.config, ...plain, ...sentSecrets } } : {};
    if (c.events && !same(sorted(c.events), sorted(current.events))) {
      details.push(`events: ${show(current.events)} → ${show(c.events)}`);
      update.events = c.events;
    }
    const remoteMonitors = current.monitor_ids === null ? null : sorted(current.monitor_ids.map(monitorName));
    const wantMonitors = c.monitors === undefined ? undefined : c.monitors === null ? null : sorted(c.monitors);
    const monitorsChanged = wantMonitors !== undefined && !same(wantMonitors, remoteMonitors);
    if (monitorsChanged) details.push(`monitors: ${show(remoteMonitors)} → ${show(wantMonitors)}`);
    for (const f of ['min_severity', 'enabled'] as const) {
      if (c[f] !== undefined && c[f] !== current[f]) {
        details.push(`${f}: ${show(current[f])} → ${show(c[f])}`);
        update[f] = c[f];
      }
    }
    changes.push({
      what: 'alert channel',
      name: c.name,
      action: details.length > 0 ? 'update' : 'unchanged',
      details,
      run:
        details.length > 0
          ? (ctx) => ctx.api.send('PUT', `/api/v1/alert-channels/${current.id}`, { ...update, ...(monitorsChanged ? ids(ctx) : {}) })
          : undefined,
    });
  }
  const named = new Set(file.alert_channels.map((c) => c.name));
  for (const c of remote.channels.filter((x) => !named.has(x.name) && x.enabled)) {
    changes.push(
      opts.prune
        ? {
            what: 'alert channel',
            name: c.name,
            action: 'disable',
            details: ['enabled: true → false'],
            run: (ctx) => ctx.api.send('PUT', `/api/v1/alert-channels/${c.id}`, { enabled: false }),
          }
        : { what: 'alert channel', name: c.name, action: 'kept', details: ['not in the file (--prune disables it)'] },
    );
  }
  return changes;
}

interface Layout {
  ungrouped: Placement[];
  groups: { name: string; monitors: Placement[] }[];
}

function layoutText(l: Layout): string {
  const item = (p: Placement) => (p.public_name ? `${p.monitor} (as "${p.public_name}")` : p.monitor);
  return (
    [l.ungrouped.map(item).join(', '), ...l.groups.map((g) => `${g.name}: ${g.monitors.map(item).join(', ')}`)]
      .filter(Boolean)
      .join(' | ') || '(empty)'
  );
}

function planPage(file: CodeFile, remote: RemoteState, opts: PlanOptions): Change[] {
  const spec = file.status_page;
  if (!spec) return [];
  const changes: Change[] = [];
  const page = remote.page;
  if (spec.access) {
    const a = spec.access;
    const details: string[] = [];
    if (a.mode !== page.access.mode) details.push(`access.mode: ${page.access.mode} → ${a.mode}`);
    if (a.ip_allowlist && !same(sorted(a.ip_allowlist), sorted(page.access.ip_allowlist)))
      details.push(`access.ip_allowlist: ${show(page.access.ip_allowlist)} → ${show(a.ip_allowlist)}`);
    const needsPassword = a.mode === 'password' && (page.access.mode !== 'password' || !page.access.has_password);
    const sendPassword = a.password !== undefined && (needsPassword || opts.resendSecrets);
    if (needsPassword && a.password === undefined)
      throw new PlanError(
        `status_page.access.mode is password but no password is set on the server: give access.password (as a \${VARIABLE} reference).`,
      );
    const password = sendPassword ? (secretValue(a.password, opts, 'status_page.access.password') as string) : undefined;
    if (sendPassword) details.push('access.password: (secret, sent)');
    changes.push({
      what: 'status page',
      name: 'access',
      action: details.length > 0 ? 'update' : 'unchanged',
      details,
      run:
        details.length > 0
          ? (ctx) =>
              ctx.api.send('PUT', '/api/v1/status-page/access', {
                mode: a.mode,
                ...(a.ip_allowlist ? { ip_allowlist: a.ip_allowlist } : {}),
                ...(password ? { password } : {}),
              })
          : undefined,
    });
  }
  if (spec.ungrouped === undefined && spec.groups === undefined) return changes;
  // The file's monitors in page order; those it does not place are listed on their own, last.
  const named = new Set((file.monitors ?? []).map((m) => m.name));
  const currentOf = new Map(page.monitors.map((m) => [m.name, m]));
  const withName = (p: Placement): Placement => ({
    monitor: p.monitor,
    public_name: p.public_name === undefined ? (currentOf.get(p.monitor)?.public_name ?? null) : p.public_name,
  });
  const placed = new Set([...(spec.ungrouped ?? []), ...(spec.groups ?? []).flatMap((g) => g.monitors)].map((p) => p.monitor));
  const want: Layout = {
    ungrouped: [
      ...(spec.ungrouped ?? []).map(withName),
      ...(file.monitors ?? []).filter((m) => !placed.has(m.name)).map((m) => withName({ monitor: m.name })),
    ],
    groups: (spec.groups ?? []).map((g) => ({ name: g.name, monitors: g.monitors.map(withName) })),
  };
  const ofFile = (m: ApiPageSettings['monitors'][number]) => named.has(m.name);
  const asPlacement = (m: ApiPageSettings['monitors'][number]): Placement => ({ monitor: m.name, public_name: m.public_name });
  const now: Layout = {
    ungrouped: page.monitors.filter((m) => m.group_id === null && ofFile(m)).map(asPlacement),
    groups: page.groups.map((g) => ({
      name: g.name,
      monitors: page.monitors.filter((m) => m.group_id === g.id && ofFile(m)).map(asPlacement),
    })),
  };
  const changed = !same(want, now);
  changes.push({
    what: 'status page',
    name: 'layout',
    action: changed ? 'update' : 'unchanged',
    details: changed ? [`${layoutText(now)} → ${layoutText(want)}`] : [],
    run: changed
      ? async (ctx) => {
          // Read again: monitors created or made public a moment ago are in it now.
          const fresh = await ctx.api.get<ApiPageSettings>('/api/v1/status-page/settings');
          const isPublic = new Map(fresh.monitors.map((m) => [m.id, m.is_public]));
          const input = (p: Placement) => {
            const id = idOf(ctx, p.monitor);
            return { monitor_id: id, is_public: isPublic.get(id) ?? false, public_name: p.public_name ?? null };
          };
          const groupId = new Map(fresh.groups.map((g) => [g.name, g.id]));
          await ctx.api.send('PUT', '/api/v1/status-page/settings', {
            ungrouped: want.ungrouped.map(input),
            groups: want.groups.map((g) => ({
              ...(groupId.has(g.name) ? { id: groupId.get(g.name) } : {}),
              name: g.name,
              monitors: g.monitors.map(input),
            })),
          });
        }
      : undefined,
  });
  return changes;
}

export function plan(file: CodeFile, remote: RemoteState & { archived: ApiMonitor[] }, opts: PlanOptions): Change[] {
  const names = new Map([...remote.archived, ...remote.monitors].map((m) => [m.id, m.name]));
  const monitorName = (id: string) => names.get(id) ?? id;
  return [
    ...planMonitors(file, remote, opts),
    ...planWindows(file, remote, opts, monitorName),
    ...planChannels(file, remote, opts, monitorName),
    ...planPage(file, remote, opts),
  ];
}

/** Runs the changes in order (monitors first, so the others can name them). */
export async function applyPlan(api: Api, changes: Change[], remote: RemoteState): Promise<RunContext> {
  const ctx: RunContext = { api, ids: new Map(remote.monitors.map((m) => [m.name, m.id])), notes: [] };
  for (const c of changes) await c.run?.(ctx);
  return ctx;
}
