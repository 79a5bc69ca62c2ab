// The fonts the SLA PDF draws with, shipped with the product as npm packages (@fontsource):
// Noto Sans (Latin, Greek, Cyrillic, Vietnamese), Noto Sans Hebrew, Noto Sans Arabic and Noto
// Emoji (monochrome outlines: a PDF cannot hold colour emoji bitmaps that pdfkit could draw).
// Each package splits its font into files by unicode-range, as its CSS says; a character is
// drawn with the first face, in the order below, whose ranges hold it. The standard PDF fonts
// they replace speak Windows-1252 only, which printed names in other scripts as "????".
import { create, type Font } from 'fontkit';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

// Package and the CSS of a weight; Noto Emoji's numbered subsets split sequences apart, so its
// whole font (emoji-400.css, no unicode-range) is used.
const PACKAGES: Array<[string, (w: Weight) => string]> = [
  ['@fontsource/noto-sans', (w) => `${w}.css`],
  ['@fontsource/noto-sans-hebrew', (w) => `${w}.css`],
  ['@fontsource/noto-sans-arabic', (w) => `${w}.css`],
  ['@fontsource/noto-emoji', (w) => `emoji-${w}.css`],
];

export type Weight = 400 | 700;

export interface Face {
  /** the name the face is registered under in a document, e.g. "noto-sans-hebrew-400-2" */
  name: string;
  file: string;
  ranges: Array<[number, number]>;
}

const require = createRequire(import.meta.url);

/** `U+0-ff,U+131,U+2000-206f` → [[0, 255], [305, 305], [8192, 8303]] */
export function parseUnicodeRange(text: string): Array<[number, number]> {
  return text
    .split(',')
    .map((part) => part.trim().replace(/^U\+/i, ''))
    .filter(Boolean)
    .map((part) => {
      const [a, b] = part.split('-');
      return [Number.parseInt(a, 16), Number.parseInt(b ?? a, 16)] as [number, number];
    });
}

function facesOfPackage(pkg: string, cssFile: string): Face[] {
  const dir = path.dirname(require.resolve(`${pkg}/package.json`));
  const css = readFileSync(path.join(dir, cssFile), 'utf8');
  const faces: Face[] = [];
  for (const block of css.split('@font-face').slice(1)) {
    // The .woff of each face: fontkit reads it as well as .woff2, with zlib instead of brotli.
    const file = /url\(\.\/files\/([^)]+\.woff)\)/.exec(block)?.[1];
    const range = /unicode-range:\s*([^;]+);/.exec(block)?.[1] ?? 'U+0-10ffff';
    if (!file) continue;
    faces.push({ name: file.replace(/\.woff$/, ''), file: path.join(dir, 'files', file), ranges: parseUnicodeRange(range) });
  }
  return faces;
}

const facesByWeight = new Map<Weight, Face[]>();

/** Every face of one weight, in the order characters look for theirs. */
export function pdfFaces(weight: Weight): Face[] {
  let faces = facesByWeight.get(weight);
  if (!faces) {
    faces = PACKAGES.flatMap(([pkg, css]) => facesOfPackage(pkg, css(weight)));
    facesByWeight.set(weight, faces);
  }
  return faces;
}

const parsed = new Map<string, Font>();
function hasGlyph(face: Face, codePoint: number): boolean {
  let font = parsed.get(face.file);
  if (!font) {
    font = create(faceBytes(face)) as Font;
    parsed.set(face.file, font);
  }
  return font.hasGlyphForCodePoint(codePoint);
}

/** The face that draws a code point, or null when none of the shipped fonts holds it. A range
 *  is what the CSS promises; the glyph is checked too (the ranges overlap and over-promise). */
export function faceFor(faces: Face[], codePoint: number): Face | null {
  for (const f of faces) for (const [a, b] of f.ranges) if (codePoint >= a && codePoint <= b && hasGlyph(f, codePoint)) return f;
  return null;
}

const fontBytes = new Map<string, Buffer>();

/** A face's bytes, read once per process (a report embeds only the glyphs it uses). */
export function faceBytes(face: Face): Buffer {
  let bytes = fontBytes.get(face.file);
  if (!bytes) {
    bytes = readFileSync(face.file);
    fontBytes.set(face.file, bytes);
  }
  return bytes;
}
