// A line of text as the PDF draws it: split into runs that one font face draws in one
// direction, in visual order (left to right on the page), by the Unicode Bidirectional
// Algorithm (bidi-js). A right-to-left run keeps its logical order: fontkit, which pdfkit lays
// text out with, shapes Arabic joining forms from logical order and reverses right-to-left
// scripts itself. Characters no shipped font holds become "?" rather than an empty box.
import bidiFactory, { type Bidi } from 'bidi-js';
import { faceFor, type Face } from './pdf-fonts.ts';

export interface TextRun {
  text: string;
  face: Face;
  rtl: boolean;
}

export interface LaidLine {
  runs: TextRun[];
  /** the paragraph's own direction: right-to-left text is aligned to the right of its box */
  rtl: boolean;
}

// The package is CommonJS whose types say ESM: Node's default import is the factory itself.
const bidi = (bidiFactory as unknown as () => Bidi)();

// Joiners, variation selectors and skin-tone modifiers belong to the character before them
// (an emoji sequence stays in one face, so its ligature can be found).
const CLINGS = (cp: number) => cp === 0x200d || (cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0x1f3fb && cp <= 0x1f3ff);
const isRtlFace = (f: Face) => /hebrew|arabic/.test(f.name);

export function layoutLine(text: string, faces: Face[]): LaidLine {
  const fallback = faceFor(faces, 0x3f) ?? faces[0]; // the face that holds "?"
  // Most cells are ASCII (figures, English names): one left-to-right run, no bidi pass.
  if (/^[\x20-\x7e]*$/.test(text)) return { runs: [{ text, face: fallback, rtl: false }], rtl: false };
  const chars = Array.from(text);
  // Code units → characters, since bidi-js levels are per UTF-16 unit.
  const unitIndex: number[] = [];
  let at = 0;
  for (const c of chars) {
    unitIndex.push(at);
    at += c.length;
  }
  const { levels, paragraphs } = bidi.getEmbeddingLevels(text);
  const cells: Array<{ ch: string; face: Face; level: number }> = [];
  let prev: Face = fallback;
  for (let i = 0; i < chars.length; i++) {
    const cp = chars[i].codePointAt(0) ?? 0;
    const face = CLINGS(cp) ? prev : faceFor(faces, cp);
    const level = levels[unitIndex[i]] ?? 0;
    if (face) cells.push({ ch: chars[i], face, level });
    else cells.push({ ch: '?', face: fallback, level });
    prev = face ?? fallback;
  }
  // Logical runs of one face and one level.
  const logical: Array<{ text: string; face: Face; level: number }> = [];
  for (const c of cells) {
    const last = logical[logical.length - 1];
    if (last && last.face === c.face && last.level === c.level) last.text += c.ch;
    else logical.push({ text: c.ch, face: c.face, level: c.level });
  }
  // Visual order (rule L2): from the highest level down to the lowest odd one, reverse every
  // stretch of runs at that level or above.
  const order = logical.map((_, i) => i);
  const max = Math.max(0, ...logical.map((r) => r.level));
  const minOdd = Math.min(...logical.map((r) => r.level).filter((l) => l % 2 === 1), max + 1);
  for (let level = max; level >= minOdd && level > 0; level--) {
    for (let i = 0; i < order.length; ) {
      if (logical[order[i]].level < level) {
        i++;
        continue;
      }
      let j = i;
      while (j < order.length && logical[order[j]].level >= level) j++;
      order.splice(i, j - i, ...order.slice(i, j).reverse());
      i = j;
    }
  }
  const runs = order.map((i) => {
    const r = logical[i];
    const rtl = r.level % 2 === 1;
    // fontkit reverses only right-to-left scripts; neutral characters (spaces, punctuation)
    // resolved right-to-left in another face are put in visual order here, brackets mirrored.
    const text = rtl && !isRtlFace(r.face) ? Array.from(r.text).reverse().map(mirror).join('') : r.text;
    return { text, face: r.face, rtl };
  });
  return { runs, rtl: (paragraphs[0]?.level ?? 0) % 2 === 1 };
}

function mirror(ch: string): string {
  return bidi.getMirroredCharacter(ch) ?? ch;
}
