// Password recovery calls (Identity area's forgot-password and reset-password operations).
import { api, errorText } from '../../api.ts';
import { t } from '../../i18n.ts';

export async function requestPasswordReset(email: string): Promise<{ ok: boolean; message: string }> {
  try {
    const { data, error } = await api.POST('/api/v1/auth/forgot-password', { body: { email } });
    if (data) return { ok: true, message: data.message ?? t('auth.passwords.ifAnAccountExistsFor') };
    return { ok: false, message: errorText(error, t('auth.passwords.failedToSendTheReset')) };
  } catch (e) {
    return { ok: false, message: errorText(e, t('auth.passwords.failedToSendTheReset')) };
  }
}

export async function resetPassword(token: string, password: string): Promise<{ ok: boolean; message: string }> {
  try {
    const { data, error } = await api.POST('/api/v1/auth/reset-password', { body: { token, new_password: password } });
    if (data) return { ok: true, message: t('auth.passwords.yourPasswordHasBeenReset') };
    return { ok: false, message: errorText(error, t('auth.passwords.failedToResetPassword')) };
  } catch (e) {
    return { ok: false, message: errorText(e, t('auth.passwords.failedToResetPassword')) };
  }
}
