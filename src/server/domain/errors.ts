// The one closed set of domain error codes. http/problem.ts maps each to an HTTP status.
export type ErrorCode =
  | 'validation'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'limit_exceeded'
  | 'rate_limited'
  | 'payload_too_large'
  | 'unsupported_media_type'
  | 'not_implemented'
  | 'unavailable';

export class DomainError extends Error {
  readonly code: ErrorCode;
  readonly detail: string;
  /** Per-field messages for forms, e.g. { email: 'Email is required' } */
  readonly fields?: Record<string, string>;
  /** Seconds, for rate_limited */
  readonly retryAfter?: number;
  /** `cause`: the underlying failure of a 5xx, written to the server log (never to the client) */
  constructor(code: ErrorCode, detail: string, extra?: { fields?: Record<string, string>; retryAfter?: number; cause?: unknown }) {
    super(detail, extra?.cause === undefined ? undefined : { cause: extra.cause });
    this.code = code;
    this.detail = detail;
    this.fields = extra?.fields;
    this.retryAfter = extra?.retryAfter;
  }
}

export const notFound = (what = 'Resource') => new DomainError('not_found', `${what} not found`);
export const forbidden = (detail = 'You do not have permission to do this.') => new DomainError('forbidden', detail);
export const SUPER_ADMIN_REQUIRED = 'Access denied. Super admin privileges required.';
