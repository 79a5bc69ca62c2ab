// Reads a SCIM PATCH request (RFC 7644 3.5.2) before scim-patch applies it: the PatchOp schema,
// an Operations list, each `op` add, remove or replace. Entra ID writes the op capitalised
// ("Replace"), Okta in lower case; both mean the same and are read the same.
import type { ScimPatchOperation } from 'scim-patch';
import { scimError } from './errors.ts';

export const PATCH_OP_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const MAX_OPERATIONS = 1000;

export function readPatch(body: Record<string, unknown>): ScimPatchOperation[] {
  const schemas = Array.isArray(body.schemas) ? body.schemas : [];
  if (!schemas.includes(PATCH_OP_SCHEMA))
    throw scimError('validation', `A PATCH request names the schema ${PATCH_OP_SCHEMA}.`, 'invalidSyntax');
  const list = body.Operations;
  if (!Array.isArray(list) || list.length === 0)
    throw scimError('validation', 'A PATCH request has a non-empty Operations list.', 'invalidSyntax');
  if (list.length > MAX_OPERATIONS) throw scimError('validation', `At most ${MAX_OPERATIONS} operations a request.`, 'tooMany');
  return list.map((raw, i) => {
    const o = (typeof raw === 'object' && raw !== null ? raw : {}) as Record<string, unknown>;
    const op = typeof o.op === 'string' ? o.op.toLowerCase() : '';
    if (op !== 'add' && op !== 'remove' && op !== 'replace')
      throw scimError('validation', `Operations[${i}].op must be add, remove or replace.`, 'invalidSyntax');
    if (o.path !== undefined && typeof o.path !== 'string')
      throw scimError('validation', `Operations[${i}].path must be a string.`, 'invalidPath');
    if (op === 'remove' && !o.path) throw scimError('validation', `Operations[${i}]: remove needs a path.`, 'noTarget');
    return { op, ...(o.path ? { path: o.path } : {}), ...(o.value !== undefined ? { value: o.value } : {}) } as ScimPatchOperation;
  });
}
