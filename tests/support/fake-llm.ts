// A loopback OpenAI-compatible chat completions endpoint for the incident summary tests. It checks
// each request the way the API documents it (POST {base}/chat/completions, Bearer key, JSON with
// `model`, `messages` and `max_tokens`) and answers `choices[0].message.content` with `usage`; a
// request it refuses is answered 400 and listed in `refused`. The test queues special answers.
import http from 'node:http';

export interface FakeLlmRequest {
  method: string;
  path: string;
  authorization: string;
  body: { model?: unknown; messages?: Array<{ role: string; content: string }>; max_tokens?: unknown };
  /** Every message's content, joined: what a test searches for what was (or was not) sent */
  text: string;
}

export interface FakeLlm {
  baseUrl: string;
  requests: FakeLlmRequest[];
  refused: string[];
  /** The next answers, in order (default: a summary with usage 700 = 500 + 200) */
  next: Array<{ status: number; body: unknown; headers?: Record<string, string> }>;
  close(): Promise<void>;
}

export const FAKE_ANSWER =
  'Summary: TLS handshakes to the checkout API slowed 18x after its certificate was replaced.\nNext steps:\n- Check the new certificate chain';

export async function startFakeLlm(expect: { apiKey: string; model: string; pathPrefix?: string }): Promise<FakeLlm> {
  const prefix = expect.pathPrefix ?? '/v1';
  const fake: Omit<FakeLlm, 'baseUrl' | 'close'> = { requests: [], refused: [], next: [] };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const refuse = (why: string) => {
        fake.refused.push(why);
        res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: why } }));
      };
      let body: FakeLlmRequest['body'];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        return refuse('body is not JSON');
      }
      const messages = Array.isArray(body.messages) ? body.messages : [];
      fake.requests.push({
        method: req.method ?? '',
        path: req.url ?? '',
        authorization: String(req.headers.authorization ?? ''),
        body,
        text: messages.map((m) => m.content).join('\n'),
      });
      if (req.method !== 'POST') return refuse(`method ${req.method}`);
      if (req.url !== `${prefix}/chat/completions`) return refuse(`path ${req.url}`);
      if (req.headers.authorization !== `Bearer ${expect.apiKey}`) return refuse('bad bearer key');
      if (!String(req.headers['content-type']).startsWith('application/json')) return refuse('not JSON');
      if (body.model !== expect.model) return refuse(`model ${String(body.model)}`);
      if (typeof body.max_tokens !== 'number' || body.max_tokens < 1) return refuse('max_tokens missing');
      if (!messages.length || messages.some((m) => !['system', 'user', 'assistant'].includes(m.role) || typeof m.content !== 'string'))
        return refuse('messages malformed');
      const queued = fake.next.shift();
      if (queued) {
        res.writeHead(queued.status, { 'content-type': 'application/json', ...queued.headers }).end(JSON.stringify(queued.body));
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'chatcmpl-test',
          object: 'chat.completion',
          model: expect.model,
          choices: [{ index: 0, message: { role: 'assistant', content: FAKE_ANSWER }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 500, completion_tokens: 200, total_tokens: 700 },
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    ...fake,
    baseUrl: `http://127.0.0.1:${port}${prefix}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  } as FakeLlm;
}
