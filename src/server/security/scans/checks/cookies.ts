// Cookie flags of the front page's Set-Cookie headers: one finding per cookie missing Secure,
// HttpOnly or SameSite. The cookie's value never reaches the evidence (it may be a session).
import type { ScanCheck, ScanFinding } from '../types.ts';
import { quote } from './evidence.ts';

export const cookieFlags: ScanCheck = {
  label: 'cookie flags',
  async run(ctx) {
    const page = await ctx.home();
    if (!page) return [];
    const out: ScanFinding[] = [];
    for (const line of page.headers['set-cookie'] ?? []) {
      const [pair, ...attrs] = line.split(';').map((s) => s.trim());
      const eq = pair.indexOf('=');
      const name = (eq < 0 ? pair : pair.slice(0, eq)).trim();
      if (!name) continue;
      const has = (a: string) => attrs.some((x) => x.toLowerCase() === a || x.toLowerCase().startsWith(`${a}=`));
      const sameSite = attrs
        .find((x) => x.toLowerCase().startsWith('samesite='))
        ?.split('=')[1]
        ?.toLowerCase();
      const missing: string[] = [];
      if (!has('secure')) missing.push('Secure');
      if (!has('httponly')) missing.push('HttpOnly');
      if (!sameSite || sameSite === 'none') missing.push(sameSite === 'none' ? 'SameSite (None)' : 'SameSite');
      if (missing.length === 0) continue;
      const shown = [`${name}=<value>`, ...attrs].join('; ');
      out.push({
        key: `cookie.${quote(name, 100)}`,
        severity: missing.includes('Secure') ? 'medium' : 'low',
        title: `Cookie ${quote(name, 100)} set without ${missing.join(', ')}`,
        evidence: `Set-Cookie: ${quote(shown, 300)}`,
      });
    }
    return out;
  },
};
