// The one Chromium of this process: launched at the first browser check, relaunched when it dies
// (crash, OOM kill), and shared by every run, each in a fresh context (journey.ts). Launching per
// run would cost ~0.5 s of CPU and ~100 MB each time on a 2-core box.
import { existsSync } from 'node:fs';
import net from 'node:net';
import type { Browser } from 'playwright-core';
import { browserSettings } from './settings.ts';

export class BrowserUnavailable extends Error {}

let launching: Promise<Browser> | null = null;
let sink: { port: number } | null = null;

/**
 * A proxy on loopback that closes every connection. Every request is answered by the route
 * handler (guard.ts) through the platform's guarded client; a request that escaped it (a
 * Chromium feature we did not think of) would otherwise go out unguarded, and with a proxy
 * Chromium resolves no names itself either.
 */
async function closedProxy(): Promise<number> {
  if (sink) return sink.port;
  const server = net.createServer((s) => s.destroy());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  server.unref();
  sink = { port: (server.address() as net.AddressInfo).port };
  return sink.port;
}

function launchArgs(memoryMb: number, proxyPort: number): string[] {
  return [
    // Debian's Chromium cannot use its sandbox as root; the network boundary is the route guard.
    '--no-sandbox',
    '--disable-gpu',
    '--disable-quic',
    '--no-first-run',
    '--disable-background-networking',
    '--disable-component-update',
    '--disable-sync',
    '--disable-default-apps',
    '--disable-extensions',
    '--disable-file-system',
    '--disable-dev-shm-usage',
    '--disable-breakpad',
    '--disable-domain-reliability',
    '--no-pings',
    '--mute-audio',
    '--block-new-web-contents',
    '--disable-features=Translate,MediaRouter,OptimizationHints,InterestFeedContentSuggestions,AutofillServerCommunication',
    `--js-flags=--max-old-space-size=${memoryMb}`,
    `--proxy-server=http://127.0.0.1:${proxyPort}`,
    // Chromium skips the proxy for loopback unless told not to.
    '--proxy-bypass-list=<-loopback>',
  ];
}

/** The process's browser, launched now if it is not running. */
export function sharedBrowser(): Promise<Browser> {
  if (launching) return launching;
  const { executablePath, memoryMb } = browserSettings();
  if (!existsSync(executablePath))
    return Promise.reject(
      new BrowserUnavailable(`Browser checks need Chromium, which is not installed at ${executablePath} (set CHROMIUM_PATH)`),
    );
  const attempt = (async () => {
    // loaded at the first browser check: importing Playwright costs ~0.35 s of CPU at every start
    const { chromium } = await import('playwright-core');
    const browser = await chromium.launch({
      executablePath,
      args: launchArgs(memoryMb, await closedProxy()),
      // Playwright's own defaults would add --enable-automation extras we do not need, and it
      // must never download a browser.
      chromiumSandbox: false,
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
    browser.on('disconnected', () => {
      if (launching === attempt) launching = null;
    });
    return browser;
  })();
  launching = attempt;
  attempt.catch(() => {
    if (launching === attempt) launching = null;
  });
  return attempt.catch((e: Error) => {
    throw new BrowserUnavailable(`Chromium could not be started (${e.message.split('\n')[0].slice(0, 200)})`);
  });
}

/** Closes the browser (process shutdown, tests). */
export async function closeSharedBrowser(): Promise<void> {
  const b = launching;
  launching = null;
  if (b) await (await b.catch(() => null))?.close();
}

/** Whether this machine can run browser checks (the startup log and probes say when not). */
export function browserInstalled(): boolean {
  return existsSync(browserSettings().executablePath);
}
