// A probe result's id as this project's probes make it: `p1:<stream>:<seq>`. A stream is one run
// of one probe process (16 random bytes, base64url), and `seq` numbers its results from 1 in the
// order the probe appends them to its buffer, which is the order it delivers them (the buffer's
// segments oldest first). The platform then keeps per stream only the highest number it took:
// a batch sent again (its answer lost) holds numbers not above it, so it is recognised as taken
// without keeping every id. Any other id (at most 64 letters, digits and `._:-`) is kept whole
// for 7 days, as before.

/** The stream form: the stream and a number of at most 15 digits (a safe integer) */
const STREAM_FORM = /^p1:([A-Za-z0-9_-]{16,43}):([1-9][0-9]{0,14})$/;

export function streamResultId(stream: string, seq: number): string {
  return `p1:${stream}:${seq}`;
}

/** The stream and number of an id of the stream form; null for any other id. */
export function parseStreamResultId(id: string): { stream: string; seq: number } | null {
  const m = STREAM_FORM.exec(id);
  return m ? { stream: m[1], seq: Number(m[2]) } : null;
}

/** Each stream's highest number among these results: the marks a batch moves its streams to. */
export function streamMarks(of: ReadonlyArray<{ stream: string; seq: number }>): Map<string, number> {
  const marks = new Map<string, number>();
  for (const x of of) marks.set(x.stream, Math.max(marks.get(x.stream) ?? 0, x.seq));
  return marks;
}
