import { describe, expect, it } from 'vitest';
import { safeLogoDataUrl } from './logo.ts';

const b64 = (bytes: number[] | string) => Buffer.from(typeof bytes === 'string' ? bytes : Uint8Array.from(bytes)).toString('base64');
const PNG = b64([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const JPEG = b64([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46]);
const WEBP = b64('RIFF\x24\x00\x00\x00WEBPVP8 ');

describe('safeLogoDataUrl', () => {
  it('accepts PNG, JPEG and WebP by their bytes, as data URLs or bare base64', () => {
    expect(safeLogoDataUrl(PNG)).toBe(`data:image/png;base64,${PNG}`);
    expect(safeLogoDataUrl(`data:image/jpeg;base64,${JPEG}`)).toBe(`data:image/jpeg;base64,${JPEG}`);
    expect(safeLogoDataUrl(`data:image/png;base64,${WEBP}`)).toBe(`data:image/webp;base64,${WEBP}`); // the bytes decide
  });

  it('refuses anything else', () => {
    for (const bad of [
      null,
      '',
      'not base64 !',
      `data:image/svg+xml;base64,${b64('<svg onload="alert(1)"/>')}`,
      b64('<svg onload="alert(1)"/>'),
      b64('GIF89a......'),
      `data:text/html;base64,${b64('<script>alert(1)</script>')}`,
      `javascript:alert(1)`,
      `${PNG}"><script>`,
      'A'.repeat(800_000),
    ])
      expect(safeLogoDataUrl(bad)).toBeNull();
  });
});
