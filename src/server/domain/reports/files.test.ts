// The report's files on their own: the PDF draws the company's stored PNG or JPEG logo (never a
// WebP pdfkit cannot draw, never anything fetched), prints names outside its font's alphabet
// without failing, and the CSV defuses formula-like monitor names.
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import { companyTotal, monitorLine, type MonitorCounts } from '../../../lib/sla-report.ts';
import type { CompanyRow } from '../../db/repositories/companies-repo.ts';
import type { SlaReport } from './build.ts';
import { reportCsv, reportPdf } from './files.ts';
import { pdfBrandOf } from './sla.ts';

const range = { from: Date.UTC(2026, 9, 1), to: Date.UTC(2026, 10, 1) };
const counts = (name: string): MonitorCounts => ({
  id: `id-${name.length}`,
  name,
  intervalSeconds: 60,
  slaTarget: 99.9,
  checks: 44_640,
  failures: 12,
  maintenance: 0,
  p50Ms: 100,
  p95Ms: 200,
  incidents: [{ id: 'i1', title: 'Down', startedAt: range.from + 3_600_000, resolvedAt: range.from + 3_600_000 + 12 * 60_000 }],
});
const monitors = [counts('=cmd|calc'), counts('Zürich 東京 API')];
const report: SlaReport = {
  company: { id: 'c1', name: 'Acme' },
  from: '2026-10-01',
  to: '2026-10-31',
  generated_at: '2026-11-02T00:00:00.000Z',
  monitors: monitors.map((m) => monitorLine(m, range, range.to)),
  total: companyTotal(monitors, range, range.to, { p50Ms: 100, p95Ms: 200 }),
};
const company = (over: Partial<CompanyRow>) =>
  ({ primary_color: '#0a7d4f', horizontal_logo_base64: null, logo_base64: null, ...over }) as CompanyRow;
const image = (format: 'png' | 'webp') =>
  sharp({ create: { width: 40, height: 20, channels: 3, background: '#ff0000' } })
    .toFormat(format)
    .toBuffer();

describe('the report files', () => {
  it('draws a stored PNG logo, skips a WebP one, and keeps the brand colour', async () => {
    const png = await image('png');
    const withLogo = pdfBrandOf(company({ logo_base64: `data:image/png;base64,${png.toString('base64')}` }));
    expect(withLogo.logo?.equals(png)).toBe(true);
    expect(withLogo.primaryColor).toBe('#0a7d4f');
    expect(pdfBrandOf(company({ logo_base64: `data:image/webp;base64,${(await image('webp')).toString('base64')}` })).logo).toBeNull();
    expect(pdfBrandOf(company({ logo_base64: 'https://evil.example/logo.png', primary_color: 'red;' }))).toEqual({
      primaryColor: '#1f2937',
      logo: null,
    });

    const pdf = await reportPdf(report, withLogo);
    const doc = await getDocumentProxy(new Uint8Array(pdf));
    const { text } = await extractText(doc, { mergePages: true });
    expect(text).toContain('Acme');
    expect(text).toContain('Zürich ?? API'); // a script no shipped font holds (CJK): a placeholder, not a failure
    expect(text).toContain(String(report.monitors[0].uptime_percent));
    expect(text).toContain('Down');
    const withoutLogo = await reportPdf(report, { primaryColor: '#0a7d4f', logo: null });
    expect(pdf.length).toBeGreaterThan(withoutLogo.length); // the image is in the file
  });

  it('prints Hebrew, Arabic, emoji, Greek and Cyrillic names in embedded fonts, right-to-left text in reading order', async () => {
    const names = ['שרת ראשי (API) 2', 'خادم الويب الرئيسي', '🚀 Launch ✅', 'Ελλάδα Москва'];
    const ms = names.map(counts);
    const rtl: SlaReport = {
      ...report,
      company: { id: 'c1', name: 'אקמי 🚀' },
      monitors: ms.map((m) => monitorLine(m, range, range.to)),
      total: companyTotal(ms, range, range.to, { p50Ms: 100, p95Ms: 200 }),
    };
    const pdf = await reportPdf(rtl, { primaryColor: '#0a7d4f', logo: null });
    const doc = await getDocumentProxy(new Uint8Array(pdf));
    const { text } = await extractText(doc, { mergePages: true });
    // NFKC folds the presentation forms (U+FExx) the reader maps shaped Arabic glyphs to; the
    // reader also puts stray C0 controls beside some joined glyphs, which are dropped here.
    const lines = text
      .normalize('NFKC')
      .replace(/[\u0000-\u0009\u000b-\u001f]/g, '')
      .split('\n');
    // Each name's line as drawn, left to right: right-to-left words come last word first, and
    // the "(API) 2" that follows Hebrew in reading order stands to its left.
    expect(lines).toContainEqual(expect.stringMatching(/^2 \(API\) ראשי שרת 99\.973 /));
    expect(lines).toContainEqual(expect.stringMatching(/^الرئيسي الويب خادم 99\.973 /));
    expect(lines).toContainEqual(expect.stringMatching(/^🚀 Launch ✅ 99\.973 /));
    expect(lines).toContainEqual(expect.stringMatching(/^Ελλάδα Москва 99\.973 /));
    expect(lines[0]).toBe('🚀 אקמי');
    expect(text).not.toContain('?');
    // The fonts are embedded (subsets), none is left to the reader's machine.
    const fonts = pdf.toString('latin1').match(/\/BaseFont \/[A-Z]{6}\+[\w-]+/g) ?? [];
    expect(fonts.some((f) => /Hebrew/.test(f)) && fonts.some((f) => /Arabic/.test(f)) && fonts.some((f) => /Emoji/.test(f))).toBe(true);
    expect(pdf.toString('latin1')).not.toMatch(/\/BaseFont \/Helvetica/);
  });

  it('writes a CSV whose formula-like names are defused', () => {
    const lines = reportCsv(report).split('\r\n');
    expect(lines[1].startsWith("id-9,'=cmd|calc,2026-10-01,2026-10-31,")).toBe(true);
    expect(lines[3].startsWith('total,Acme (total),')).toBe(true);
  });
});
