// Field messages of the console's forms: each goes away as soon as its field is edited, so a
// corrected value never sits beside the complaint about the old one until the next submit.

export type FieldErrors = Record<string, string>;

/** The errors without those of the given fields (the same object when there is nothing to drop). */
export function clearErrors(errors: FieldErrors, ...fields: string[]): FieldErrors {
  if (!fields.some((f) => f in errors)) return errors;
  const rest = { ...errors };
  for (const f of fields) delete rest[f];
  return rest;
}
