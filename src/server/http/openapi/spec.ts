// Loads the hand-written, multi-file OpenAPI document once and gives the routes what they need:
// every operation with its method, path, parameters, body schema and security.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const SPEC_FILE = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../openapi/openapi.yaml');
const NODE_MODULES = path.resolve(path.dirname(SPEC_FILE), '../node_modules');
const CACHE_DIR = path.join(NODE_MODULES, '.cache/statuswatch');

type Json = Record<string, any>;

export interface OperationSpec {
  operationId: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';
  /** OpenAPI path, e.g. /api/v1/admin/users/{id} */
  path: string;
  /** Fastify path, e.g. /api/v1/admin/users/:id */
  route: string;
  /** false when the operation has `security: []` */
  requiresAuth: boolean;
  /** true when an API key (bearer) is accepted instead of a session */
  apiKey: boolean;
  /** true for a probe's own calls: a probe token (bearer) is their only credential */
  probeToken: boolean;
  /** true for the incoming-alert receive calls: a source's token (bearer or in the path) is their only credential */
  incomingToken: boolean;
  /** true for the SCIM endpoints (/scim/v2): a company's SCIM token (bearer) is their only credential */
  scimToken: boolean;
  params?: Json;
  querystring?: Json;
  body?: Json;
  bodyRequired: boolean;
  /** status code → JSON schema of the JSON body (problem responses included) */
  responses: Record<string, Json | undefined>;
  /** status code → the media types documented for it (a JSON schema above applies to JSON only) */
  responseTypes: Record<string, string[]>;
  /** x-raw-body: the handler gets the raw Buffer (OTLP protobuf) */
  rawBody: boolean;
  /**
   * x-read-token-posts: a read-only API token may POST here (the MCP endpoint: every JSON-RPC
   * message is a POST, reads included; each tool's own API call is then judged by the token's scope)
   */
  readTokenPosts: boolean;
  /** x-body-limit: bytes this operation's body may have (the app's default otherwise) */
  bodyLimit?: number;
}

export interface LoadedSpec {
  document: Json;
  operations: OperationSpec[];
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete', 'options'] as const;

function paramsSchema(params: Json[], where: 'path' | 'query'): Json | undefined {
  const mine = params.filter((p) => p.in === where);
  // An operation without query parameters refuses any, like the others refuse unknown ones.
  if (mine.length === 0) return where === 'query' ? { type: 'object', properties: {}, additionalProperties: false } : undefined;
  const properties: Json = {};
  const required: string[] = [];
  for (const p of mine) {
    properties[p.name] = p.schema ?? {};
    if (p.required) required.push(p.name);
  }
  // Unknown query parameters are rejected like unknown body properties.
  return { type: 'object', properties, required, additionalProperties: false };
}

let cached: Promise<LoadedSpec> | undefined;

/** The spec's files and the bundler's version: a change to any of them is a new bundle. */
function sourceKey(dir: string): string {
  const hash = createHash('sha256');
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const f = path.join(d, e.name);
      if (e.isDirectory()) walk(f);
      else
        hash
          .update(`${path.relative(dir, f)}\0`)
          .update(readFileSync(f))
          .update('\0');
    }
  };
  walk(dir);
  hash.update(readFileSync(path.join(NODE_MODULES, '@redocly/openapi-core/package.json')));
  return hash.digest('hex').slice(0, 32);
}

/**
 * The bundled, dereferenced document. Bundling the 88 files took ~0.6 s of CPU at every start of
 * the server, of a test's app and of a CLI, so the result is kept in node_modules/.cache under
 * the sources' hash (best effort: an unwritable cache only means bundling every time).
 */
async function bundled(file: string): Promise<Json> {
  let cacheFile: string | undefined;
  if (file === SPEC_FILE) {
    try {
      cacheFile = path.join(CACHE_DIR, `openapi-${sourceKey(path.dirname(file))}.json`);
      return JSON.parse(readFileSync(cacheFile, 'utf8')) as Json;
    } catch {
      /* not bundled yet (or no key to keep it under: bundled every time) */
    }
  }
  const { bundle, createConfig } = await import('@redocly/openapi-core');
  const config = await createConfig({});
  const { bundle: doc, problems } = await bundle({ ref: file, config, dereference: true });
  const errors = problems.filter((x) => x.severity === 'error');
  if (errors.length) throw new Error(`openapi: ${errors.map((e) => e.message).join('; ')}`);
  const document = doc.parsed as Json;
  if (cacheFile) {
    try {
      mkdirSync(CACHE_DIR, { recursive: true });
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(document));
      renameSync(tmp, cacheFile);
    } catch {
      /* read-only install: bundle again next time */
    }
  }
  return document;
}

export function loadSpec(file = SPEC_FILE): Promise<LoadedSpec> {
  if (file === SPEC_FILE && cached) return cached;
  const p = (async () => {
    const document = await bundled(file);
    const operations: OperationSpec[] = [];
    const globalSecurity: Json[] = document.security ?? [];
    for (const [p, item] of Object.entries<Json>(document.paths ?? {})) {
      for (const m of METHODS) {
        const op = item[m];
        if (!op) continue;
        const params = [...(item.parameters ?? []), ...(op.parameters ?? [])];
        const security: Json[] = op.security ?? globalSecurity;
        const responses: Record<string, Json | undefined> = {};
        const responseTypes: Record<string, string[]> = {};
        for (const [status, r] of Object.entries<Json>(op.responses ?? {})) {
          const content = r.content ?? {};
          responses[status] = (
            content['application/json'] ??
            content['application/problem+json'] ??
            content['application/scim+json']
          )?.schema;
          responseTypes[status] = Object.keys(content);
        }
        // SCIM bodies come as application/scim+json (RFC 7644 3.1) or application/json: one schema
        const jsonBody = (op.requestBody?.content?.['application/json'] ?? op.requestBody?.content?.['application/scim+json'])?.schema;
        operations.push({
          operationId: op.operationId,
          method: m.toUpperCase() as OperationSpec['method'],
          path: p,
          route: p.replace(/\{([^}]+)\}/g, ':$1'),
          requiresAuth: security.length > 0 && !security.some((s) => Object.keys(s).length === 0),
          apiKey: security.some((s) => 'apiKeyAuth' in s),
          probeToken: security.some((s) => 'probeTokenAuth' in s),
          incomingToken: security.some((s) => 'incomingTokenAuth' in s) || op['x-incoming-token'] === true,
          scimToken: security.some((s) => 'scimTokenAuth' in s),
          params: paramsSchema(params, 'path'),
          querystring: paramsSchema(params, 'query'),
          body: jsonBody,
          bodyRequired: Boolean(op.requestBody?.required),
          responses,
          responseTypes,
          rawBody: Boolean(op['x-raw-body']),
          readTokenPosts: op['x-read-token-posts'] === true,
          ...(Number.isInteger(op['x-body-limit']) ? { bodyLimit: op['x-body-limit'] as number } : {}),
        });
      }
    }
    return { document, operations };
  })();
  if (file === SPEC_FILE) cached = p;
  return p;
}
