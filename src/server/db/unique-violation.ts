// A write refused by a unique index, on either database: services turn such races into a
// clear 409 instead of a 500.
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; message?: string };
  return err?.code === '23505' || /UNIQUE constraint failed/i.test(err?.message ?? '');
}
