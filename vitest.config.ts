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
    // Each worker keeps its modules from one test file to the next instead of importing the whole
    // server again for each of ~380 files. Every file builds its own app, services and databases,
    // so nothing a test sees is shared: the suite passed whole (4,124 tests) in the usual order and
    // with the files shuffled (seed 20261130), in 932 s and 918 s where the isolated run took
    // 1,877 s on the same machine the day before.
    isolate: false,
    maxWorkers: 2,
    env: { ASTRO_TELEMETRY_DISABLED: '1', REDOCLY_TELEMETRY: 'off' },
  },
});
