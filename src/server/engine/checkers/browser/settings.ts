// The operator's settings of browser checks (BROWSER_* in config.ts), set once at boot by
// main.ts (and by tests) for the one browser this process runs. Kept here rather than in CheckEnv
// because the browser, its queue and the kind's least interval are per process, like the settings.

export interface BrowserSettings {
  /** CHROMIUM_PATH: the system's Chromium (Debian's /usr/bin/chromium) */
  executablePath: string;
  /** BROWSER_MEMORY_MB: V8 heap cap of each renderer (--max-old-space-size) */
  memoryMb: number;
  /** BROWSER_MAX_TIMEOUT_SECONDS: a run never lasts longer, whatever the monitor's time-out */
  maxTimeoutSeconds: number;
  /** BROWSER_CONCURRENCY: runs at once in this process; the others wait in the queue */
  concurrency: number;
  /** BROWSER_MIN_INTERVAL_SECONDS: the least check interval of a browser monitor */
  minIntervalSeconds: number;
  /** BROWSER_SCREENSHOT_DAYS: kept screenshots older than this are pruned */
  screenshotDays: number;
}

export const DEFAULT_BROWSER_SETTINGS: BrowserSettings = {
  executablePath: '/usr/bin/chromium',
  memoryMb: 512,
  maxTimeoutSeconds: 60,
  concurrency: 1,
  minIntervalSeconds: 300,
  screenshotDays: 7,
};

let current: BrowserSettings = DEFAULT_BROWSER_SETTINGS;

export function browserSettings(): BrowserSettings {
  return current;
}

/** At boot (main.ts, worker.ts) and in tests; takes effect for the next launch and the next run. */
export function configureBrowser(s: Partial<BrowserSettings>): void {
  current = { ...current, ...s };
}
