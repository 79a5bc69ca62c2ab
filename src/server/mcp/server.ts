// An MCP server (Model Context Protocol, the official TypeScript SDK) whose tools are MCP_TOOLS,
// each answered through `call` (the platform's API with the caller's token). One is made per
// HTTP request (stateless) or once for a stdio session.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { ApiCall } from './api-call.ts';
import { MCP_TOOLS, runTool, type ToolArgs } from './tools.ts';

export const MCP_SERVER_NAME = 'statuswatch';

export function createMcpServer(call: ApiCall, version: string): McpServer {
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version },
    {
      instructions:
        "StatusWatch: the company's monitors, incidents, status, RED metrics and traces. Read tools are safe to call; acknowledge_incident and post_incident_update change the incident and need a write token.",
    },
  );
  for (const tool of MCP_TOOLS) {
    server.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: tool.input,
        annotations: { title: tool.title, readOnlyHint: tool.readOnly, destructiveHint: false, openWorldHint: false },
      },
      // the SDK validated the arguments against tool.input (strings, numbers, booleans only)
      (args) => runTool(tool, args as ToolArgs, call),
    );
  }
  return server;
}
