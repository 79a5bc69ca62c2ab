import { describe, expect, it } from 'vitest';
import { parseStreamResultId, streamResultId } from './probe-result-ids.ts';

describe('probe result ids', () => {
  it('reads back the stream and number it wrote', () => {
    expect(parseStreamResultId(streamResultId('AAAAAAAAAAAAAAAAAAAAAA', 42))).toEqual({ stream: 'AAAAAAAAAAAAAAAAAAAAAA', seq: 42 });
    expect(parseStreamResultId(streamResultId('k9_-k9_-k9_-k9_-', 999_999_999_999_999))).toEqual({
      stream: 'k9_-k9_-k9_-k9_-',
      seq: 999_999_999_999_999,
    });
  });

  it('takes any other id as a plain id', () => {
    for (const id of [
      '1b4e28ba-2fa1-41d2-883f-0016d3cca427',
      'r-1',
      'p1:short:1',
      'p1:AAAAAAAAAAAAAAAAAAAAAA:0',
      'p1:AAAAAAAAAAAAAAAAAAAAAA:01',
      'p1:AAAAAAAAAAAAAAAAAAAAAA:1234567890123456',
      'p1:AAAAAAAA.AAAAAAAAAAAAA:1',
      'p2:AAAAAAAAAAAAAAAAAAAAAA:1',
    ])
      expect(parseStreamResultId(id), id).toBeNull();
  });
});
