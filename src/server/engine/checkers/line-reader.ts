// Lines from a text protocol's server (Redis, SMTP, IMAP, POP3), bounded: a line longer than
// `maxLine` bytes, or more than `maxBytes` in all, ends the read with our sentence, so a server
// sending a huge or never-ending line costs a bounded buffer, not the process's memory.
import type { Duplex } from 'node:stream';

export const LINE_TOO_LONG = 'The server sent a line longer than 8 KB';
export const TOO_MUCH_TEXT = 'The server sent more than 1 MB: the check stopped reading';
export const CLOSED = 'Connection closed by the server';

export class ProtocolError extends Error {}

export class LineReader {
  private buf: Buffer = Buffer.alloc(0);
  private readonly socket: Duplex;
  private readonly maxLine: number;
  private readonly maxBytes: number;
  private seen = 0;
  private failure: Error | null = null;
  private waiting: { resolve(line: string): void; reject(e: Error): void } | null = null;
  private readonly onData = (chunk: Buffer) => this.take(chunk);
  private readonly onEnd = () => this.fail(new ProtocolError(CLOSED));
  private readonly onError = (e: Error) => this.fail(e);

  constructor(socket: Duplex, maxLine = 8 * 1024, maxBytes = 1024 * 1024) {
    this.socket = socket;
    this.maxLine = maxLine;
    this.maxBytes = maxBytes;
    socket.on('data', this.onData);
    socket.on('end', this.onEnd);
    socket.on('close', this.onEnd);
    socket.on('error', this.onError);
  }

  /** The next line, without its CRLF (or LF). */
  next(): Promise<string> {
    const line = this.shift();
    if (line !== null) return Promise.resolve(line);
    if (this.failure) return Promise.reject(this.failure);
    return new Promise((resolve, reject) => {
      this.waiting = { resolve, reject };
    });
  }

  /** Bytes received and not yet read as lines (STARTTLS: must be none, or they were injected). */
  get pending(): number {
    return this.buf.length;
  }

  /** Stops reading the socket (before it is upgraded to TLS). */
  detach(): void {
    this.socket.off('data', this.onData);
    this.socket.off('end', this.onEnd);
    this.socket.off('close', this.onEnd);
    this.socket.off('error', this.onError);
  }

  private take(chunk: Buffer): void {
    this.seen += chunk.length;
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    if (this.seen > this.maxBytes) {
      this.fail(new ProtocolError(TOO_MUCH_TEXT));
      return;
    }
    if (this.waiting) {
      const line = this.shift();
      if (line !== null) {
        const w = this.waiting;
        this.waiting = null;
        w.resolve(line);
      }
    }
    if (this.buf.length > this.maxLine && this.buf.indexOf(0x0a) < 0) this.fail(new ProtocolError(LINE_TOO_LONG));
  }

  private shift(): string | null {
    const end = this.buf.indexOf(0x0a);
    if (end < 0) return null;
    if (end > this.maxLine) {
      this.fail(new ProtocolError(LINE_TOO_LONG));
      return null;
    }
    const line = this.buf.subarray(0, end).toString('latin1').replace(/\r$/, '');
    this.buf = this.buf.subarray(end + 1);
    return line;
  }

  private fail(e: Error): void {
    if (this.failure) return;
    this.failure = e;
    this.socket.destroy();
    const w = this.waiting;
    this.waiting = null;
    w?.reject(e);
  }
}

/** A line of the server as the tenant may read it: printable, capped. */
export function shownLine(line: string): string {
  const clean = line.replace(/[^\x20-\x7e]+/g, ' ').trim();
  return clean.length > 80 ? `${clean.slice(0, 79)}…` : clean;
}
