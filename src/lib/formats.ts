// The text formats checked in the browser and on the server alike: an e-mail address (something@
// something.tld, no spaces) and a tenant brand colour (exactly #rrggbb, so it is safe in CSS).
const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const HEX_COLOUR_RE = /^#[0-9a-fA-F]{6}$/;

export function isEmail(value: string): boolean {
  return EMAIL_RE.test(value);
}

export function isHexColour(value: unknown): value is string {
  return typeof value === 'string' && HEX_COLOUR_RE.test(value);
}
