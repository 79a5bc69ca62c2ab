// The editor schema (schemas/statuswatch.schema.json) is written by hand except its lists, which
// the OpenAPI document owns: the monitor kinds and each kind's fields, the channel types, alert
// events and severities, and the enums of the kinds' fields. `npm run gen:editor-schema` rewrites
// them in the committed file; editor-schema.test.ts fails while the file differs from this
// derivation, so a kind or channel added to the API and forgotten here fails `npm test`.
import { COMMON_MONITOR_FIELDS } from './model.ts';

type Json = Record<string, any>;

/** Properties of a monitor entry that are no kind's field. */
const MONITOR_OWN = ['name', 'type', ...COMMON_MONITOR_FIELDS, 'paused'];

/** Each kind's fields as its x-enumDescriptions entry names them (in backticks), kinds in enum order. */
export function kindFields(document: Json): Map<string, string[]> {
  const type: Json = document.components.schemas.MonitorType;
  const described: Record<string, string> = type['x-enumDescriptions'] ?? {};
  return new Map(
    (type.enum as string[]).map((kind) => [kind, [...new Set([...(described[kind] ?? '').matchAll(/`([a-z_]+)`/g)].map((m) => m[1]))]]),
  );
}

/** "http, tcp; a note" → the note after the leading kind names (kept when the kinds change); names may hold digits (pop3). */
function noteAfterKinds(description: string | undefined, kinds: Set<string>): string {
  let rest = description ?? '';
  for (let m = /^([a-z0-9_-]+)(, )?/.exec(rest); m && kinds.has(m[1]); m = /^([a-z0-9_-]+)(, )?/.exec(rest)) rest = rest.slice(m[0].length);
  return rest && !/^[;,]/.test(rest) ? `, ${rest}` : rest;
}

/** A field as the editor takes it: the API's input schema, described by the kinds that use it. */
function fieldSchema(api: Json | undefined, existing: Json | undefined, users: string[], kinds: Set<string>): Json {
  const base: Json = existing ? { ...existing } : { ...api };
  delete base.description;
  if (api?.enum) base.enum = [...api.enum];
  return { ...base, description: users.join(', ') + noteAfterKinds(existing?.description, kinds) };
}

/** The committed editor schema with every list the OpenAPI document owns taken from it. */
export function deriveEditorSchema(current: Json, document: Json): Json {
  const schemas: Json = document.components.schemas;
  const out: Json = structuredClone(current);
  const byKind = kindFields(document);
  const kinds = new Set(byKind.keys());
  const monitor: Json = out.$defs.monitor.properties;
  monitor.type.enum = [...schemas.MonitorType.enum];
  const users = new Map<string, string[]>();
  for (const [kind, fields] of byKind) for (const f of fields) users.set(f, [...(users.get(f) ?? []), kind]);
  const properties: Json = {};
  for (const [key, value] of Object.entries<Json>(monitor)) {
    if (MONITOR_OWN.includes(key)) properties[key] = value;
    else if (users.has(key)) properties[key] = fieldSchema(schemas.MonitorInput.properties[key], value, users.get(key)!, kinds);
  }
  for (const [field, kindsOfField] of users)
    if (!(field in properties)) properties[field] = fieldSchema(schemas.MonitorInput.properties[field], undefined, kindsOfField, kinds);
  out.$defs.monitor.properties = properties;
  const channel: Json = out.$defs.alertChannel.properties;
  channel.type.enum = [...schemas.ChannelType.enum];
  channel.events.items.enum = [...schemas.AlertEvent.enum];
  channel.min_severity.enum = [...schemas.AlertSeverity.enum];
  return out;
}
