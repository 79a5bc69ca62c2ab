// The logo file rule of the tenant form and the company settings (both use ui/LogoField.tsx).
import { LOGO_MIME_TYPES, MAX_LOGO_BYTES } from '../../../lib/company.ts';

/** Why a chosen logo file cannot be used, in the server's words, or null. The server sniffs the bytes again. */
export function logoProblem(file: { type: string; size: number }, label: string): string | null {
  if (!LOGO_MIME_TYPES.includes(file.type)) return `${label} must be a PNG, JPEG or WebP image.`;
  if (file.size > MAX_LOGO_BYTES) return `${label} must be at most 512 KB.`;
  return null;
}
