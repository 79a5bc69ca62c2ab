// The contract harness: every response the API tests see is validated against the OpenAPI
// document (status documented for its operation, body matches its schema). A mismatch fails
// the test.
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { loadSpec, type OperationSpec } from '../../src/server/http/openapi/spec.ts';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;
const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const compiled = new WeakMap<object, ReturnType<Ajv['compile']>>();

export const seenOperations = new Set<string>();

function matchOperation(ops: OperationSpec[], method: string, pathname: string): OperationSpec | undefined {
  const norm = pathname.length > 1 ? pathname.replace(/\/$/, '') : pathname;
  // Static paths win over templated ones, as in the router.
  const candidates = ops.filter((o) => o.method === method);
  const exact = candidates.find((o) => o.path.replace(/\/$/, '') === norm);
  if (exact) return exact;
  return candidates.find((o) => {
    const re = new RegExp('^' + o.path.replace(/\/$/, '').replace(/\{[^}]+\}/g, '[^/]+') + '$');
    return re.test(norm);
  });
}

export class ContractError extends Error {}

export async function assertMatchesContract(
  method: string,
  url: string,
  status: number,
  contentType: string,
  body: unknown,
): Promise<void> {
  const { pathname } = new URL(url, 'http://x');
  if (!pathname.startsWith('/api/v1/') && !pathname.startsWith('/v1/') && !pathname.startsWith('/scim/v2/')) return;
  const spec = await loadSpec();
  const op = matchOperation(spec.operations, method, pathname);
  if (!op) {
    if (status === 404 || status === 405) return; // unknown routes answer a problem 404
    throw new ContractError(`${method} ${pathname} answered ${status} but is not in the OpenAPI document`);
  }
  seenOperations.add(op.operationId);
  // Every status an operation answers is documented on it: a client reading the document must
  // learn of every answer it can get, errors included.
  if (!(String(status) in op.responses) && !('default' in op.responses)) {
    throw new ContractError(`${op.operationId}: status ${status} is not documented for ${method} ${op.path}`);
  }
  const schema = op.responses[String(status)] ?? op.responses.default;
  if (!schema) return; // documented without a body
  // An operation answering several media types (a report as JSON, CSV or PDF): a non-JSON answer
  // must be one of the documented types; the JSON schema applies to the JSON answer only.
  const mediaType = contentType.split(';')[0].trim();
  const types = op.responseTypes[String(status)] ?? op.responseTypes.default ?? [];
  // newline-delimited JSON (a streamed test) is many documents, not one: its lines are the test's to check
  if (status < 400 && (!mediaType.endsWith('json') || mediaType === 'application/x-ndjson') && types.length > 1) {
    if (!types.includes(mediaType)) throw new ContractError(`${op.operationId} ${status}: ${mediaType} is not a documented media type`);
    return;
  }
  // SCIM answers its errors as SCIM error bodies (RFC 7644 3.12), everything else as problems
  const errorType = pathname.startsWith('/scim/') ? 'application/scim+json' : 'application/problem+json';
  // The MCP transport answers a malformed message (400) or a client that cannot take its answer
  // (406) with a JSON-RPC error object, the protocol's own form, documented as such on callMcp
  const jsonRpcError = op.operationId === 'callMcp' && (status === 400 || status === 406) && contentType.startsWith('application/json');
  if (status >= 400 && !contentType.startsWith(errorType) && !jsonRpcError) {
    throw new ContractError(`${op.operationId}: error ${status} must be ${errorType}, got ${contentType}`);
  }
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  if (!validate(body)) {
    throw new ContractError(
      `${op.operationId} ${status}: response does not match the document: ${ajv.errorsText(validate.errors)}\n${JSON.stringify(body).slice(0, 800)}`,
    );
  }
}
