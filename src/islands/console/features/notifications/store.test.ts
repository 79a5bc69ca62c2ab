import { describe, expect, it } from 'vitest';
import { actionPath } from './store.ts';

describe('actionPath', () => {
  it('opens the incident of a notification written before the incident screens', () => {
    expect(actionPath('/monitors?incident=0b6f7c1e-1d2a-4c39-9a57-2f3e4d5c6b7a')).toBe(
      '/monitors/incidents/0b6f7c1e-1d2a-4c39-9a57-2f3e4d5c6b7a',
    );
  });
  it('leaves every other link alone', () => {
    expect(actionPath('/monitors/incidents/abc')).toBe('/monitors/incidents/abc');
    expect(actionPath('/monitors?monitor=abc')).toBe('/monitors?monitor=abc');
  });
});
