// The committed editor schema holds the OpenAPI document's lists: a monitor kind, a kind's field
// or a channel type added to the API but not to schemas/statuswatch.schema.json fails here
// (`npm run gen:editor-schema` writes them).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../http/openapi/spec.ts';
import { deriveEditorSchema, kindFields } from './editor-schema.ts';
import { SCHEMA_URL } from './file.ts';

const committed = () => JSON.parse(readFileSync(SCHEMA_URL, 'utf8'));

describe('editor schema', () => {
  it('equals what npm run gen:editor-schema derives from the OpenAPI document', async () => {
    const { document } = await loadSpec();
    expect(committed()).toEqual(deriveEditorSchema(committed(), document));
  });

  it('derives a new kind, its new field and a new channel type', async () => {
    const { document } = await loadSpec();
    const doc = structuredClone(document);
    const s = doc.components.schemas;
    s.MonitorType.enum.push('smtp');
    s.MonitorType['x-enumDescriptions'].smtp = 'Connects to `host` on `port` and reads the `smtp_banner`.';
    s.MonitorInput.properties.smtp_banner = { type: ['string', 'null'], maxLength: 200, description: 'API text' };
    s.ChannelType.enum.push('matrix');
    const derived = deriveEditorSchema(committed(), doc);
    expect(kindFields(doc).get('smtp')).toEqual(['host', 'port', 'smtp_banner']);
    expect(derived.$defs.monitor.properties.type.enum).toEqual(['http', 'tcp', 'dns', 'ssl', 'push', 'smtp']);
    expect(derived.$defs.monitor.properties.smtp_banner).toEqual({ type: ['string', 'null'], maxLength: 200, description: 'smtp' });
    expect(derived.$defs.monitor.properties.port.description).toBe('tcp, ssl, smtp');
    expect(derived.$defs.monitor.properties.headers.description).toBe('http; write a secret value as ${ENV_VAR}');
    expect(derived.$defs.monitor.properties.accepted_status_codes.description).toBe('http, e.g. 200-299');
    expect(derived.$defs.alertChannel.properties.type.enum.at(-1)).toBe('matrix');
  });
});
