// Tenant logos reach public pages only as data: URLs of real PNG, JPEG or WebP images: the
// bytes are sniffed (the declared type is not trusted) and the size is bounded.
const MAX_BASE64 = 700_000; // ~512 KB of image
const B64_RE = /^[A-Za-z0-9+/]+={0,2}$/;

function sniff(bytes: Buffer): 'image/png' | 'image/jpeg' | 'image/webp' | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png';
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.length >= 12 && bytes.toString('latin1', 0, 4) === 'RIFF' && bytes.toString('latin1', 8, 12) === 'WEBP') return 'image/webp';
  return null;
}

/** A safe data: URL for the stored logo (data URL or bare base64), or null. */
export function safeLogoDataUrl(stored: string | null | undefined): string | null {
  if (!stored) return null;
  let b64 = stored.trim();
  const m = /^data:image\/(png|jpeg|jpg|webp);base64,(.*)$/s.exec(b64);
  if (m) b64 = m[2];
  else if (b64.startsWith('data:')) return null;
  b64 = b64.replace(/\s+/g, '');
  if (b64.length === 0 || b64.length > MAX_BASE64 || !B64_RE.test(b64)) return null;
  const mime = sniff(Buffer.from(b64.slice(0, 24), 'base64'));
  return mime ? `data:${mime};base64,${b64}` : null;
}
