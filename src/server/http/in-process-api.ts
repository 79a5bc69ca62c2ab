// The management API as the importers call it (the CLI's `Api`), answered in this process by
// the platform's own routes: each call goes through Fastify's inject with the caller's own
// credentials (session cookie or API token) and host, so it meets the same authentication,
// tenant scope, permission checks, validation, plan limits and audit as a call over the network.
// No second code path writes monitors, channels or the page for an import.
import type { FastifyRequest } from 'fastify';
import { ApiError, detailOf, type Api } from '../cli/monitors-as-code/api.ts';

/** The caller's headers that say who and where; nothing else of the upload is passed on. */
const PASSED = ['host', 'cookie', 'authorization', 'user-agent', 'accept-language'] as const;

export function inProcessApi(req: FastifyRequest): Api {
  const headers: Record<string, string> = { accept: 'application/json' };
  for (const h of PASSED) {
    const v = req.headers[h];
    if (typeof v === 'string') headers[h] = v;
  }
  const call = async (method: 'GET' | 'POST' | 'PUT' | 'PATCH', path: string, body?: unknown): Promise<unknown> => {
    const res = await req.server.inject({
      method,
      url: path,
      // The caller's address, so rate limits and the audit of each write name the real client.
      remoteAddress: req.ip,
      headers: body === undefined ? headers : { ...headers, 'content-type': 'application/json' },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
    if (res.statusCode < 200 || res.statusCode > 299) throw new ApiError(method, path.split('?')[0], res.statusCode, detailOf(res.body));
    try {
      return res.body ? JSON.parse(res.body) : null;
    } catch {
      throw new ApiError(method, path.split('?')[0], res.statusCode, 'the answer is not JSON');
    }
  };
  return {
    origin: `${req.protocol}://${req.headers.host ?? ''}`,
    get: <T>(path: string) => call('GET', path) as Promise<T>,
    send: <T>(method: 'POST' | 'PUT' | 'PATCH', path: string, body?: unknown) => call(method, path, body) as Promise<T>,
  };
}
