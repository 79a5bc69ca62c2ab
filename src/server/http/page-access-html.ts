// What a refused visitor of a private status page sees instead of it: a password form (plain
// HTML, works without JavaScript), a sign-in link, or why their address is not let in. It names
// neither the company nor anything of its page, so its language is the visitor's (their `lang`
// choice, else their browser's, among all twelve public languages), not the page's settings.
import { directionOf, isPublicLocale, negotiateLocale, PUBLIC_LOCALES, PSEUDO_LOCALE } from '../../lib/i18n/index.ts';
import { PUBLIC_AREA } from '../../lib/i18n/messages/public/index.ts';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export type AccessPageMode = 'password' | 'users' | 'ip_allowlist' | 'share_invalid' | 'unavailable';

const STYLE = `
:root{color-scheme:light dark;font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
body{margin:0;min-height:100vh;display:grid;place-items:center;background:#f4f6f8;color:#1d2430}
main{width:min(26rem,calc(100vw - 2rem));background:#fff;border:1px solid #d5dbe3;border-radius:12px;padding:2rem;box-sizing:border-box}
h1{font-size:1.35rem;margin:0 0 .5rem}p{line-height:1.5;margin:.5rem 0 1rem}
label{display:block;font-weight:600;margin-bottom:.35rem}
input{width:100%;box-sizing:border-box;font:inherit;padding:.6rem .7rem;border:1px solid #7a8699;border-radius:8px}
input:focus-visible,button:focus-visible,a:focus-visible{outline:3px solid #1565c0;outline-offset:2px}
button,.btn{display:inline-block;margin-top:1rem;font:inherit;font-weight:600;padding:.6rem 1.2rem;border:0;border-radius:8px;background:#0b57d0;color:#fff;text-decoration:none;cursor:pointer}
.err{color:#a4161a;font-weight:600}
@media (prefers-color-scheme:dark){body{background:#11161d;color:#e6ebf1}main{background:#1a212b;border-color:#334}input{background:#0f141a;color:#e6ebf1;border-color:#8894a6}.err{color:#ff8a8a}}
`;

/**
 * The gate's language: `lang` of the page asked for (`next`) when it is a public language, else
 * the best of Accept-Language, else English. The pseudo-locale only when tests allow it.
 */
export function gateLocale(next: string, acceptLanguage: string | null | undefined, pseudo = false): string {
  let lang: string | null = null;
  try {
    lang = new URL(next, 'http://x').searchParams.get('lang');
  } catch {
    lang = null;
  }
  if (pseudo && lang === PSEUDO_LOCALE) return lang;
  return negotiateLocale({ explicit: isPublicLocale(lang) ? lang : null, acceptLanguage, offered: PUBLIC_LOCALES, fallback: 'en' });
}

/** A wrong password's message, in the gate's language. */
export function gateError(locale: string, kind: 'wrong' | 'throttled', retryAfterSeconds = 0): string {
  const tr = PUBLIC_AREA.translator(locale);
  return kind === 'wrong' ? tr.t('gate.wrongPassword') : tr.t('gate.throttled', { minutes: Math.ceil(retryAfterSeconds / 60) });
}

export function accessPage(opts: { mode: AccessPageMode; next: string; error?: string; locale?: string; sso?: boolean }): string {
  const locale = opts.locale ?? 'en';
  const t = PUBLIC_AREA.translator(locale).t;
  const w = (key: Parameters<typeof t>[0]) => esc(t(key));
  let title: string;
  let body: string;
  switch (opts.mode) {
    case 'password':
      title = w('gate.privateTitle');
      body = `<p>${w('gate.passwordIntro')}</p>
${opts.error ? `<p class="err" role="alert" id="pw-error">${esc(opts.error)}</p>` : ''}
<form method="post" action="/access">
<input type="hidden" name="next" value="${esc(opts.next)}">
<label for="pw">${w('gate.password')}</label>
<input id="pw" name="password" type="password" autocomplete="current-password" required autofocus${opts.error ? ' aria-describedby="pw-error" aria-invalid="true"' : ''}>
<button type="submit">${w('gate.show')}</button>
</form>`;
      break;
    case 'users':
      title = w('gate.privateTitle');
      // Members of a company with single sign-on come back to this page signed in (issue 31); the
      // button shows only where SSO can work (configured, and the plan has it).
      body = `<p>${w('gate.membersOnly')}</p><a class="btn" href="/login">${w('gate.signIn')}</a>${
        opts.sso
          ? `\n<a class="btn" href="/api/v1/auth/sso/start?return_to=${esc(encodeURIComponent(opts.next))}">${w('gate.signInSso')}</a>`
          : ''
      }`;
      break;
    case 'ip_allowlist':
      title = w('gate.privateTitle');
      body = `<p>${w('gate.ipRefused')}</p>`;
      break;
    case 'unavailable':
      // the access rule cannot be read: as the status page says when its data cannot be
      title = w('gate.failedTitle');
      body = `<p>${w('gate.failedText')}</p>`;
      break;
    case 'share_invalid':
      title = w('gate.shareInvalidTitle');
      body = `<p>${w('gate.shareInvalidText')}</p>`;
      break;
  }
  return `<!doctype html>
<html lang="${esc(locale)}" dir="${directionOf(locale)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${title}</title><style>${STYLE}</style></head>
<body><main><h1>${title}</h1>${body}</main></body></html>`;
}
