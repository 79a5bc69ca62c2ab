// The passwords people pick most and that leak most (zxcvbn-ts' list of about 49,000, from
// breach corpora), kept offline in the package, so `password` and `12345678` are refused
// without asking any outside service (ASVS 2.1.7).
import { dictionary } from '@zxcvbn-ts/language-common';

let common: Set<string> | undefined;

/** True when the password, ignoring case, is on the list. */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common']);
  return common.has(password.toLowerCase());
}
