import { describe, expect, it } from 'vitest';
import { readTestLines, TestStreamError, type StepResult } from './test-lines.ts';

/** A body that arrives in these chunks (split anywhere, even inside a line or a character). */
const body = (...chunks: string[]) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const x of chunks) c.enqueue(new TextEncoder().encode(x));
      c.close();
    },
  });
const step = (index: number, status: StepResult['status']): StepResult => ({
  index,
  name: `Step ${index}`,
  status,
  duration_ms: 1,
  error: null,
  screenshot_id: null,
});
const result = { status: 'operational', response_time_ms: 2, status_code: 200, error: null, timings: { total: 2 }, cert_expires_at: null };

describe('readTestLines', () => {
  it('tells each step as its line arrives and answers the result, whatever the chunking', async () => {
    const text = `${JSON.stringify({ type: 'step', step: step(1, 'passed') })}\n${JSON.stringify({ type: 'step', step: { ...step(2, 'passed'), name: 'Café ✓' } })}\n${JSON.stringify({ type: 'result', result })}\n`;
    const bytes = new TextEncoder().encode(text);
    // split inside the multi-byte "é" and inside a line
    const cut = text.indexOf('Café') + 4;
    const seen: string[] = [];
    const r = await readTestLines(
      new ReadableStream<Uint8Array>({
        start(c) {
          c.enqueue(bytes.slice(0, 10));
          c.enqueue(bytes.slice(10, cut));
          c.enqueue(bytes.slice(cut));
          c.close();
        },
      }),
      (s) => seen.push(`${s.index} ${s.name}`),
    );
    expect(seen).toEqual(['1 Step 1', '2 Café ✓']);
    expect(r).toEqual(result);
  });

  it("names the run's failure from an error line, and a stream without a result", async () => {
    const error = JSON.stringify({ type: 'error', problem: { status: 500, detail: 'The check could not be completed' } });
    await expect(readTestLines(body(`${error}\n`), () => {})).rejects.toThrow(new TestStreamError('The check could not be completed'));
    await expect(readTestLines(body(`${JSON.stringify({ type: 'step', step: step(1, 'passed') })}\n`), () => {})).rejects.toThrow(
      'The test ended without a result.',
    );
  });
});
