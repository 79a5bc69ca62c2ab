// The committed editor schema holds the OpenAPI document's lists: a monitor kind, a kind's field
// or a channel type added to the API but not to schemas/statuswatch.schema.json fails here
// (`npm run gen:editor-schema` writes them).
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../http/openapi/spec.ts';
import { deriveEditorSchema, kindFields } from './editor-schema.ts';
import { FileError, parseCodeFile, SCHEMA_URL } from './file.ts';

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
    const kinds = [...s.MonitorType.enum, 'trialkind'];
    s.MonitorType.enum = kinds;
    s.MonitorType['x-enumDescriptions'].trialkind = 'Connects to `host` on `port` and reads the `trial_banner`.';
    s.MonitorInput.properties.trial_banner = { type: ['string', 'null'], maxLength: 200, description: 'API text' };
    s.ChannelType.enum = [...s.ChannelType.enum, 'trialchannel'];
    const derived = deriveEditorSchema(committed(), doc);
    const monitor = derived.$defs.monitor.properties;
    expect(kindFields(doc).get('trialkind')).toEqual(['host', 'port', 'trial_banner']);
    expect(monitor.type.enum).toEqual(kinds);
    expect(monitor.trial_banner).toEqual({ type: ['string', 'null'], maxLength: 200, description: 'trialkind' });
    expect(monitor.port.description).toBe(`${committed().$defs.monitor.properties.port.description}, trialkind`);
    // A note after the kinds stays where it was.
    expect(monitor.headers.description).toBe('http, websocket; write a secret value as ${ENV_VAR}');
    expect(monitor.accepted_status_codes.description).toBe('http, e.g. 200-299');
    expect(derived.$defs.alertChannel.properties.type.enum.at(-1)).toBe('trialchannel');
  });

  // Issue 29: the steps the console's editor exports are what a monitors-as-code file holds.
  it("takes an api_flow monitor's steps and names a step's unknown field and its line", () => {
    const flow = [
      'version: 1',
      'monitors:',
      '  - name: Checkout flow',
      '    type: api_flow',
      '    interval_seconds: 60',
      '    steps:',
      '      - name: Sign in',
      '        method: POST',
      '        url: https://shop.example.com/api/login',
      '        headers: {Content-Type: application/json}',
      '        body: \'{"password": "{{secrets.SHOP_PASSWORD}}"}\'',
      '        assertions:',
      '          - {source: status, comparison: equals, target: "200"}',
      '        extract:',
      '          - {variable: token, source: json, property: $.token}',
      '      - name: Cart',
      '        url: https://shop.example.com/api/cart',
      '        headers: {Authorization: "Bearer {{token}}"}',
      '        assertions:',
      '          - {source: json, property: $.total, comparison: equals, target: "42"}',
    ].join('\n');
    const { file } = parseCodeFile(flow, 'shop.yaml', {});
    expect(file.monitors?.[0]?.steps).toHaveLength(2);
    const bad = flow.replace('      - name: Cart', '      - name: Cart\n        retries: 3');
    expect(() => parseCodeFile(bad, 'shop.yaml', {})).toThrow(FileError);
    try {
      parseCodeFile(bad, 'shop.yaml', {});
    } catch (e) {
      expect((e as FileError).problems).toContain('line 16: /monitors/0/steps/1: unknown field "retries"');
    }
  });
});
