// /settings/account: the signed-in user's own credentials. Two-factor sign-in (enrol with a QR
// code, confirm with a first code, recovery codes shown once, turn off with a code or the
// password), API tokens (create: the token shown once with a copy button; list; revoke), and
// the password, passkeys (PasskeysCard), and the active sessions with 'sign out other sessions'. Every role has it: a token or a second factor belongs to the person.
import { useEffect } from 'react';
import { loadPasskeys, loadSessions, loadTokens, loadTwoFactor } from './store.ts';
import { AppearanceCard } from './AppearanceCard.tsx';
import { PasswordCard } from './PasswordCard.tsx';
import { SessionsCard } from './SessionsCard.tsx';
import { TokensCard } from './TokensCard.tsx';
import { TwoFactorCard } from './TwoFactorCard.tsx';
import { PasskeysCard } from './PasskeysCard.tsx';
import './account.css';

/** The screen composes its cards (one file each); each card holds its own forms and messages. */
export function AccountPage({ title }: { title: string }) {
  useEffect(() => {
    void loadTwoFactor();
    void loadTokens();
    void loadSessions();
    void loadPasskeys();
  }, []);
  return (
    <div className="sw-admin sw-account">
      <h2 className="sw-page-title">{title}</h2>
      <TwoFactorCard />
      <PasskeysCard />
      <TokensCard />
      <PasswordCard />
      <SessionsCard />
      <AppearanceCard />
    </div>
  );
}
