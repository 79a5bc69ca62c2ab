// The report as files: CSV (one row per monitor and a company total row) and a branded PDF
// (pdfkit, drawn in the process: no browser). Both print the JSON's numbers as they are, so the
// three formats always agree.
import PDFDocument from 'pdfkit';
import { csvDocument, type CsvCell } from '../../../lib/csv.ts';
import type { SlaFigures, SlaMonitorLine } from '../../../lib/sla-report.ts';
import type { SlaReport } from './build.ts';
import { faceBytes, pdfFaces, type Face } from './pdf-fonts.ts';
import { layoutLine, type LaidLine } from './pdf-runs.ts';

export const CSV_COLUMNS = [
  'monitor_id',
  'name',
  'from',
  'to',
  'uptime_percent',
  'downtime_minutes',
  'maintenance_minutes',
  'incidents',
  'mttr_minutes',
  'mtbf_minutes',
  'p50_ms',
  'p95_ms',
  'sla_target',
  'sla_met',
  'budget_used_minutes',
  'budget_left_minutes',
  'budget_used_percent',
] as const;

function figuresRow(r: SlaReport, id: string, name: string, f: SlaFigures): CsvCell[] {
  return [
    id,
    name,
    r.from,
    r.to,
    f.uptime_percent,
    f.downtime_minutes,
    f.maintenance_minutes,
    f.incident_count,
    f.mttr_minutes,
    f.mtbf_minutes,
    f.p50_ms,
    f.p95_ms,
    f.sla_target,
    f.sla_met,
    f.budget_used_minutes,
    f.budget_left_minutes,
    f.budget_used_percent,
  ];
}

export function reportCsv(r: SlaReport): string {
  return csvDocument([
    [...CSV_COLUMNS],
    // A monitor checked from several locations: its quorum line, then a line per location.
    ...r.monitors.flatMap((m) => [
      figuresRow(r, m.monitor_id, m.name, m),
      ...m.locations.map((l) => figuresRow(r, `${m.monitor_id}@${l.slug}`, `${m.name} from ${l.name}`, l)),
    ]),
    figuresRow(r, 'total', `${r.company.name} (total)`, r.total),
  ]);
}

/** The file name both downloads and mail attachments use, e.g. sla-report-2026-10-01-2026-10-31.pdf */
export const reportFileName = (r: SlaReport, ext: 'csv' | 'pdf') => `sla-report-${r.from}-${r.to}.${ext}`;

export interface PdfBrand {
  primaryColor: string;
  /** PNG or JPEG bytes of the company's stored logo; null: the name alone */
  logo: Buffer | null;
}

type Doc = InstanceType<typeof PDFDocument>;
interface DrawOptions {
  size: number;
  bold?: boolean;
  /** the box's width: longer text is cut with "…", right-to-left text is aligned to its right */
  width?: number;
}

/** Draws one line of any script in the shipped fonts (pdf-fonts.ts), in bidi visual order. */
function textDrawer(doc: Doc) {
  const registered = new Set<string>();
  const use = (face: Face, size: number) => {
    if (!registered.has(face.name)) {
      doc.registerFont(face.name, faceBytes(face));
      registered.add(face.name);
    }
    doc.font(face.name).fontSize(size);
  };
  const measure = (line: LaidLine, size: number) =>
    line.runs.reduce((w, run) => {
      use(run.face, size);
      return w + doc.widthOfString(run.text);
    }, 0);
  return (text: string, x: number, y: number, o: DrawOptions) => {
    const faces = pdfFaces(o.bold ? 700 : 400);
    let line = layoutLine(text, faces);
    let w = measure(line, o.size);
    if (o.width !== undefined && w > o.width) {
      const chars = Array.from(text);
      while (chars.length > 0 && w > o.width) {
        chars.pop();
        line = layoutLine(`${chars.join('').trimEnd()}…`, faces);
        w = measure(line, o.size);
      }
    }
    let at = x + (o.width !== undefined && line.rtl ? o.width - w : 0);
    for (const run of line.runs) {
      use(run.face, o.size);
      doc.text(run.text, at, y, { lineBreak: false });
      at += doc.widthOfString(run.text);
    }
  };
}
const n = (v: number | null, unit = '') => (v === null ? '–' : `${v}${unit}`);
const met = (f: SlaFigures) => (f.sla_met === null ? 'no target' : f.sla_met ? 'met' : 'missed');

const COLUMNS: Array<{ title: string; width: number; cell: (f: SlaFigures & { name: string }) => string }> = [
  { title: 'Monitor', width: 150, cell: (f) => f.name },
  { title: 'Uptime %', width: 52, cell: (f) => n(f.uptime_percent) },
  { title: 'Down min', width: 50, cell: (f) => n(f.downtime_minutes) },
  { title: 'Maint. min', width: 52, cell: (f) => n(f.maintenance_minutes) },
  { title: 'Incidents', width: 46, cell: (f) => String(f.incident_count) },
  { title: 'MTTR min', width: 50, cell: (f) => n(f.mttr_minutes) },
  { title: 'MTBF min', width: 60, cell: (f) => n(f.mtbf_minutes) },
  { title: 'p50 ms', width: 40, cell: (f) => n(f.p50_ms) },
  { title: 'p95 ms', width: 40, cell: (f) => n(f.p95_ms) },
  { title: 'Target %', width: 46, cell: (f) => n(f.sla_target) },
  { title: 'SLA', width: 46, cell: met },
  { title: 'Budget used %', width: 60, cell: (f) => n(f.budget_used_percent) },
  { title: 'Budget left min', width: 66, cell: (f) => n(f.budget_left_minutes) },
];

export function reportPdf(r: SlaReport, brand: PdfBrand): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A4',
    layout: 'landscape',
    margin: 36,
    info: { Title: `SLA report ${r.company.name} ${r.from} to ${r.to}`, Author: r.company.name },
  });
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const draw = textDrawer(doc);
  const left = doc.page.margins.left;
  const bottom = () => doc.page.height - doc.page.margins.bottom;

  // Header band in the company's colour, logo at its left.
  doc.rect(0, 0, doc.page.width, 70).fill(brand.primaryColor);
  let titleX = left;
  if (brand.logo) {
    try {
      doc.image(brand.logo, left, 15, { fit: [120, 40] });
      titleX = left + 130;
    } catch {
      // A logo pdfkit cannot draw is left out rather than failing the report.
    }
  }
  doc.fillColor('#ffffff');
  draw(r.company.name, titleX, 16, { size: 18, bold: true, width: doc.page.width - titleX - left });
  draw(`SLA report ${r.from} to ${r.to} (UTC)`, titleX, 42, { size: 11 });
  doc.fillColor('#111111');
  let y = 90;

  const row = (cells: string[], bold: boolean, shade: boolean) => {
    if (y + 16 > bottom()) {
      doc.addPage();
      y = doc.page.margins.top;
    }
    if (shade)
      doc
        .rect(
          left,
          y - 3,
          COLUMNS.reduce((a, c) => a + c.width, 0),
          16,
        )
        .fill('#f1f3f5')
        .fillColor('#111111');
    let x = left;
    cells.forEach((text, i) => {
      draw(text, x + 2, y - 1, { size: 8, bold, width: COLUMNS[i].width - 4 });
      x += COLUMNS[i].width;
    });
    y += 16;
  };
  const line = (m: SlaFigures & { name: string }) => COLUMNS.map((c) => c.cell(m));

  row(
    COLUMNS.map((c) => c.title),
    true,
    true,
  );
  r.monitors.forEach((m, i) => row(line(m), false, i % 2 === 1));
  row(line({ ...r.total, name: 'Company total' }), true, true);

  y += 10;
  const text = (s: string, opts: { bold?: boolean; size?: number } = {}) => {
    if (y + 14 > bottom()) {
      doc.addPage();
      y = doc.page.margins.top;
    }
    draw(s, left, y, { size: opts.size ?? 8, bold: opts.bold, width: doc.page.width - 2 * left });
    y += (opts.size ?? 8) + 6;
  };
  text(
    'Uptime excludes maintenance. Each check stands for one check interval: downtime = failed checks x interval, maintenance = checks in a window x interval.',
  );
  const withIncidents = r.monitors.filter((m: SlaMonitorLine) => m.incidents.length > 0);
  if (withIncidents.length > 0) text('Incidents', { bold: true, size: 11 });
  for (const m of withIncidents) {
    text(m.name, { bold: true });
    for (const i of m.incidents) {
      const end = i.resolved_at === null ? 'ongoing' : new Date(i.resolved_at).toISOString().slice(0, 16).replace('T', ' ');
      text(`${new Date(i.started_at).toISOString().slice(0, 16).replace('T', ' ')} to ${end}: ${i.duration_minutes} min, ${i.title}`);
    }
  }
  text(`Generated ${r.generated_at.slice(0, 16).replace('T', ' ')} UTC`);
  doc.end();
  return done;
}
