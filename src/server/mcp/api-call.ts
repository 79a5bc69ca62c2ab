// How an MCP tool reaches the platform: through its public API, with the caller's own API token,
// so every tool call passes the same authentication, token scope (a read token cannot write),
// tenant scope, permission checks, validation, throttles and audit as the same call made by a
// script. Over HTTP (the platform's /api/v1/mcp) the call is injected into the running app; over
// stdio (`npm run mcp` on the user's machine) it is an HTTP call to the platform's URL.
import type { FastifyInstance } from 'fastify';
import { ApiError, type Api } from '../cli/monitors-as-code/api.ts';

export type QueryValue = string | number | boolean | undefined | null;

export interface ApiRequest {
  method: 'GET' | 'POST';
  /** the path under the platform's origin, e.g. /api/v1/monitors/abc */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
}

export interface ApiAnswer {
  status: number;
  /** the parsed JSON body (a problem's for an error), or null */
  body: unknown;
}

export type ApiCall = (req: ApiRequest) => Promise<ApiAnswer>;

/** `path` with its query string (undefined and null values left out). */
export function urlOf(req: ApiRequest): string {
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(req.query ?? {})) if (v !== undefined && v !== null) params.set(k, String(v));
  const qs = params.toString();
  return qs ? `${req.path}?${qs}` : req.path;
}

function parseJson(text: string): unknown {
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return { detail: text.slice(0, 500) };
  }
}

/**
 * In the platform: each call goes through the whole request pipeline of `app` (light-my-request),
 * as from the MCP client's own address and host, with its Authorization header.
 */
export function injectApiCall(app: FastifyInstance, from: { authorization: string; host: string; ip: string; userAgent: string }): ApiCall {
  return async (req) => {
    const res = await app.inject({
      method: req.method,
      url: urlOf(req),
      remoteAddress: from.ip,
      headers: {
        authorization: from.authorization,
        host: from.host,
        'user-agent': from.userAgent,
        accept: 'application/json',
        ...(req.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(req.body !== undefined ? { payload: JSON.stringify(req.body) } : {}),
    });
    return { status: res.statusCode, body: parseJson(res.body) };
  };
}

/**
 * On the user's machine (stdio): the platform's API as the CLI calls it (monitors-as-code/api.ts:
 * JSON with the token as bearer; `*.localhost` is this machine, as in browsers).
 */
export function cliApiCall(api: Api): ApiCall {
  return async (req) => {
    try {
      const body = req.method === 'GET' ? await api.get(urlOf(req)) : await api.send('POST', urlOf(req), req.body ?? {});
      return { status: 200, body };
    } catch (e) {
      if (e instanceof ApiError) return { status: e.status, body: { detail: e.detail } };
      return { status: 503, body: { detail: `the platform did not answer: ${e instanceof Error ? e.message : String(e)}` } };
    }
  };
}
