// One place maps domain errors, validation failures and framework errors to RFC 9457 problem
// responses with a human `detail` (the console shows it as is).
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, type ErrorCode } from '../domain/errors.ts';
import { databaseUnavailable } from '../domain/db-unavailable.ts';

const STATUS: Record<ErrorCode, number> = {
  validation: 400,
  unauthorized: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  limit_exceeded: 422,
  rate_limited: 429,
  payload_too_large: 413,
  unsupported_media_type: 415,
  not_implemented: 501,
  unavailable: 503,
};

const TITLE: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  instance?: string;
  errors?: Record<string, string>;
  retry_after?: number;
}

export function problem(status: number, code: string, detail: string, extra?: Partial<ProblemBody>): ProblemBody {
  return { type: 'about:blank', title: TITLE[status] ?? 'Error', status, detail, code, ...extra };
}

export function sendProblem(reply: FastifyReply, body: ProblemBody): FastifyReply {
  if (body.retry_after !== undefined) reply.header('retry-after', String(body.retry_after));
  return reply.code(body.status).type('application/problem+json').send(body);
}

interface AjvError {
  instancePath: string;
  /** where in the schema the keyword is (#/properties/steps/items/oneOf/1/required) */
  schemaPath: string;
  keyword: string;
  message?: string;
  params: Record<string, unknown>;
  /** the schema holding the failed keyword (Ajv's verbose mode) */
  parentSchema?: { title?: unknown; properties?: Record<string, { title?: unknown } | undefined> };
}

/**
 * The form's own text for a missing or empty field, when the document names the field with a
 * `title` ('Company Name' → 'Company Name is required.'), so the console shows the same words
 * whether the schema or the domain noticed the gap.
 */
function requiredText(e: AjvError): string | null {
  let title: unknown;
  if (e.keyword === 'required') title = e.parentSchema?.properties?.[String(e.params.missingProperty)]?.title;
  else if (e.keyword === 'minLength' && e.params.limit === 1) title = e.parentSchema?.title;
  return typeof title === 'string' && title ? `${title} is required.` : null;
}

/**
 * The errors of a failed `oneOf` without those of the branches the value was plainly not meant
 * for: a branch that misses one of its own required properties at the value's top (an api_flow
 * step has no `action`, so it is no browser step). Only when another branch remains, whose errors
 * then say what is wrong, are the others and the "must match exactly one schema" line dropped.
 */
function withoutUnmeantBranches(errors: AjvError[]): AjvError[] {
  let out = errors;
  for (const one of errors.filter((e) => e.keyword === 'oneOf')) {
    const branchOf = (e: AjvError) => {
      const m = e.schemaPath.startsWith(`${one.schemaPath}/`) ? /^\/(\d+)\//.exec(e.schemaPath.slice(one.schemaPath.length)) : null;
      return m && e.instancePath.startsWith(one.instancePath) ? Number(m[1]) : null;
    };
    const branches = new Set(out.map(branchOf).filter((b) => b !== null));
    const unmeant = new Set(
      [...branches].filter((b) => out.some((e) => branchOf(e) === b && e.keyword === 'required' && e.instancePath === one.instancePath)),
    );
    if (unmeant.size === 0 || unmeant.size === branches.size) continue;
    out = out.filter((e) => e !== one && !unmeant.has(branchOf(e) ?? -1));
  }
  return out;
}

/** "body/email must match format email" → a sentence a person can act on. */
export function describeValidation(all: AjvError[], context: string): { detail: string; fields: Record<string, string> } {
  const errors = withoutUnmeantBranches(all);
  const fields: Record<string, string> = {};
  const parts: string[] = [];
  let allFormTexts = true;
  for (const e of errors) {
    let field = e.instancePath.replace(/^\//, '').replace(/\//g, '.');
    let msg: string;
    const formText = requiredText(e);
    if (!formText) allFormTexts = false;
    if (e.keyword === 'additionalProperties') {
      const extra = String(e.params.additionalProperty);
      field = field ? `${field}.${extra}` : extra;
      msg = `unknown property '${extra}'`;
    } else if (e.keyword === 'required') {
      const missing = String(e.params.missingProperty);
      field = field ? `${field}.${missing}` : missing;
      msg = formText ?? `${missing} is required`;
    } else {
      msg = formText ?? `${field || context} ${e.message ?? 'is invalid'}`;
    }
    if (field && !fields[field]) fields[field] = msg;
    parts.push(msg);
  }
  const unique = [...new Set(parts)];
  if (allFormTexts && unique.length) return { detail: unique.join(' '), fields };
  const where = context === 'body' ? 'request body' : context === 'querystring' ? 'query' : context === 'params' ? 'path' : context;
  return { detail: `Invalid ${where}: ${unique.join('; ')}`, fields };
}

export function errorToProblem(err: FastifyError | DomainError | Error, req: FastifyRequest): ProblemBody {
  if (err instanceof DomainError) {
    if (err.cause !== undefined && STATUS[err.code] >= 500) {
      const outage = databaseUnavailable(err.cause);
      if (outage) req.log.error(`${err.detail}: ${outage.log}`);
      else req.log.error({ err: err.cause }, err.detail);
    }
    return problem(STATUS[err.code], err.code, err.detail, {
      ...(err.fields ? { errors: err.fields } : {}),
      ...(err.retryAfter !== undefined ? { retry_after: err.retryAfter } : {}),
    });
  }
  const fe = err as FastifyError & { validation?: AjvError[]; validationContext?: string };
  if (fe.validation) {
    const { detail, fields } = describeValidation(fe.validation, fe.validationContext ?? 'request');
    return problem(400, 'validation', detail, { errors: fields });
  }
  switch (fe.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return problem(413, 'payload_too_large', 'The request body is too large.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return problem(
        415,
        'unsupported_media_type',
        `Unsupported content type '${req.headers['content-type'] ?? ''}'; send application/json.`,
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return problem(400, 'validation', 'The request body is empty; send a JSON object.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return problem(400, 'validation', 'The request body is not valid JSON.');
  }
  if (fe.statusCode && fe.statusCode >= 400 && fe.statusCode < 500) {
    return problem(fe.statusCode, 'bad_request', fe.message);
  }
  // Database down, full or read-only: 503 and a log line without its host, user or database.
  const outage = databaseUnavailable(err);
  if (outage) {
    req.log.error(`${req.method} ${req.routeOptions.url ?? ''}: ${outage.log}`);
    return problem(503, 'unavailable', outage.detail, { retry_after: outage.retryAfter });
  }
  req.log.error({ err }, 'unhandled error');
  return problem(500, 'internal', 'Something went wrong on our side. Please try again.');
}
