// The result line of an account card: a polite status when it worked, an alert when it did not.

export function Banner({ ok, text }: { ok: boolean; text: string | null }) {
  if (!text) return null;
  return (
    <p className={`sw-banner ${ok ? 'sw-banner-ok' : 'sw-banner-error'}`} role={ok ? 'status' : 'alert'}>
      {text}
    </p>
  );
}
