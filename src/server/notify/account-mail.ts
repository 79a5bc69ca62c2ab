// The HTML part of the account mails (password reset, invitation, sign-in unlock, signup, SMTP
// test), made from their plain text so both parts always say the same: the company's name on a
// bar of its primary colour like the alert and subscriber mails (the product's name for mail
// that belongs to no company), the text's paragraphs, and the mail's one link as a button with
// the address under it for clients that hide buttons. Pure.

export interface AccountMailBrand {
  /** The company's name, or null for mail that belongs to no company */
  companyName: string | null;
  /** #rrggbb or null */
  primaryColor: string | null;
  productName: string;
}

export interface AccountMailContent {
  subject: string;
  text: string;
  /** what the mail is about (MailMessage.kind): names its button */
  kind: string;
  /** the one link the mail is for, shown as a button */
  link?: string;
}

/** What the button of each kind of mail says; other kinds say "Open the link". */
const BUTTON_LABELS: Record<string, string> = {
  password_reset: 'Choose a new password',
  invitation: 'Accept the invitation',
  sign_in_unlock: 'Sign in from here',
  signup_confirm: 'Confirm your address',
  'subscription confirmation': 'Confirm subscription',
};

const DEFAULT_COLOR = '#2563eb';

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const colorOf = (b: AccountMailBrand) => (b.primaryColor && /^#[0-9a-f]{6}$/i.test(b.primaryColor) ? b.primaryColor : DEFAULT_COLOR);

/** One paragraph of the text: escaped, its line breaks kept, its http(s) addresses made links. */
function paragraph(p: string, color: string): string {
  const parts = p.split(/(https?:\/\/[^\s<>"]+)/);
  const html = parts
    .map((part, i) => (i % 2 === 1 ? `<a href="${escapeHtml(part)}" style="color:${color}">${escapeHtml(part)}</a>` : escapeHtml(part)))
    .join('')
    .replace(/\n/g, '<br>');
  return `<p style="margin:0 0 12px;line-height:1.5">${html}</p>`;
}

function button(link: string, label: string, color: string): string {
  return `<p style="margin:4px 0 6px"><a href="${escapeHtml(link)}" style="display:inline-block;background:${color};color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none;font-weight:600">${escapeHtml(label)}</a></p>
<p style="margin:0 0 14px;font-size:12px;color:#555;word-break:break-all">${escapeHtml(link)}</p>`;
}

export function accountMailHtml(mail: AccountMailContent, brand: AccountMailBrand): string {
  const color = colorOf(brand);
  const paragraphs = mail.text
    .trim()
    .split(/\n{2,}/)
    .map((p) => p.trim());
  const body = paragraphs
    .map((p) =>
      mail.link && p === mail.link ? button(mail.link, BUTTON_LABELS[mail.kind] ?? 'Open the link', color) : paragraph(p, color),
    )
    .join('\n');
  const sender = brand.companyName ? `${brand.companyName} · ${brand.productName}` : brand.productName;
  return `<!doctype html><html><body style="margin:0;font-family:system-ui,sans-serif;color:#111;background:#f8fafc">
<div style="background:${color};padding:12px 16px"><strong style="color:#fff;font-size:16px">${escapeHtml(brand.companyName ?? brand.productName)}</strong></div>
<div style="padding:16px 18px;background:#fff"><h1 style="font-size:18px;margin:0 0 12px">${escapeHtml(mail.subject)}</h1>
${body}</div>
<p style="padding:10px 18px;margin:0;font-size:12px;color:#555">${escapeHtml(sender)}</p>
</body></html>`;
}
