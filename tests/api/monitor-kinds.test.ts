// Monitor kinds are plug-ins (engine/kinds/): the OpenAPI document must describe exactly the
// kinds that have a module, and each kind's fields exactly, so adding one without the other fails.
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/server/engine/kinds/index.ts';
import { loadSpec } from '../../src/server/http/openapi/spec.ts';

/** Fields every monitor has, whatever its kind. */
const COMMON_INPUT = [
  'type',
  'company_id',
  'name',
  'interval_seconds',
  'timeout_seconds',
  'confirmations',
  'is_public',
  'sla_target',
  'is_critical',
  'locations',
  'quorum',
  'parents',
];

type Json = Record<string, any>;
const byPath = (spec: Json, method: string, path: string) => spec.paths[path][method];

describe('monitor kinds', () => {
  it('registers a module for each kind the document describes, and describes every registered kind with its fields', async () => {
    const { document } = await loadSpec();
    const create = byPath(document, 'post', '/api/v1/monitors');
    const input: Json = create.requestBody.content['application/json'].schema;
    const update: Json = byPath(document, 'put', '/api/v1/monitors/{id}').requestBody.content['application/json'].schema;
    const view: Json = create.responses['201'].content['application/json'].schema;
    const typeSchema: Json = input.properties.type;
    const described: Record<string, string> = typeSchema['x-enumDescriptions'] ?? {};

    expect(Object.keys(KINDS).sort()).toEqual([...typeSchema.enum].sort());
    expect(Object.keys(described).sort()).toEqual(Object.keys(KINDS).sort());

    for (const [type, kind] of Object.entries(KINDS)) {
      // The description names the kind's fields in backticks, each once.
      const named = [...described[type].matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);
      expect({ type, fields: [...new Set(named)].sort() }).toEqual({ type, fields: [...kind.fields].sort() });
      for (const field of kind.fields) {
        expect({
          type,
          field,
          input: field in input.properties,
          update: field in update.properties,
          view: view.required.includes(field),
        }).toEqual({ type, field, input: true, update: true, view: true });
      }
    }
    // And the reverse: every documented input field is common or some kind's.
    const kindFields = new Set(Object.values(KINDS).flatMap((k) => k.fields as readonly string[]));
    const strays = Object.keys(input.properties).filter((f) => !COMMON_INPUT.includes(f) && !kindFields.has(f));
    expect(strays).toEqual([]);
  });

  it('presents exactly the fields each kind declares, null when unset', () => {
    for (const [type, kind] of Object.entries(KINDS)) {
      const view = kind.present({}, { secrets: true });
      expect({ type, fields: Object.keys(view).sort() }).toEqual({ type, fields: [...kind.fields].sort() });
      expect(Object.values(view).every((v) => v === null)).toBe(true);
    }
  });
});
