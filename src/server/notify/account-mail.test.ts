import { describe, expect, it } from 'vitest';
import { accountMailHtml } from './account-mail.ts';

const link = 'https://acme.example.com/invite?token=abc_DEF-123';
const brand = { companyName: 'Acme <b>& Sons</b>', primaryColor: '#0a7d4f', productName: 'StatusWatch' };

describe('account mail HTML', () => {
  it('keeps the text, escaped, with the link as a labelled button and other addresses as links', () => {
    const html = accountMailHtml(
      {
        subject: 'You are invited to Acme <b>& Sons</b>',
        kind: 'invitation',
        link,
        text: `Hello <script>x</script>,\n\nOpen this link:\n\n${link}\n\nOr sign in at https://acme.example.com/login\n`,
      },
      brand,
    );
    expect(html).not.toContain('<script>');
    expect(html).toContain('Hello &lt;script&gt;x&lt;/script&gt;,');
    expect(html).toContain('<strong style="color:#fff;font-size:16px">Acme &lt;b&gt;&amp; Sons&lt;/b&gt;</strong>');
    expect(html).toMatch(
      /<a href="https:\/\/acme\.example\.com\/invite\?token=abc_DEF-123" style="[^"]*background:#0a7d4f[^"]*">Accept the invitation<\/a>/,
    );
    expect(html).toContain('<a href="https://acme.example.com/login" style="color:#0a7d4f">https://acme.example.com/login</a>');
  });

  it("falls back to the product's name and the default colour, and to a generic button label", () => {
    const html = accountMailHtml(
      { subject: 'Hi', kind: 'something_new', link, text: `Go:\n\n${link}\n` },
      { companyName: null, primaryColor: 'red;display:none', productName: 'StatusWatch' },
    );
    expect(html).toContain(
      '<div style="background:#2563eb;padding:12px 16px"><strong style="color:#fff;font-size:16px">StatusWatch</strong></div>',
    );
    expect(html).toContain('>Open the link</a>');
  });
});
