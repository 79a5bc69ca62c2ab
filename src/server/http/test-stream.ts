// POST /api/v1/monitors/test?stream=true: the check's progress as newline-delimited JSON
// (application/x-ndjson), so the console's Run now shows each step of a journey as it ends. Its
// refusals (validation, permission, rate limit) are problems before the first line, as without
// `stream`; then a `step` line per step as it is known, and one `result` line (the same
// MonitorTestResult as unstreamed), or an `error` line with a problem if the run itself failed.
import { PassThrough } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TestRun } from '../domain/monitors/test-now.ts';
import { errorToProblem } from './problem.ts';

export function streamTest(run: TestRun, req: FastifyRequest, reply: FastifyReply): PassThrough {
  const out = new PassThrough();
  // A visitor who leaves mid-run closes the stream; the run ends by its own time-out.
  out.on('error', () => {});
  const line = (v: unknown) => {
    if (!out.destroyed && !out.writableEnded) out.write(`${JSON.stringify(v)}\n`);
  };
  void run((step) => line({ type: 'step', step })).then(
    (result) => {
      line({ type: 'result', result });
      out.end();
    },
    (e: unknown) => {
      line({ type: 'error', problem: errorToProblem(e instanceof Error ? e : new Error(String(e)), req) });
      out.end();
    },
  );
  // No proxy or compression may hold the lines back.
  reply.type('application/x-ndjson').header('cache-control', 'no-store').header('x-accel-buffering', 'no');
  return out;
}
