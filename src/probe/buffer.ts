// The probe's results on disk until the platform has acknowledged them. Every batch is appended
// to the open segment (one JSON line, fsync'd before append() returns), segments are sealed and
// delivered oldest first, and a segment is deleted only once the platform took all of it: a
// crash at any point loses nothing appended, and at worst sends a segment again (result ids make
// that harmless). A torn last line (a crash mid-append) is skipped when read. The buffer keeps
// within `maxBytes`: past it the oldest sealed segments are dropped, and counted.
//
// Files: `<seq>.open` is being appended to; `<seq>-<count>.seg` is sealed with `count` results.
// After a restart the leftover `.open` file is sealed (never appended to again), so a torn line
// can only ever be the last of its file.
import { closeSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, renameSync, statSync, unlinkSync, writeSync } from 'node:fs';
import path from 'node:path';
import type { WireResult } from './wire.ts';

/** A segment is sealed past this size (or sooner, when the sender wants to deliver it). */
const SEGMENT_MAX_BYTES = 1024 * 1024;

export interface Segment {
  seq: number;
  count: number;
  file: string;
  bytes: number;
}

const SEALED = /^(\d{12})-(\d+)\.seg$/;
const OPEN = /^(\d{12})\.open$/;
const seqName = (n: number) => String(n).padStart(12, '0');

function readLines(file: string): WireResult[] {
  const out: WireResult[] = [];
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    try {
      out.push(...(JSON.parse(line) as WireResult[]));
    } catch {
      // a torn line (the process died while appending it): never acknowledged to anyone
    }
  }
  return out;
}

export class DiskBuffer {
  private sealed: Segment[] = [];
  private open: { seq: number; fd: number; count: number; bytes: number } | null = null;
  private nextSeq = 1;
  /** Results dropped because the buffer was full, since the process started */
  dropped = 0;

  private readonly dir: string;
  private readonly maxBytes: number;
  private readonly log: (line: string) => void;

  constructor(dir: string, maxBytes: number, log: (line: string) => void) {
    this.dir = dir;
    this.maxBytes = maxBytes;
    this.log = log;
    mkdirSync(dir, { recursive: true });
    const names = readdirSync(dir).sort();
    for (const name of names) {
      const open = OPEN.exec(name);
      if (open) {
        // left by a previous run: sealed as it is (its torn last line, if any, is skipped on reading)
        const file = path.join(dir, name);
        const count = readLines(file).length;
        const sealedName = `${open[1]}-${count}.seg`;
        renameSync(file, path.join(dir, sealedName));
      }
    }
    for (const name of readdirSync(dir).sort()) {
      const m = SEALED.exec(name);
      if (!m) continue;
      const file = path.join(dir, name);
      this.sealed.push({ seq: Number(m[1]), count: Number(m[2]), file, bytes: statSync(file).size });
      this.nextSeq = Math.max(this.nextSeq, Number(m[1]) + 1);
    }
  }

  /** Results waiting on disk (sealed and open) */
  get pending(): number {
    return this.sealed.reduce((n, s) => n + s.count, 0) + (this.open?.count ?? 0);
  }

  get bytes(): number {
    return this.sealed.reduce((n, s) => n + s.bytes, 0) + (this.open?.bytes ?? 0);
  }

  /** Appends a batch durably (written and fsync'd when this returns). */
  append(results: WireResult[]): void {
    if (results.length === 0) return;
    if (!this.open) {
      const seq = this.nextSeq++;
      this.open = { seq, fd: openSync(path.join(this.dir, `${seqName(seq)}.open`), 'a'), count: 0, bytes: 0 };
    }
    const line = Buffer.from(`${JSON.stringify(results)}\n`);
    writeSync(this.open.fd, line);
    fsyncSync(this.open.fd);
    this.open.count += results.length;
    this.open.bytes += line.length;
    if (this.open.bytes >= Math.min(SEGMENT_MAX_BYTES, this.maxBytes / 4)) this.seal();
    this.keepWithinBound();
  }

  /** Closes the open segment so it can be delivered. */
  seal(): void {
    const o = this.open;
    if (!o) return;
    this.open = null;
    closeSync(o.fd);
    const from = path.join(this.dir, `${seqName(o.seq)}.open`);
    const file = path.join(this.dir, `${seqName(o.seq)}-${o.count}.seg`);
    renameSync(from, file);
    this.sealed.push({ seq: o.seq, count: o.count, file, bytes: o.bytes });
  }

  /** The oldest sealed segment, if any. */
  oldest(): Segment | undefined {
    return this.sealed[0];
  }

  read(seg: Segment): WireResult[] {
    return readLines(seg.file);
  }

  /** The platform acknowledged the whole segment. */
  remove(seg: Segment): void {
    this.sealed = this.sealed.filter((s) => s !== seg);
    try {
      unlinkSync(seg.file);
    } catch {
      // gone already (dropped as the oldest while it was being delivered)
    }
  }

  /** Closes the open segment's file (at exit); what it holds is delivered after the next start. */
  close(): void {
    if (this.open) closeSync(this.open.fd);
    this.open = null;
  }

  private keepWithinBound(): void {
    let dropped = 0;
    while (this.bytes > this.maxBytes) {
      if (this.sealed.length === 0) this.seal();
      const seg = this.sealed.shift();
      if (!seg) break;
      dropped += seg.count;
      unlinkSync(seg.file);
    }
    if (dropped > 0) {
      this.dropped += dropped;
      this.log(
        `buffer full (${Math.round(this.maxBytes / 1048576)} MB): dropped the ${dropped} oldest results (${this.dropped} since start)`,
      );
    }
  }
}
