// LLM_* settings: all three or none (none: the feature is off), each refused with a line naming it.
import { describe, expect, it } from 'vitest';
import { ConfigError } from './env-values.ts';
import { llmConfig } from './llm-config.ts';

describe('llmConfig', () => {
  it('is off without the three settings and on with them, with the defaults', () => {
    expect(llmConfig({})).toBeNull();
    expect(llmConfig({ LLM_BASE_URL: 'http://127.0.0.1:11434/v1/', LLM_API_KEY: 'ollama', LLM_MODEL: 'llama3.2' })).toEqual({
      baseUrl: 'http://127.0.0.1:11434/v1',
      apiKey: 'ollama',
      model: 'llama3.2',
      monthlyTokens: 200_000,
      maxTokens: 600,
      timeoutMs: 60_000,
    });
  });

  it('refuses a partial or malformed configuration, naming the variable', () => {
    const base = { LLM_BASE_URL: 'https://api.openai.com/v1', LLM_API_KEY: 'sk-abc', LLM_MODEL: 'gpt-4o-mini' };
    const refusal = (env: Record<string, string>) => {
      try {
        llmConfig(env);
        return 'accepted';
      } catch (e) {
        return e instanceof ConfigError ? e.message : String(e);
      }
    };
    expect(refusal({ LLM_MODEL: 'gpt-4o-mini' })).toMatch(/^Invalid LLM_BASE_URL=""/);
    expect(refusal({ ...base, LLM_BASE_URL: 'https://user:pw@api.example.com/v1' })).toMatch(/^Invalid LLM_BASE_URL=/);
    expect(refusal({ ...base, LLM_API_KEY: '' })).toBe('Invalid LLM_API_KEY="***": expected the endpoint’s API key (printable, no spaces)');
    expect(refusal({ ...base, LLM_MODEL: '' })).toMatch(/^Invalid LLM_MODEL=""/);
    expect(refusal({ ...base, LLM_MONTHLY_TOKENS: 'lots' })).toMatch(/^Invalid LLM_MONTHLY_TOKENS="lots"/);
    expect(refusal(base)).toBe('accepted');
  });
});
