// Each services object has its own process state: two in one process (tests, several "servers")
// share no cache, throttle or transport.
import { afterEach, describe, expect, it } from 'vitest';
import { parseConfig } from './config.ts';
import type { Db } from './db/connect.ts';
import { withProcessState } from './process-state.ts';
import { freshDb, tempDir } from '../../tests/support/test-db.ts';

const opened: Db[] = [];
afterEach(async () => {
  while (opened.length) await opened.pop()!.close();
});

describe('process state', () => {
  it('is made whole for each services object and shared by none', async () => {
    const db = await freshDb('sqlite');
    opened.push(db);
    const base = () => ({
      config: parseConfig({ NODE_ENV: 'test', DATA_DIR: tempDir() }),
      db,
      now: Date.now,
      ready: true,
      version: 'test',
    });
    const a = withProcessState(base()).state;
    const b = withProcessState(base()).state;
    expect(Object.keys(a).sort()).toEqual(
      [
        'customDomainRoutes',
        'mailer',
        'monitorTests',
        'pageAccess',
        'probeHellos',
        'probeLongPolls',
        'probeDeliveryMemos',
        'smtpTests',
        'statusPageCache',
        'subscribeThrottles',
        'throttles',
      ].sort(),
    );
    for (const [part, value] of Object.entries(a)) {
      if (value === null) continue; // made at first use (monitorTests)
      expect(value, part).not.toBe(b[part as keyof typeof b]);
    }
  });
});
