import { describe, expect, it } from 'vitest';
import { expiryText, expiryTone, gradeTone } from './tls-display.ts';

describe('TLS display', () => {
  it('colours grades', () => {
    expect(['A+', 'A', 'A-', 'B', 'C', 'D', 'E', 'F', 'T', null].map(gradeTone)).toEqual([
      'green',
      'green',
      'green',
      'amber',
      'amber',
      'red',
      'red',
      'red',
      'red',
      'grey',
    ]);
  });
  it('colours and words the days left', () => {
    expect([-3, -1, 0, 1, 7, 8, 30, 31, null].map((d) => [expiryTone(d), expiryText(d)])).toEqual([
      ['red', 'Expired 3 days ago'],
      ['red', 'Expired 1 day ago'],
      ['red', 'Expires today'],
      ['red', '1 day left'],
      ['red', '7 days left'],
      ['amber', '8 days left'],
      ['amber', '30 days left'],
      ['green', '31 days left'],
      ['grey', 'Unknown'],
    ]);
  });
});
