// How a TLS grade and a certificate's days left read on screen: a colour and words, so colour is
// never the only signal. Pure.

export type Tone = 'green' | 'amber' | 'red' | 'grey';

/** A+ to A- green, B and C amber, D to F and T (not trusted) red; not analysed yet grey. */
export function gradeTone(grade: string | null): Tone {
  if (grade === null) return 'grey';
  if (grade.startsWith('A')) return 'green';
  if (grade === 'B' || grade === 'C') return 'amber';
  return 'red';
}

/** Expired or 7 days or fewer: red; up to 30 days (the first warning): amber; else green. */
export function expiryTone(daysLeft: number | null): Tone {
  if (daysLeft === null) return 'grey';
  if (daysLeft <= 7) return 'red';
  if (daysLeft <= 30) return 'amber';
  return 'green';
}

export function expiryText(daysLeft: number | null): string {
  if (daysLeft === null) return 'Unknown';
  if (daysLeft < 0) return `Expired ${-daysLeft} day${daysLeft === -1 ? '' : 's'} ago`;
  if (daysLeft === 0) return 'Expires today';
  return `${daysLeft} day${daysLeft === 1 ? '' : 's'} left`;
}
