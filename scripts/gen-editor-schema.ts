// Rewrites the lists of schemas/statuswatch.schema.json (monitor kinds and their fields, channel
// types, alert events, severities) from the OpenAPI document; the rest of the file is written by
// hand. Run after changing either: `npm run gen:editor-schema`. Formatted by Biome like the code.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { deriveEditorSchema } from '../src/server/cli/monitors-as-code/editor-schema.ts';
import { SCHEMA_URL } from '../src/server/cli/monitors-as-code/file.ts';
import { loadSpec } from '../src/server/http/openapi/spec.ts';

const file = fileURLToPath(SCHEMA_URL);
const { document } = await loadSpec();
const derived = deriveEditorSchema(JSON.parse(readFileSync(file, 'utf8')), document);
const formatted = execFileSync('biome', ['format', '--stdin-file-path=statuswatch.schema.json'], {
  input: `${JSON.stringify(derived, null, 2)}\n`,
  encoding: 'utf8',
});
writeFileSync(file, formatted);
console.log(`wrote ${file}`);
