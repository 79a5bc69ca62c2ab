// What a refused visitor of a private status page sees instead of it: a password form (plain
// HTML, works without JavaScript), a sign-in link, or why their address is not let in. It names
// neither the company nor anything of its page.
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

export function accessPage(opts: { mode: AccessPageMode; next: string; error?: string }): string {
  let title: string;
  let body: string;
  switch (opts.mode) {
    case 'password':
      title = 'This status page is private';
      body = `<p>Enter the page password to see it.</p>
${opts.error ? `<p class="err" role="alert" id="pw-error">${esc(opts.error)}</p>` : ''}
<form method="post" action="/access">
<input type="hidden" name="next" value="${esc(opts.next)}">
<label for="pw">Password</label>
<input id="pw" name="password" type="password" autocomplete="current-password" required autofocus${opts.error ? ' aria-describedby="pw-error" aria-invalid="true"' : ''}>
<button type="submit">Show the page</button>
</form>`;
      break;
    case 'users':
      title = 'This status page is private';
      // Members of a company with single sign-on come back to this page signed in (issue 31).
      body = `<p>Only signed-in members of this company can see it.</p><a class="btn" href="/login">Sign in</a>
<a class="btn" href="/api/v1/auth/sso/start?return_to=${esc(encodeURIComponent(opts.next))}">Sign in with SSO</a>`;
      break;
    case 'ip_allowlist':
      title = 'This status page is private';
      body = '<p>It can only be opened from the networks its owner allows. Your address is not one of them.</p>';
      break;
    case 'unavailable':
      // the access rule cannot be read: as the status page says when its data cannot be
      title = 'Failed to load status page';
      body = '<p>Please try again in a moment.</p>';
      break;
    case 'share_invalid':
      title = 'This link does not work';
      body = '<p>The share link is not valid: it may have expired or been revoked. Ask for a new one.</p>';
      break;
  }
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${title}</title><style>${STYLE}</style></head>
<body><main><h1>${title}</h1>${body}</main></body></html>`;
}
