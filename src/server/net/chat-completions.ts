// One call to an OpenAI-compatible chat completions endpoint (POST {base}/chat/completions with a
// bearer key), the operator's language model. Through the platform's network layer: the host is
// resolved once and the connection pinned to that address (pinned-fetch.ts), the answer is read up
// to a cap, the whole call is bounded by a deadline, and failures are sentences we write (never
// the endpoint's own text, which may echo the request).
import { networkErrorText } from './error-text.ts';
import { pinnedFetch } from './pinned-fetch.ts';
import { resolveSafe, TargetRefused, type Resolver } from './ssrf.ts';

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

export interface ChatEndpoint {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
}

export interface ChatAnswer {
  content: string;
  usage: { prompt_tokens: number; completion_tokens: number; total_tokens: number };
}

/** Why a call gave no answer; `status` is the endpoint's HTTP status when it answered one. */
export class ChatCallFailed extends Error {
  readonly status: number | null;
  readonly retryAfterSeconds: number | null;
  constructor(message: string, status: number | null = null, retryAfterSeconds: number | null = null) {
    super(message);
    this.status = status;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

const count = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? Math.round(v) : null);

export async function chatCompletion(
  endpoint: ChatEndpoint,
  messages: ChatMessage[],
  maxTokens: number,
  resolve: Resolver,
): Promise<ChatAnswer> {
  const url = new URL(`${endpoint.baseUrl}/chat/completions`);
  const signal = AbortSignal.timeout(endpoint.timeoutMs);
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  let res: Response;
  try {
    // The operator's endpoint may be on this machine or the private network (a self-hosted model);
    // cloud metadata addresses stay refused.
    const { address } = await resolveSafe(host, true, resolve, signal);
    res = await pinnedFetch(url, address, {
      method: 'POST',
      headers: { authorization: `Bearer ${endpoint.apiKey}`, 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ model: endpoint.model, messages, max_tokens: maxTokens, temperature: 0.2 }),
      signal,
    });
  } catch (e) {
    if (signal.aborted) throw new ChatCallFailed(`The language model did not answer within ${endpoint.timeoutMs / 1000} s.`);
    if (e instanceof TargetRefused) throw new ChatCallFailed('The language model endpoint is not allowed (cloud metadata address).');
    if (e instanceof Error && /larger than/.test(e.message)) throw new ChatCallFailed('The language model answered more than 1 MB.');
    throw new ChatCallFailed(`The language model endpoint could not be reached: ${networkErrorText(e)}.`);
  }
  if (res.status === 429) {
    const retry = Number(res.headers.get('retry-after'));
    throw new ChatCallFailed(
      'The language model endpoint is rate limiting requests; try again later.',
      429,
      Number.isFinite(retry) && retry > 0 ? retry : null,
    );
  }
  if (res.status === 401 || res.status === 403)
    throw new ChatCallFailed(
      `The language model endpoint refused the API key (HTTP ${res.status}); the operator should check LLM_API_KEY.`,
      res.status,
    );
  if (res.status < 200 || res.status > 299)
    throw new ChatCallFailed(`The language model endpoint answered HTTP ${res.status}.`, res.status);
  let body: { choices?: Array<{ message?: { content?: unknown } }>; usage?: Record<string, unknown> };
  try {
    body = (await res.json()) as typeof body;
  } catch {
    throw new ChatCallFailed('The language model endpoint did not answer JSON.', res.status);
  }
  const content = body?.choices?.[0]?.message?.content;
  if (typeof content !== 'string' || !content.trim()) throw new ChatCallFailed('The language model answered no text.', res.status);
  const prompt = count(body.usage?.prompt_tokens);
  const completion = count(body.usage?.completion_tokens);
  const total = count(body.usage?.total_tokens) ?? (prompt ?? 0) + (completion ?? 0);
  return { content: content.trim(), usage: { prompt_tokens: prompt ?? 0, completion_tokens: completion ?? 0, total_tokens: total } };
}
