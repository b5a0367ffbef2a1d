/**
 * Provider/model configuration: precedence (flag > env > settings > default), aliases, clear
 * start-up errors, and `createModelClient` talking to both fakes through the real SDKs.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ModelStreamEvent } from '../core/model-client.js';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../testing/fake-anthropic-server.js';
import { reply } from '../testing/fake-model-script.js';
import { type FakeOpenAIServer, startFakeOpenAIServer } from '../testing/fake-openai-server.js';
import { ModelConfigError, redactedModelConfig, resolveModelConfig } from './config.js';
import { createModelClient } from './create-model-client.js';

const ANTHROPIC_ENV = { ANTHROPIC_API_KEY: 'sk-a' };

describe('resolveModelConfig', () => {
  it('defaults to the anthropic provider and the opus alias', () => {
    const c = resolveModelConfig({ env: ANTHROPIC_ENV });
    expect(c).toMatchObject({
      provider: 'anthropic',
      providerSource: 'default',
      model: 'claude-opus-5-5',
      requestedModel: 'opus',
      modelSource: 'default',
      apiKey: 'sk-a',
      credentialSource: 'ANTHROPIC_API_KEY',
      promptCaching: true,
    });
  });

  it.each([
    {
      why: 'the flag beats env and settings',
      input: {
        flags: { model: 'haiku' },
        env: { ...ANTHROPIC_ENV, ANTHROPIC_MODEL: 'sonnet' },
        settings: { model: 'opus' },
      },
      model: 'claude-haiku-5-5',
      source: 'flag',
    },
    {
      why: 'ANTHROPIC_MODEL beats settings',
      input: { env: { ...ANTHROPIC_ENV, ANTHROPIC_MODEL: 'sonnet' }, settings: { model: 'opus' } },
      model: 'claude-sonnet-5-5',
      source: 'env',
    },
    {
      why: 'GANTRY_MODEL beats the provider-specific variable',
      input: { env: { ...ANTHROPIC_ENV, GANTRY_MODEL: 'claude-sonnet-4-5', ANTHROPIC_MODEL: 'haiku' } },
      model: 'claude-sonnet-4-5',
      source: 'env',
    },
    {
      why: 'settings model is used when nothing else names one',
      input: { env: ANTHROPIC_ENV, settings: { model: 'Sonnet' } },
      model: 'claude-sonnet-5-5',
      source: 'settings',
    },
    {
      why: 'a full id passes through unchanged',
      input: { env: ANTHROPIC_ENV, flags: { model: 'claude-3-7-sonnet-20250219' } },
      model: 'claude-3-7-sonnet-20250219',
      source: 'flag',
    },
  ])('model: $why', ({ input, model, source }) => {
    const c = resolveModelConfig(input);
    expect(c.model).toBe(model);
    expect(c.modelSource).toBe(source);
  });

  it.each([
    {
      why: 'flag',
      input: { flags: { provider: 'openai' }, env: { GANTRY_PROVIDER: 'anthropic' } },
      source: 'flag',
    },
    {
      why: 'env over settings',
      input: { env: { GANTRY_PROVIDER: 'OpenAI' }, settings: { provider: 'anthropic' } },
      source: 'env',
    },
    { why: 'settings', input: { env: {}, settings: { provider: 'openai' } }, source: 'settings' },
  ])('provider from $why', ({ input, source }) => {
    const c = resolveModelConfig({
      ...input,
      env: { ...input.env, OPENAI_API_KEY: 'sk-o', ANTHROPIC_API_KEY: 'sk-a' },
    });
    expect(c.provider).toBe('openai');
    expect(c.providerSource).toBe(source);
  });

  it('settings env applies over the process environment', () => {
    const c = resolveModelConfig({
      env: { ANTHROPIC_API_KEY: 'from-process' },
      settings: { env: { ANTHROPIC_API_KEY: 'from-settings', ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/' } },
    });
    expect(c.apiKey).toBe('from-settings');
    expect(c.baseURL).toBe('http://127.0.0.1:9');
  });

  it('reads betas, custom headers, DISABLE_PROMPT_CACHING, retries and the auth token', () => {
    const c = resolveModelConfig({
      env: {
        ANTHROPIC_AUTH_TOKEN: 'tok',
        ANTHROPIC_BETAS: 'a-1, b-2,,',
        ANTHROPIC_CUSTOM_HEADERS: 'X-One: 1\nX-Two: two words\nbroken line',
        DISABLE_PROMPT_CACHING: '1',
        GANTRY_MAX_RETRIES: '3',
      },
    });
    expect(c).toMatchObject({
      authToken: 'tok',
      credentialSource: 'ANTHROPIC_AUTH_TOKEN',
      betas: ['a-1', 'b-2'],
      headers: { 'X-One': '1', 'X-Two': 'two words' },
      promptCaching: false,
      retry: { maxRetries: 3 },
    });
    expect(c).not.toHaveProperty('apiKey');
    expect(JSON.stringify(redactedModelConfig(c))).not.toContain('tok"');
  });

  it.each([
    {
      why: 'anthropic without a key or token',
      input: { env: {} },
      code: 'missing_credentials',
      message: /ANTHROPIC_API_KEY.*ANTHROPIC_AUTH_TOKEN/,
    },
    {
      why: 'openai without a key or base URL',
      input: { flags: { provider: 'openai', model: 'gpt-4o' }, env: {} },
      code: 'missing_credentials',
      message: /gpt-4o.*OPENAI_API_KEY.*OPENAI_BASE_URL/,
    },
    {
      why: 'an unknown provider names where it came from',
      input: { env: { GANTRY_PROVIDER: 'gemini' } },
      code: 'unknown_provider',
      message: /"gemini" \(from GANTRY_PROVIDER\)/,
    },
    {
      why: 'an Anthropic alias with the openai provider',
      input: { flags: { provider: 'openai', model: 'sonnet' }, env: { OPENAI_API_KEY: 'k' } },
      code: 'invalid_value',
      message: /Anthropic model alias/,
    },
    {
      why: 'a base URL that is not http(s)',
      input: { env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: 'file:///etc' } },
      code: 'invalid_value',
      message: /ANTHROPIC_BASE_URL must be an http or https URL/,
    },
    {
      why: 'a retry count that is not a number',
      input: { env: { ANTHROPIC_API_KEY: 'k', GANTRY_MAX_RETRIES: 'many' } },
      code: 'invalid_value',
      message: /GANTRY_MAX_RETRIES/,
    },
    {
      why: 'an unknown OpenAI API flavour',
      input: { flags: { provider: 'openai' }, env: { OPENAI_API_KEY: 'k', GANTRY_OPENAI_API: 'assistants' } },
      code: 'invalid_value',
      message: /GANTRY_OPENAI_API/,
    },
  ])('start-up error: $why', ({ input, code, message }) => {
    let error: unknown;
    try {
      resolveModelConfig(input);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ModelConfigError);
    expect((error as ModelConfigError).code).toBe(code);
    expect((error as ModelConfigError).message).toMatch(message);
  });

  it('openai with only a base URL (a local server) is fine', () => {
    const c = resolveModelConfig({
      flags: { provider: 'openai', model: 'qwen2.5-coder:7b' },
      env: { OPENAI_BASE_URL: 'http://127.0.0.1:11434/v1' },
    });
    expect(c).toMatchObject({
      provider: 'openai',
      model: 'qwen2.5-coder:7b',
      credentialSource: 'none',
      api: 'chat',
    });
  });
});

describe('createModelClient against the fakes', () => {
  let anthropic: FakeAnthropicServer | undefined;
  let openai: FakeOpenAIServer | undefined;
  afterEach(async () => {
    await anthropic?.close();
    await openai?.close();
    anthropic = undefined;
    openai = undefined;
  });

  async function text(events: AsyncIterable<ModelStreamEvent>): Promise<string> {
    let out = '';
    for await (const e of events) if (e.type === 'text_delta') out += e.text;
    return out;
  }

  it('builds an Anthropic client from the environment and streams through it', async () => {
    anthropic = await startFakeAnthropicServer({
      apiKey: 'sk-a',
      script: [reply.text('hello from anthropic')],
    });
    const client = createModelClient({
      flags: { model: 'haiku' },
      env: { ANTHROPIC_API_KEY: 'sk-a', ANTHROPIC_BASE_URL: anthropic.url },
    });
    expect(client.provider).toBe('anthropic');
    expect(client.model).toBe('claude-haiku-5-5');
    const out = await text(
      client.stream({
        model: client.model,
        system: [],
        messages: [{ role: 'user', content: 'hi' }],
        tools: [],
        maxTokens: 10,
      }),
    );
    expect(out).toBe('hello from anthropic');
    expect(anthropic.messageRequests[0]!.body.model).toBe('claude-haiku-5-5');
  });

  it('builds an OpenAI-compatible client for a local endpoint (Responses API by env) and streams through it', async () => {
    openai = await startFakeOpenAIServer({ script: [reply.text('hello from a local server')] });
    const client = createModelClient({
      flags: { provider: 'openai', model: 'local-model' },
      env: { OPENAI_BASE_URL: `${openai.url}/v1`, GANTRY_OPENAI_API: 'responses' },
    });
    expect(client.provider).toBe('openai');
    const out = await text(
      client.stream({
        model: client.model,
        system: [],
        messages: [{ role: 'user', content: 'hi' }],
        tools: [],
        maxTokens: 10,
      }),
    );
    expect(out).toBe('hello from a local server');
    expect(openai.modelRequests[0]!.endpoint).toBe('responses');
  });
});
