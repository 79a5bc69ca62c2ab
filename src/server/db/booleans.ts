// Boolean columns are integers holding 0/1 on both databases (SQLite has no boolean type, and the
// PostgreSQL schema mirrors it). This plugin makes them booleans at the repository boundary, so no
// caller handles 0/1: the rows of a query read booleans for the boolean columns it selects, and
// booleans written (values, sets, comparisons) go to the database as 0/1.
// Which columns are boolean is declared per table below, never guessed from a value: an integer
// column such as a count keeps its numbers.
import {
  OperationNodeTransformer,
  PrimitiveValueListNode,
  ValueNode,
  type KyselyPlugin,
  type OperationNode,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  type QueryId,
  type QueryResult,
  type RootOperationNode,
  type SelectType,
  type UnknownRow,
} from 'kysely';
import type { Database } from './schema/index.ts';

type BooleanColumnsOf<Row> = { [C in keyof Row]-?: SelectType<Row[C]> extends boolean ? C : never }[keyof Row] & string;
type TablesWithBooleans = {
  [T in keyof Database as BooleanColumnsOf<Database[T]> extends never ? never : T]: Record<BooleanColumnsOf<Database[T]>, true>;
};

/**
 * Every boolean column of the schema, by table. The type makes it complete: a column typed boolean
 * in db/schema and missing here (or listed here and not boolean there) fails the typecheck.
 */
const BOOLEAN_COLUMNS: TablesWithBooleans = {
  companies: { is_active: true, threat_feed_enabled: true, public_security_panel: true },
  users: { is_active: true },
  refresh_tokens: { remember: true },
  auth_codes: { remember: true },
  notifications: { is_read: true },
  notification_preferences: {
    email_enabled: true,
    sms_enabled: true,
    webhook_enabled: true,
    monitor_incidents: true,
    ssl_warnings: true,
    dns_warnings: true,
    security_alerts: true,
    system_notifications: true,
  },
  feature_flags: { enabled: true },
  monitors: { is_public: true, is_paused: true, is_critical: true, run_local: true, public_locations: true, public_response_chart: true },
  incidents: { is_public: true },
  alert_channels: { enabled: true },
  report_schedules: { enabled: true },
  spans: { is_error: true, is_request: true },
  threat_lookalikes: { registered: true },
  ui_settings: { light_version: true },
  escalation_policies: { notify_team_at_last_step: true },
  company_sso: { require_sso: true },
  sso_requests: { remember: true },
};

const booleansOf = (table: string): string[] => Object.keys((BOOLEAN_COLUMNS as Record<string, object>)[table] ?? {});

/** A stored 0/1 (or a driver's '0'/'1') as a boolean: for the rows a repository reads with raw SQL. */
export function asBoolean(v: unknown): boolean {
  return v === true || Number(v) === 1;
}

type Node = OperationNode & Record<string, unknown>;
const nameOf = (identifier: unknown): string => ((identifier as { name?: string })?.name ?? '') as string;

/** The tables a query reads, by the name its selections use for each (alias or table name). */
function tablesInScope(node: Node): Map<string, string> {
  const scope = new Map<string, string>();
  const add = (n: Node | undefined) => {
    if (!n) return;
    if (n.kind === 'TableNode') {
      const name = nameOf((n.table as Node).identifier);
      scope.set(name, name);
    } else if (n.kind === 'AliasNode' && (n.node as Node).kind === 'TableNode') {
      scope.set(nameOf(n.alias), nameOf(((n.node as Node).table as Node).identifier));
    }
  };
  for (const f of ((node.from as Node | undefined)?.froms as Node[] | undefined) ?? []) add(f);
  for (const j of (node.joins as Node[] | undefined) ?? []) add(j.table as Node);
  add(node.into as Node | undefined);
  add(node.table as Node | undefined);
  return scope;
}

/** The result keys of a query that hold a boolean column, by what it selects or returns. */
function booleanKeys(node: Node): string[] {
  const selections =
    node.kind === 'SelectQueryNode'
      ? (node.selections as Node[] | undefined)
      : ((node.returning as Node | undefined)?.selections as Node[] | undefined);
  if (!selections?.length) return [];
  const scope = tablesInScope(node);
  const keys: string[] = [];
  const isBoolean = (column: string, table?: string) =>
    table !== undefined
      ? booleansOf(scope.get(table) ?? table).includes(column)
      : [...scope.values()].some((t) => booleansOf(t).includes(column));
  for (const { selection } of selections as unknown as { selection: Node }[]) {
    const aliased = selection.kind === 'AliasNode';
    const ref = (aliased ? selection.node : selection) as Node;
    if (ref.kind === 'SelectAllNode') for (const t of scope.values()) keys.push(...booleansOf(t));
    if (ref.kind !== 'ReferenceNode') continue;
    const table = ref.table ? nameOf(((ref.table as Node).table as Node).identifier) : undefined;
    const column = ref.column as Node;
    if (column.kind === 'SelectAllNode') {
      keys.push(...booleansOf(scope.get(table!) ?? table!));
    } else {
      const name = nameOf(column.column);
      if (isBoolean(name, table)) keys.push(aliased ? nameOf(selection.alias) : name);
    }
  }
  return keys;
}

/** Booleans in a query's parameters become 0/1 (PostgreSQL refuses 'true' for an integer column). */
class BooleansAsIntegers extends OperationNodeTransformer {
  protected override transformValue(node: ValueNode): ValueNode {
    if (typeof node.value !== 'boolean') return node;
    const n = node.value ? 1 : 0;
    return node.immediate ? ValueNode.createImmediate(n) : ValueNode.create(n);
  }
  protected override transformPrimitiveValueList(node: PrimitiveValueListNode): PrimitiveValueListNode {
    if (!node.values.some((v) => typeof v === 'boolean')) return node;
    return PrimitiveValueListNode.create(node.values.map((v) => (typeof v === 'boolean' ? (v ? 1 : 0) : v)));
  }
}

/**
 * Whether a query binds a boolean anywhere. Most do not, and the transformer rebuilds (and freezes)
 * every node of the tree it walks: for the result writer's inserts of 500 rows, thousands of
 * values, that copy was a measurable share of storing a probe result (bench:probe-drain). A
 * look through the plain tree costs a fraction of it.
 */
function bindsBoolean(node: unknown): boolean {
  const stack: unknown[] = [node];
  while (stack.length > 0) {
    const n = stack.pop();
    if (typeof n === 'boolean') return true;
    if (n === null || typeof n !== 'object') continue;
    if (Array.isArray(n)) {
      for (const x of n)
        if (typeof x === 'boolean') return true;
        else if (x !== null && typeof x === 'object') stack.push(x);
      continue;
    }
    if (ArrayBuffer.isView(n)) continue;
    for (const v of Object.values(n)) {
      if (typeof v === 'boolean') return true;
      if (v !== null && typeof v === 'object') stack.push(v);
    }
  }
  return false;
}

export class BooleanColumnsPlugin implements KyselyPlugin {
  readonly #keys = new WeakMap<QueryId, string[]>();
  readonly #writer = new BooleansAsIntegers();
  /** SQLite's adapter already binds booleans as 0/1 (sqlite-adapter.ts), so only PostgreSQL's queries are rewritten. */
  readonly #encodeWrites: boolean;

  constructor(opts: { encodeWrites: boolean }) {
    this.#encodeWrites = opts.encodeWrites;
  }

  transformQuery({ node, queryId }: PluginTransformQueryArgs): RootOperationNode {
    const keys = booleanKeys(node as unknown as Node);
    if (keys.length) this.#keys.set(queryId, keys);
    return this.#encodeWrites && bindsBoolean(node) ? this.#writer.transformNode(node) : node;
  }

  async transformResult({ result, queryId }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    const keys = this.#keys.get(queryId);
    if (!keys) return result;
    for (const row of result.rows) {
      for (const key of keys) {
        const v = row[key];
        if (v !== null && v !== undefined && typeof v !== 'boolean') row[key] = asBoolean(v);
      }
    }
    return result;
  }
}
