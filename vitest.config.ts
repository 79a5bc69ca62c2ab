import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'tests/api/**/*.test.ts', 'tests/unit/**/*.test.ts'],
    globalSetup: ['tests/support/global-setup.ts'],
    // the console's words in English for its modules' unit tests (they load before the first screen)
    setupFiles: ['tests/support/console-words.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 2,
    env: { ASTRO_TELEMETRY_DISABLED: '1', REDOCLY_TELEMETRY: 'off' },
  },
});
