// Reads a streamed test (POST /api/v1/monitors/test?stream=true, application/x-ndjson): each
// `step` line goes to `onStep` as it arrives, so Run now shows a journey's steps while it runs;
// the `result` line is the answer; an `error` line, or a stream that ends without a result, is a
// failure with the problem's words.
import type { components } from '../../../../../api/schema.d.ts';

import { t } from '../../../i18n.ts';

type Line = components['schemas']['TestRunLine'];
export type StepResult = components['schemas']['StepResult'];
type Result = components['schemas']['MonitorTestResult'];

export class TestStreamError extends Error {}

export async function readTestLines(body: ReadableStream<Uint8Array>, onStep: (step: StepResult) => void): Promise<Result> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  let result: Result | null = null;
  const take = (text: string) => {
    if (!text.trim()) return;
    const line = JSON.parse(text) as Line;
    if (line.type === 'step') onStep(line.step);
    else if (line.type === 'result') result = line.result;
    else throw new TestStreamError(String((line.problem as { detail?: unknown }).detail ?? t('monitors.form.testFailed')));
  };
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    let nl = buffered.indexOf('\n');
    while (nl >= 0) {
      take(buffered.slice(0, nl));
      buffered = buffered.slice(nl + 1);
      nl = buffered.indexOf('\n');
    }
  }
  take(buffered + decoder.decode());
  if (!result) throw new TestStreamError(t('monitors.test.noResult'));
  return result;
}
