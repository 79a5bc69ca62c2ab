// Errors found before any route of ours runs still answer like every other error: a problem
// document with the security headers. Fastify reports bad URLs and overlong path parameters
// through `frameworkErrors`; Node reports unparsable requests, oversized headers and request
// time-outs on the socket (`clientErrorHandler`), where the answer is written by hand.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { problem, sendProblem, type ProblemBody } from './problem.ts';
import { securityHeaders } from './security-headers.ts';

export function frameworkErrorHandler(https: boolean) {
  return (err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void => {
    // These replies are made outside the routing context, where onSend hooks may not run.
    for (const [k, v] of Object.entries(securityHeaders({ https, html: false }))) reply.header(k, v);
    reply.header('cache-control', 'no-store');
    if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
      void sendProblem(reply, problem(414, 'uri_too_long', 'A path segment of this address is too long.'));
    } else {
      void sendProblem(reply, problem(400, 'bad_request', 'The address is not valid: it holds a malformed percent-encoding.'));
    }
  };
}

function socketProblem(err: NodeJS.ErrnoException): ProblemBody {
  if (err.code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return problem(408, 'request_timeout', 'The request took too long to arrive; the connection is closed.');
  if (err.code === 'HPE_HEADER_OVERFLOW') return problem(431, 'headers_too_large', 'The request line or headers are too large.');
  return problem(400, 'bad_request', 'The request is not valid HTTP.');
}

export function clientErrorHandler(https: boolean) {
  return (err: NodeJS.ErrnoException, socket: Socket): void => {
    if (err.code === 'ECONNRESET' || socket.destroyed) return;
    // An answer already under way cannot be replaced by another: the connection is just cut.
    const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) {
      const body = socketProblem(err);
      const text = JSON.stringify(body);
      const headers: Record<string, string> = {
        ...securityHeaders({ https, html: false }),
        'content-type': 'application/problem+json',
        'content-length': String(Buffer.byteLength(text)),
        'cache-control': 'no-store',
        connection: 'close',
      };
      const head = Object.entries(headers)
        .map(([k, v]) => `${k}: ${v}\r\n`)
        .join('');
      socket.end(`HTTP/1.1 ${body.status} ${STATUS_CODES[body.status]}\r\n${head}\r\n${text}`);
    } else {
      socket.destroy();
    }
  };
}
