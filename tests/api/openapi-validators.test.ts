// The app compiles a route's request validators at its first request (lazy-validators.ts). This
// compiles every operation's params, query and body schema now, with the app's own compiler and
// Ajv options, so a schema Ajv refuses fails here rather than at a user's first call.
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/server/http/openapi/spec.ts';
import { AJV_OPTIONS, lazyValidators } from '../../src/server/http/openapi/lazy-validators.ts';

describe('request validators', () => {
  it('compile for every documented operation', async () => {
    const { operations } = await loadSpec();
    const compile = lazyValidators()({}, AJV_OPTIONS);
    let compiled = 0;
    for (const op of operations) {
      for (const [httpPart, schema] of [
        ['params', op.params],
        ['querystring', op.querystring],
        ['body', op.rawBody ? undefined : op.body],
      ] as const) {
        if (!schema) continue;
        const validate = compile({ schema, method: op.method, url: op.route, httpPart });
        // the first call compiles; an empty object is either valid or answered with Ajv's errors
        expect(() => validate({}), `${op.operationId} ${httpPart}`).not.toThrow();
        compiled++;
      }
    }
    expect(operations.length).toBeGreaterThan(250);
    expect(compiled).toBeGreaterThan(operations.length);
  });

  it('say why a body is refused, as the eager ones did', async () => {
    const compile = lazyValidators()({}, AJV_OPTIONS);
    const validate = compile({
      schema: { type: 'object', required: ['name'], properties: { name: { type: 'string', title: 'Name' } }, additionalProperties: false },
      method: 'POST',
      url: '/x',
      httpPart: 'body',
    });
    expect(validate({ name: 'ok' })).toBe(true);
    expect(validate({ extra: 1 })).toBe(false);
    expect(validate.errors).toEqual([expect.objectContaining({ keyword: 'required', params: { missingProperty: 'name' } })]);
    expect(validate({ name: 'again' })).toBe(true);
    expect(validate.errors).toBeNull();
  });
});
