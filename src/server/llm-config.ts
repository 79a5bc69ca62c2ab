// The optional language model (issue 33, item 3): an OpenAI-compatible chat completions endpoint
// the operator configures. All three of LLM_BASE_URL, LLM_API_KEY and LLM_MODEL, or none: unset,
// the feature is off and nothing else changes. The endpoint is the operator's, trusted like the
// rest of the configuration (it may be a model served on this machine or the private network).
import { fail, int, type Env } from './env-values.ts';

export interface LlmConfig {
  /** Base URL, without a trailing slash; requests go to {baseUrl}/chat/completions */
  baseUrl: string;
  apiKey: string;
  model: string;
  /** A company's tokens a calendar month unless it set fewer (LLM_MONTHLY_TOKENS) */
  monthlyTokens: number;
  /** The answer's length cap sent as max_tokens (LLM_MAX_TOKENS) */
  maxTokens: number;
  /** How long one call may take (LLM_TIMEOUT_SECONDS) */
  timeoutMs: number;
}

export function llmConfig(env: Env): LlmConfig | null {
  const baseUrl = env.LLM_BASE_URL?.trim() || '';
  const apiKey = env.LLM_API_KEY?.trim() || '';
  const model = env.LLM_MODEL?.trim() || '';
  if (!baseUrl && !apiKey && !model) return null;
  let url: URL | undefined;
  try {
    url = new URL(baseUrl);
  } catch {
    // reported below
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password || url.search || url.hash)
    fail('LLM_BASE_URL', 'an http(s) URL such as https://api.openai.com/v1 (with LLM_API_KEY and LLM_MODEL)', baseUrl);
  if (!/^[\x21-\x7e]{1,500}$/.test(apiKey)) fail('LLM_API_KEY', 'the endpoint’s API key (printable, no spaces)', '***');
  if (!/^[\x21-\x7e]{1,200}$/.test(model)) fail('LLM_MODEL', 'the model’s name such as gpt-4o-mini', model);
  return {
    baseUrl: url.href.replace(/\/+$/, ''),
    apiKey,
    model,
    monthlyTokens: int(env, 'LLM_MONTHLY_TOKENS', 200_000, 0, 1_000_000_000),
    maxTokens: int(env, 'LLM_MAX_TOKENS', 600, 50, 8000),
    timeoutMs: int(env, 'LLM_TIMEOUT_SECONDS', 60, 5, 600) * 1000,
  };
}
