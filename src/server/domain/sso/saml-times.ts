// The time checks of a SAML assertion (Conditions and the bearer SubjectConfirmationData), done
// here with the server's clock rather than inside node-saml (which reads the wall clock): pure.
export const SAML_CLOCK_SKEW_MS = 60_000;

export interface AssertionTimes {
  notBefore: string | undefined;
  notOnOrAfter: string | undefined;
  subjectNotBefore: string | undefined;
  subjectNotOnOrAfter: string | undefined;
}

const ms = (v: string | undefined): number | null => {
  if (v === undefined) return null;
  const t = Date.parse(v);
  return Number.isFinite(t) ? t : Number.NaN;
};

/** Why the assertion is not valid at `now` (null when it is), and until when it is valid. */
export function assertionTimeProblem(
  t: AssertionTimes,
  now: number,
  skewMs = SAML_CLOCK_SKEW_MS,
): { problem: string | null; expiresAt: number } {
  const nb = ms(t.notBefore);
  const na = ms(t.notOnOrAfter);
  const snb = ms(t.subjectNotBefore);
  const sna = ms(t.subjectNotOnOrAfter);
  const ends = [na, sna].filter((x): x is number => x !== null);
  const expiresAt = ends.length ? Math.min(...ends) : now;
  if ([nb, na, snb, sna].some((x) => Number.isNaN(x))) return { problem: 'a time of the assertion is not a valid date', expiresAt };
  // Web browser SSO (SAML profiles 4.1.4.2): the bearer confirmation must say until when.
  if (sna === null) return { problem: 'the subject confirmation has no NotOnOrAfter', expiresAt };
  for (const [name, start] of [
    ['NotBefore', nb],
    ['SubjectConfirmationData NotBefore', snb],
  ] as const)
    if (start !== null && now + skewMs < start) return { problem: `${name} ${new Date(start).toISOString()} is in the future`, expiresAt };
  for (const [name, end] of [
    ['NotOnOrAfter', na],
    ['SubjectConfirmationData NotOnOrAfter', sna],
  ] as const)
    if (end !== null && now - skewMs >= end) return { problem: `${name} ${new Date(end).toISOString()} has passed`, expiresAt };
  return { problem: null, expiresAt: expiresAt + skewMs };
}
