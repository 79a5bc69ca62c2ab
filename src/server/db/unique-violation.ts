// A unique constraint refused a write (PostgreSQL SQLSTATE 23505, SQLite's "UNIQUE constraint
// failed"): services turn such races into a clear 409 instead of a 500.
export function isUniqueViolation(e: unknown): boolean {
  const err = e as { code?: string; message?: string } | null | undefined;
  return err?.code === '23505' || /UNIQUE constraint failed/i.test(err?.message ?? '');
}
