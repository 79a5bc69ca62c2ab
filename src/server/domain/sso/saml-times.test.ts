// The time checks of a SAML assertion at their edges: 60 s of skew both ways, the bearer
// confirmation's NotOnOrAfter required, and how long the replay cache keeps the ID.
import { expect, it } from 'vitest';
import { assertionTimeProblem } from './saml-times.ts';

const now = Date.parse('2026-06-01T09:00:00Z');
const at = (ms: number) => new Date(now + ms).toISOString();
const base = { notBefore: at(-5_000), notOnOrAfter: at(300_000), subjectNotBefore: undefined, subjectNotOnOrAfter: at(300_000) };

it('accepts an assertion in its window, and keeps its ID until it ends (plus the skew)', () => {
  expect(assertionTimeProblem(base, now)).toEqual({ problem: null, expiresAt: now + 300_000 + 60_000 });
});

it('allows 60 s of skew both ways, not more', () => {
  expect(assertionTimeProblem({ ...base, notBefore: at(60_000) }, now).problem).toBeNull();
  expect(assertionTimeProblem({ ...base, notBefore: at(60_001) }, now).problem).toBe(`NotBefore ${at(60_001)} is in the future`);
  expect(assertionTimeProblem({ ...base, subjectNotOnOrAfter: at(-59_999) }, now).problem).toBeNull();
  expect(assertionTimeProblem({ ...base, subjectNotOnOrAfter: at(-60_000) }, now).problem).toBe(
    `SubjectConfirmationData NotOnOrAfter ${at(-60_000)} has passed`,
  );
  expect(assertionTimeProblem({ ...base, notOnOrAfter: at(-61_000) }, now).problem).toBe(`NotOnOrAfter ${at(-61_000)} has passed`);
});

it('refuses a bearer confirmation without NotOnOrAfter, and dates that are not dates', () => {
  expect(assertionTimeProblem({ ...base, subjectNotOnOrAfter: undefined }, now).problem).toBe(
    'the subject confirmation has no NotOnOrAfter',
  );
  expect(assertionTimeProblem({ ...base, notBefore: 'yesterday' }, now).problem).toBe('a time of the assertion is not a valid date');
});
