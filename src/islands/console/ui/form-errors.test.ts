import { describe, expect, it } from 'vitest';
import { clearErrors } from './form-errors.ts';

describe('clearErrors', () => {
  it('drops the edited fields and keeps the others', () => {
    const errors = { email: 'Enter a valid email address', maxUsers: 'Max Users must be at least 1' };
    expect(clearErrors(errors, 'email')).toEqual({ maxUsers: 'Max Users must be at least 1' });
    expect(errors).toHaveProperty('email'); // not changed in place
  });
  it('answers the same object when the field had no error (no re-render)', () => {
    const errors = { email: 'x' };
    expect(clearErrors(errors, 'phone')).toBe(errors);
  });
});
