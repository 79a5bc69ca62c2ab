// The CSP source that allows one inline <script> or <style> by its text: 'sha256-<base64>' over
// the UTF-8 bytes between its tags, as browsers compute it. Shared by the embed frames (which
// build their policy from their one style) and the cached status pages (which keep Astro's
// hashes only for the blocks they hold, http/csp-for-html.ts).
import { createHash } from 'node:crypto';

export function cspHashSource(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}
