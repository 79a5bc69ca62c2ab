// Evidence shown to the host's admins: capped, and with control characters made visible, so a
// hostile answer cannot forge lines or flood the console.
export function quote(text: string, max = 200): string {
  let s = '';
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    s +=
      c < 0x20 || c === 0x7f
        ? ch === '\n'
          ? '\\n'
          : ch === '\r'
            ? '\\r'
            : ch === '\t'
              ? '\\t'
              : `\\x${c.toString(16).padStart(2, '0')}`
        : ch;
    if (s.length >= max) return `${s.slice(0, max)}…`;
  }
  return s;
}

/** The first bytes of a body as text (non-printable bytes escaped). */
export function firstBytes(body: Buffer, n = 64): string {
  return quote(body.subarray(0, n).toString('latin1'), n * 4);
}

export function headerValue(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v.join(', ') : v;
}
