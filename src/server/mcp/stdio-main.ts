// `npm run mcp`: the MCP server over stdio, for an assistant on the user's own machine (Claude
// Desktop, Cursor, VS Code). It holds no data and opens no database: each tool is a call of the
// platform's API at STATUSWATCH_URL (the company's address) with STATUSWATCH_TOKEN, so it
// sees and may do exactly what that token may. Standard output carries the protocol only;
// messages go to standard error.
import { readFileSync } from 'node:fs';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { createApi } from '../cli/monitors-as-code/api.ts';
import { cliApiCall } from './api-call.ts';
import { createMcpServer } from './server.ts';

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };

function fail(message: string): never {
  process.stderr.write(`statuswatch mcp: ${message}\n`);
  process.exit(2);
}

const base = process.env.STATUSWATCH_URL ?? '';
const token = process.env.STATUSWATCH_TOKEN ?? '';
let url: URL;
try {
  url = new URL(base);
} catch {
  fail("set STATUSWATCH_URL to your company's address, e.g. https://acme.status.example.com");
}
if (url.protocol !== 'https:' && url.protocol !== 'http:') fail('STATUSWATCH_URL must be an http(s) address');
if (!token.startsWith('swt_')) fail('set STATUSWATCH_TOKEN to an API token (swt_…; Account, API tokens in the console)');

const server = createMcpServer(cliApiCall(createApi(url.origin, token)), pkg.version);
await server.connect(new StdioServerTransport());
process.stderr.write(`statuswatch mcp ${pkg.version}: serving ${url.origin} over stdio\n`);
