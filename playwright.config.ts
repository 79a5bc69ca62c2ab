import { defineConfig } from '@playwright/test';

// Debian's Chromium; Playwright never downloads a browser here. Tenants are name.localhost,
// which Chromium resolves to loopback. Its old headless shell (Debian's chromium-headless-shell,
// installed by scripts/ensure-test-deps.sh) is what Playwright itself runs headless tests in: a
// lighter browser than the full Chromium's headless mode, which these tests ran in before.
export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './tests/e2e/support/global-setup.ts',
  globalTeardown: './tests/e2e/support/global-teardown.ts',
  // A guard against a test that hangs, not a speed check: the longer journeys (a monitor checked
  // from three locations, an invitation through to the invitee's sign-in) take 15-35 s on a loaded
  // 2-core machine, and two of them ran out of 30 s in a fresh-clone run whose Vitest stage took
  // 1,935 s where it usually takes about 1,130 s.
  timeout: 60_000,
  expect: { timeout: 7_000 },
  workers: 2,
  retries: 0,
  outputDir: '.tmp/playwright-results',
  use: {
    browserName: 'chromium',
    launchOptions: {
      executablePath: '/usr/bin/chromium-headless-shell',
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
    },
    trace: 'off',
    screenshot: 'only-on-failure',
  },
});
