// The MCP endpoint (/api/v1/mcp): the Model Context Protocol over streamable HTTP, stateless (a
// server and transport per request; no session to keep or steal). Only a company API token may
// call it (a browser's cookies never reach it, so no cross-site request can drive the tools);
// each tool call is injected into this app as the token's own API call (mcp/api-call.ts).
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { DomainError } from '../../domain/errors.ts';
import { injectApiCall } from '../../mcp/api-call.ts';
import { createMcpServer } from '../../mcp/server.ts';
import type { HandlerMap } from '../handler-types.ts';
import { securityHeaders } from '../security-headers.ts';

const TOKEN_ONLY = 'The MCP endpoint takes a company API token only: Authorization: Bearer swt_… (create one in Account, API tokens).';

export const mcpHandlers = {
  callMcp: async ({ ctx, req, reply, body }) => {
    const authorization = req.headers.authorization;
    if (!ctx.actor?.apiToken || !authorization) throw new DomainError('unauthorized', TOKEN_ONLY);
    const server = createMcpServer(
      injectApiCall(req.server, { authorization, host: ctx.host, ip: ctx.ip, userAgent: ctx.userAgent || 'mcp' }),
      ctx.services.version,
    );
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    const res = reply.raw;
    for (const [name, value] of Object.entries(securityHeaders({ https: ctx.services.config.publicScheme === 'https', html: false })))
      res.setHeader(name, value);
    res.setHeader('cache-control', 'no-store');
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req.raw, res, body);
    return reply;
  },
  openMcpStream: async ({ ctx, reply }) => {
    if (!ctx.actor?.apiToken) throw new DomainError('unauthorized', TOKEN_ONLY);
    // MCP clients open this stream when a server offers one; 405 tells them it does not
    reply.code(405).header('allow', 'POST').type('application/problem+json');
    return { type: 'about:blank', title: 'Method Not Allowed', status: 405, detail: 'This MCP endpoint is stateless: POST each message.' };
  },
} satisfies HandlerMap;
