// Tenant logos. At upload a logo is decoded and drawn again as a clean image (cleanLogo): what
// does not decode as a PNG, JPEG or WebP is refused, so a file that only starts like an image
// (an image signature followed by HTML, an appended payload) never reaches a page; metadata is
// dropped, the size is bounded and decompression bombs are refused from the header alone.
// Public pages show logos only as data: URLs of sniffed PNG, JPEG or WebP bytes (safeLogoDataUrl).
import sharp, { type Metadata } from 'sharp';
import { MAX_LOGO_BYTES } from '../../../lib/company.ts';

const MAX_BASE64 = 700_000; // ~512 KB of image
const B64_RE = /^[A-Za-z0-9+/]+={0,2}$/;
/** Longest side of a stored logo: pages draw it 40 px high, 1024 leaves room for any screen. */
export const LOGO_MAX_SIDE = 1024;
/** Largest source accepted, per side: beyond this a small file is a decompression bomb. */
export const LOGO_MAX_SOURCE_SIDE = 4096;
const DECODERS = new Set(['png', 'jpeg', 'webp']);
// Each logo is drawn once: sharp's cache of decoded images would only hold tenant data in memory.
sharp.cache(false);

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

/**
 * The logo decoded and encoded again (PNG, or WebP when the PNG would pass the size limit) as a
 * data: URL, or a problem text naming the field. Only the first frame of an animation is kept.
 */
export async function cleanLogo(bytes: Buffer, label: string): Promise<{ ok: string } | { problem: string }> {
  const notImage = { problem: `${label} could not be read as a PNG, JPEG or WebP image: upload the image file itself.` };
  const options = { failOn: 'error', limitInputPixels: LOGO_MAX_SOURCE_SIDE * LOGO_MAX_SOURCE_SIDE, pages: 1 } as const;
  let meta: Metadata;
  try {
    // The header alone (no pixels are decoded), read without the pixel limit so that a bomb gets
    // the message about its size.
    meta = await sharp(bytes, { ...options, limitInputPixels: false }).metadata();
  } catch {
    return notImage;
  }
  if (!meta.format || !DECODERS.has(meta.format)) return notImage;
  if (!meta.width || !meta.height || meta.width > LOGO_MAX_SOURCE_SIDE || meta.height > LOGO_MAX_SOURCE_SIDE) {
    return { problem: `${label} must be at most ${LOGO_MAX_SOURCE_SIDE} × ${LOGO_MAX_SOURCE_SIDE} pixels.` };
  }
  try {
    const drawn = sharp(bytes, options)
      .rotate() // apply the EXIF orientation before the metadata goes
      .resize({ width: LOGO_MAX_SIDE, height: LOGO_MAX_SIDE, fit: 'inside', withoutEnlargement: true });
    let out = await drawn.clone().png({ compressionLevel: 9, adaptiveFiltering: true }).toBuffer();
    let mime = 'image/png';
    if (out.length > MAX_LOGO_BYTES) {
      out = await drawn.clone().webp({ quality: 85 }).toBuffer();
      mime = 'image/webp';
    }
    if (out.length > MAX_LOGO_BYTES) return { problem: `${label} must be at most 512 KB.` };
    return { ok: `data:${mime};base64,${out.toString('base64')}` };
  } catch {
    return notImage;
  }
}

/** Cleans the logos of a company form in place, adding a field problem for each refused one. */
export async function cleanFormLogos<K extends string>(
  value: NoInfer<Partial<Record<K, string | null>>>,
  fields: Record<string, string>,
  labels: Record<K, string>,
): Promise<void> {
  for (const key of Object.keys(labels) as K[]) {
    const v = value[key];
    if (typeof v !== 'string' || fields[key]) continue;
    const r = await cleanLogo(Buffer.from(v.slice(v.indexOf(',') + 1), 'base64'), labels[key]);
    if ('problem' in r) fields[key] = r.problem;
    else value[key] = r.ok;
  }
}
