// Company rules shared by the server (which enforces them) and the console (which says so at
// once): the logo limits and the services a new company starts with. Pure; imports nothing.

/** Largest logo accepted, in bytes (decoded). */
export const MAX_LOGO_BYTES = 512 * 1024;
/** Image types a logo may have; the server checks the bytes, not the declared type. */
export const LOGO_MIME_TYPES: readonly string[] = ['image/png', 'image/jpeg', 'image/webp'];

export interface CompanyServices {
  monitor: boolean;
  security: boolean;
  data_breach: boolean;
}

/** Section 3 of the spec: monitor true, security true, data_breach false. */
export const DEFAULT_SERVICES: Readonly<CompanyServices> = { monitor: true, security: true, data_breach: false };
