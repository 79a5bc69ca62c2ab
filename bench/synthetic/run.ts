// Synthetic checks benchmark (issue 29): API flows (flows.ts: CPU per 5-step flow; 1,000 api_flow
// monitors at 60 s in the real engine, lag p99 <= 50 ms) and browser journeys (browser.ts: wall
// and CPU per run, runs a minute at concurrency 1 and 2, memory). The shop runs in its own process
// (shop-server.ts) so its CPU is not the checks'.
// Usage: npm run bench:synthetic [-- --flows 500 --flow-monitors 1000 --interval 60 --seconds 60 --browser-runs 20 --no-engine --no-browser --pg]
import { spawn } from 'node:child_process';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { browserRuns, closeBrowser } from './browser.ts';
import { flowCost, flowEngine } from './flows.ts';

const { values } = parseArgs({
  options: {
    flows: { type: 'string', default: '500' },
    'flow-monitors': { type: 'string', default: '1000' },
    interval: { type: 'string', default: '60' },
    seconds: { type: 'string', default: '60' },
    'browser-runs': { type: 'string', default: '20' },
    'no-engine': { type: 'boolean', default: false },
    'no-browser': { type: 'boolean', default: false },
    pg: { type: 'boolean', default: false },
  },
});
const say = (lines: string[]) => process.stdout.write(`${lines.join('\n')}\n`);

async function startShopProcess(): Promise<{ port: number; stop(): void }> {
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'shop-server.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += String(d);
      if (buf.includes('\n')) resolve(buf.split('\n')[0]);
    });
    child.once('exit', (code) => reject(new Error(`bench/synthetic shop exited (${code})`)));
  });
  return { port: (JSON.parse(line) as { port: number }).port, stop: () => child.kill('SIGTERM') };
}

const shop = await startShopProcess();
try {
  say(await flowCost(shop.port, Number(values.flows), 10));
  if (!values['no-engine'])
    say(
      await flowEngine(shop.port, {
        monitors: Number(values['flow-monitors']),
        interval: Number(values.interval),
        seconds: Number(values.seconds),
        pg: values.pg,
      }),
    );
  if (!values['no-browser']) {
    for (const c of [1, 2]) say(await browserRuns(shop.port, Number(values['browser-runs']), c));
    await closeBrowser();
  }
} finally {
  shop.stop();
}
