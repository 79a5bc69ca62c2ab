// Numbers in query strings: every one has a documented range, and anything outside it (huge,
// infinite, negative, not a number, fractional) answers 400, never a 500.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec } from '../../../src/server/http/openapi/spec.ts';
import { startTestApp, type TestApp } from '../../support/test-app.ts';
import { seedUser, signIn } from '../../support/fixtures.ts';

describe('numeric query parameters', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ db: 'sqlite' });
  });
  afterAll(async () => t?.close());

  it('refuses out-of-range numbers on every list call with a 400 problem', async () => {
    const c = t.client();
    await signIn(c, await seedUser(t.services, { userType: 1, email: 'root@example.com' }));
    const spec = await loadSpec();
    let tried = 0;
    for (const op of spec.operations) {
      for (const [name, schema] of Object.entries<Record<string, unknown>>(op.querystring?.properties ?? {})) {
        if (![schema.type].flat().some((x) => x === 'integer' || x === 'number')) continue;
        const path = op.path.replace(/\{[^}]+\}/g, '00000000-0000-0000-0000-000000000000');
        for (const value of ['1e22', '1e309', '-1', 'NaN', 'Infinity', '1.5', '99999999999999999999']) {
          const r = await c.request(op.method, `${path}?${name}=${value}`);
          expect(r.status, `${op.operationId} ${name}=${value}`).toBe(400);
          // SCIM answers SCIM error bodies (http/scim-errors.ts), everything else problems
          if (op.path.startsWith('/scim/')) expect(r.body.scimType).toBe('invalidSyntax');
          else expect(r.body.code).toBe('validation');
          tried++;
        }
      }
    }
    expect(tried).toBeGreaterThanOrEqual(10 * 7);
    expect(t.errorLog).toEqual([]);
  });
});
