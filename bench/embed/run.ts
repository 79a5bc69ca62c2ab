// Embed size (issue 32 target: embed.js <= 5 KB compressed). Prints, for each of the twelve
// languages, the bytes of the script the server sends (the same text as /embed.js?lang=X, a
// brand colour of the company's) raw, brotli and gzip, compressed as representation.ts
// compresses it for the answer (brotli quality 5, gzip level 6), and the largest next to the
// target. No load is simulated: the figure is a size. The API test asserts the same target on
// the bytes the running server answers with.
import { gzipSync } from 'node:zlib';
import { PUBLIC_LOCALES } from '../../src/lib/i18n/index.ts';
import { embedScriptText } from '../../src/server/domain/status-page/embed.ts';
import { brotli } from '../../src/server/http/representation.ts';

const TARGET = 5 * 1024;
let worst = { locale: '', br: 0, gzip: 0 };
console.log('language   raw     br   gzip');
for (const locale of PUBLIC_LOCALES) {
  const text = Buffer.from(embedScriptText(locale, '#0a66c2'));
  const br = brotli(text).length;
  const gzip = gzipSync(text, { level: 6 }).length;
  console.log(`${locale.padEnd(8)} ${String(text.length).padStart(5)}  ${String(br).padStart(5)}  ${String(gzip).padStart(5)}`);
  if (Math.max(br, gzip) > Math.max(worst.br, worst.gzip)) worst = { locale, br, gzip };
}
const ok = Math.max(worst.br, worst.gzip) <= TARGET;
console.log(
  `embed.js largest (${worst.locale}): ${worst.br} B brotli, ${worst.gzip} B gzip; target <= ${TARGET} B: ${ok ? 'met' : 'MISSED'}`,
);
if (!ok) process.exitCode = 1;
