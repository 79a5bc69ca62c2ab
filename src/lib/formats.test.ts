import { describe, expect, it } from 'vitest';
import { isEmail, isHexColour } from './formats.ts';

describe('text formats', () => {
  it('an e-mail address is local@domain.tld without spaces', () => {
    for (const ok of ['ops@acme.test', 'First.Last+tag@sub.example.co.uk']) expect(isEmail(ok), ok).toBe(true);
    for (const bad of ['', 'ops', 'ops@acme', '@acme.test', 'ops@.', 'o ps@acme.test', 'ops@acme.test ', 'a@b@c.test'])
      expect(isEmail(bad), bad).toBe(false);
  });

  it('a brand colour is exactly #rrggbb', () => {
    for (const ok of ['#007bff', '#ABCDEF', '#a1B2c3']) expect(isHexColour(ok), ok).toBe(true);
    for (const bad of ['007bff', '#fff', '#007bffaa', '#00zz00', 'red', ' #007bff', '#007bff;background:url(x)', null, 7])
      expect(isHexColour(bad), String(bad)).toBe(false);
  });
});
