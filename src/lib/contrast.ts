// Brand colours are the company's, but text on them must stay readable (WCAG AA, 4.5:1 against
// white): a colour too light is darkened step by step until it is. Pure.
function channel(v: number): number {
  const s = v / 255;
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
}

export function contrastWithWhite(hex: string): number {
  const n = Number.parseInt(hex.slice(1), 16);
  const l = 0.2126 * channel((n >> 16) & 255) + 0.7152 * channel((n >> 8) & 255) + 0.0722 * channel(n & 255);
  return 1.05 / (l + 0.05);
}

export function readableOnWhite(hex: string, min = 4.5): string {
  let [r, g, b] = [
    (Number.parseInt(hex.slice(1), 16) >> 16) & 255,
    (Number.parseInt(hex.slice(1), 16) >> 8) & 255,
    Number.parseInt(hex.slice(1), 16) & 255,
  ];
  let out = hex.toLowerCase();
  for (let i = 0; i < 40 && contrastWithWhite(out) < min; i++) {
    [r, g, b] = [r, g, b].map((c) => Math.floor(c * 0.95));
    out = '#' + [r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('');
  }
  return out;
}
