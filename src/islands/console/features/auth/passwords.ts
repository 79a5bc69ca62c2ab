// Password recovery calls (Identity area's forgot-password and reset-password operations).
import { api, errorText } from '../../api.ts';

export async function requestPasswordReset(email: string): Promise<{ ok: boolean; message: string }> {
  try {
    const { data, error } = await api.POST('/api/v1/auth/forgot-password', { body: { email } });
    if (data) return { ok: true, message: data.message ?? 'If an account exists for this email, a reset link is on its way.' };
    return { ok: false, message: errorText(error, 'Failed to send the reset link.') };
  } catch (e) {
    return { ok: false, message: errorText(e, 'Failed to send the reset link.') };
  }
}

export async function resetPassword(token: string, password: string): Promise<{ ok: boolean; message: string }> {
  try {
    const { data, error } = await api.POST('/api/v1/auth/reset-password', { body: { token, new_password: password } });
    if (data) return { ok: true, message: 'Your password has been reset. You can sign in now.' };
    return { ok: false, message: errorText(error, 'Failed to reset password.') };
  } catch (e) {
    return { ok: false, message: errorText(e, 'Failed to reset password.') };
  }
}
