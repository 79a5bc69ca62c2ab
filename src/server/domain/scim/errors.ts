// SCIM's own error vocabulary (RFC 7644 section 3.12). A SCIM refusal is a DomainError like any
// other (one mapping to HTTP statuses, http/problem.ts); the `scimType` it names rides in its
// fields under this key, and http/scim-errors.ts writes the SCIM error body from it.
import { DomainError, type ErrorCode } from '../errors.ts';

export const SCIM_TYPE_FIELD = 'scimType';

export type ScimType =
  | 'invalidFilter'
  | 'tooMany'
  | 'uniqueness'
  | 'mutability'
  | 'invalidSyntax'
  | 'invalidPath'
  | 'noTarget'
  | 'invalidValue'
  | 'invalidVers'
  | 'sensitive';

export function scimError(code: ErrorCode, detail: string, scimType?: ScimType, retryAfter?: number): DomainError {
  return new DomainError(code, detail, {
    ...(scimType ? { fields: { [SCIM_TYPE_FIELD]: scimType } } : {}),
    ...(retryAfter !== undefined ? { retryAfter } : {}),
  });
}
