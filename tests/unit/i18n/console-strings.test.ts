// Every user-visible string of the console goes through the catalogue (issue 32). The console's
// .tsx files are parsed with the TypeScript compiler and these fail the test:
// - JSX text with a letter in it ('<p>Saved</p>');
// - a shown value with a letter in a text attribute (TEXT_ATTRIBUTES: title, aria-label,
//   placeholder, alt, label, hint, text, confirmLabel, empty, ...) or an object property of the
//   same names ({ label: 'Name' } of a table's columns, { text: '...' } of a banner), or in a JSX
//   child expression ({busy ? 'Saving…' : 'Save'});
// - a string with a letter passed to a call that shows it (SHOWING_CALLS: showToast, confirm,
//   alert, setError, setMessage, setAlert).
// A "shown value" is a string or template literal, also as a branch of `?:` or the right side of
// `??`/`||`/`&&`; conditions and other calls are not looked into (`x === 'active' ? ...` is data).
// Anything inside t(...)/tr(...) is a catalogue key and is fine. Not caught: English in lookup tables
// ({ weekly: 'Weekly' }) and in .ts stores; review catches those.
// NOT_YET_CONVERTED lists the folders still to convert: each engineer removes theirs when done, and
// the list ends empty. ALLOWED_LITERALS: product names and symbols that read the same in any language.
// Beside it: every t('...') key the console uses exists in the English catalogue.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { CONSOLE_AREA } from '../../../src/lib/i18n/messages/console/index.ts';

const ROOT = path.join(import.meta.dirname, '../../../src/islands/console');

/** Folders under src/islands/console whose strings are not in the catalogue yet. */
// Empty since every folder is converted (issue 32): a new screen is written through the catalogue.
const NOT_YET_CONVERTED: string[] = [];

/** Texts that read the same in every language: product and standard names. */
const ALLOWED_LITERALS = new Set([
  'StatusWatch',
  'Slack',
  'PagerDuty',
  'Microsoft Teams',
  'Discord',
  'OpenTelemetry',
  'OTLP',
  'HTTP',
  'DNS',
  'TLS',
  'SSL',
  'URL',
  'API',
  'ID',
  // examples in placeholders and names of standards: the same in every language
  'https://example.com/health',
  'example.com',
  'db.example.com',
  '$.status',
  '$.user.id',
  '$.token',
  'Content-Type',
  'Location',
  'token',
  'id="(\\d+)"',
  '{"email": "{{secrets.SHOP_USER}}"}',
  'eu-west',
  'p95',
  'Web Vitals',
  // single sign-on: names of the standards, and examples of what the identity provider gives
  'OpenID Connect',
  'SAML 2.0',
  'https://example.okta.com',
  '-----BEGIN CERTIFICATE-----',
  'statuswatch-admins = admin',
  // examples on the status page's settings (a domain, address ranges, a colour) and the time standard
  'status.example.com',
  '203.0.113.0/24\n2001:db8::/32',
  '#0a66c2',
  'UTC',
  // the example of a website address on the company's profile
  'https://example.com',
  // DMARC's tag names as the record spells them (domain checks)
  'p=',
  'sp=',
  'pct=',
  // latency percentiles on the metrics screen, as p95
  'p50',
  'p99',
  // the example of a personal webhook's address
  'https://example.com/hooks/me',
  // names of file formats
  'PDF',
  'CSV',
]);

const TEXT_ATTRIBUTES = new Set([
  'title',
  'aria-label',
  'aria-description',
  'aria-valuetext',
  'placeholder',
  'alt',
  'label',
  'hint',
  'text',
  'confirmLabel',
  'empty',
  'scrollLabel',
  'legend',
  'description',
  'footer',
  'caption',
  'subtitle',
  'heading',
]);
const TEXT_PROPERTIES = new Set(['label', 'title', 'text', 'hint', 'placeholder', 'message', 'empty']);
const SHOWING_CALLS = new Set(['showToast', 'confirm', 'alert', 'setError', 'setMessage', 'setAlert']);
const CATALOGUE_CALLS = new Set(['t', 'tr']);

const LETTER = /\p{L}/u;

function filesUnder(dir: string, ext: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && ext.test(e.name) && !/\.test\.tsx?$/.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
}

const relative = (file: string) => path.relative(ROOT, file).split(path.sep).join('/');
const skipped = (file: string) => NOT_YET_CONVERTED.some((dir) => relative(file).startsWith(`${dir}/`));

function calleeName(call: ts.CallExpression): string {
  const e = call.expression;
  if (ts.isIdentifier(e)) return e.text;
  if (ts.isPropertyAccessExpression(e)) return e.name.text;
  return '';
}

function isWords(text: string): boolean {
  const trimmed = text.trim();
  return LETTER.test(trimmed) && !ALLOWED_LITERALS.has(trimmed);
}

/** The literal texts with letters a value shows: literals, the branches of ?:, the right of ?? || &&. */
function shownTexts(e: ts.Expression | undefined): string[] {
  if (!e) return [];
  if (ts.isParenthesizedExpression(e)) return shownTexts(e.expression);
  if (ts.isStringLiteral(e) || ts.isNoSubstitutionTemplateLiteral(e)) return isWords(e.text) ? [e.text] : [];
  if (ts.isTemplateExpression(e)) {
    const pieces = [e.head.text, ...e.templateSpans.map((s) => s.literal.text)].join('…');
    return isWords(pieces.replace(/…/g, ' ')) ? [pieces] : [];
  }
  if (ts.isConditionalExpression(e)) return [...shownTexts(e.whenTrue), ...shownTexts(e.whenFalse)];
  if (ts.isBinaryExpression(e)) {
    const op = e.operatorToken.kind;
    if (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.AmpersandAmpersandToken)
      return shownTexts(e.right);
  }
  return [];
}

interface Finding {
  at: string;
  text: string;
}

function findingsOf(file: string): Finding[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const out: Finding[] = [];
  const add = (node: ts.Node, text: string) =>
    out.push({ at: `${relative(file)}:${source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1}`, text: text.trim() });
  const visit = (node: ts.Node): void => {
    if (ts.isCallExpression(node) && CATALOGUE_CALLS.has(calleeName(node))) return;
    if (ts.isJsxText(node) && isWords(node.text)) add(node, node.text);
    if (ts.isJsxAttribute(node) && TEXT_ATTRIBUTES.has(node.name.getText(source)) && node.initializer) {
      const init = node.initializer;
      if (ts.isStringLiteral(init)) {
        if (isWords(init.text)) add(node, init.text);
      } else if (ts.isJsxExpression(init)) for (const text of shownTexts(init.expression)) add(node, text);
    }
    if (ts.isJsxExpression(node) && node.parent && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent)))
      for (const text of shownTexts(node.expression)) add(node, text);
    if (ts.isPropertyAssignment(node) && TEXT_PROPERTIES.has(node.name.getText(source)))
      for (const text of shownTexts(node.initializer)) add(node, text);
    if (ts.isCallExpression(node) && SHOWING_CALLS.has(calleeName(node)))
      for (const arg of node.arguments) for (const text of shownTexts(arg)) add(node, text);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return out;
}

describe('console strings', () => {
  it('every folder named as not yet converted exists (a removed folder leaves the list)', () => {
    const dirs = new Set(filesUnder(ROOT, /\.tsx?$/).map((f) => path.posix.dirname(relative(f))));
    expect(NOT_YET_CONVERTED.filter((d) => ![...dirs].some((x) => x === d || x.startsWith(`${d}/`)))).toEqual([]);
  });

  it('shows no text outside the catalogue in the converted folders', () => {
    const found = filesUnder(ROOT, /\.tsx$/)
      .filter((f) => !skipped(f))
      .flatMap(findingsOf)
      .map((f) => `${f.at}: ${f.text}`);
    expect(found).toEqual([]);
  });

  it('finds what it looks for (the guard itself)', () => {
    const probe = path.join(import.meta.dirname, 'console-strings.fixture.tsx');
    expect(findingsOf(probe).map((f) => f.text)).toEqual([
      'Name',
      'Deleted.',
      'Delete it?',
      'Saved',
      'Close dialog',
      'Search monitors',
      'Expand',
      'Collapse',
      'Saving…',
      'Save',
      'Nothing here',
    ]);
  });
});

describe('console catalogue keys', () => {
  it("every t('…') key the console uses is in the English catalogue", () => {
    const english = CONSOLE_AREA.messages.en;
    const missing: string[] = [];
    for (const file of filesUnder(ROOT, /\.tsx?$/)) {
      const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
      const visit = (node: ts.Node): void => {
        if (ts.isCallExpression(node) && CATALOGUE_CALLS.has(calleeName(node))) {
          const first = node.arguments[0];
          if (first && ts.isStringLiteralLike(first) && english[first.text] === undefined) missing.push(`${relative(file)}: ${first.text}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
    expect(missing).toEqual([]);
  });
});
