// Validation rules for people: new passwords (the e-mail format is in src/lib/formats.ts).
import { isCommonPassword } from '../../common-passwords.ts';

export const MIN_PASSWORD = 8;
export const TOO_COMMON_PASSWORD = 'This password is too common. Choose another.';

/** Why a new password is not acceptable, or null. */
export function passwordProblem(password: string | undefined | null): string | null {
  if (!password) return 'Password is required.';
  if (password.length < MIN_PASSWORD) return `Password must be at least ${MIN_PASSWORD} characters.`;
  if (isCommonPassword(password)) return TOO_COMMON_PASSWORD;
  return null;
}

/** Why a new password chosen in a reset or change form is not acceptable, or null. */
export function newPasswordProblem(password: string | undefined | null): string | null {
  return password ? passwordProblem(password) : 'New Password is required.';
}
