/**
 * Helpers for the Anthropic provider tests: a scripted fake Messages API on 127.0.0.1 with a real
 * client in front, a default request, and stream collectors. Only tests import this file.
 */
import { expect } from 'vitest';
import type { Message } from '../../core/messages.js';
import { ModelError, type ModelRequest, type ModelStreamEvent } from '../../core/model-client.js';
import {
  type FakeAnthropicOptions,
  type FakeAnthropicServer,
  startFakeAnthropicServer,
} from '../../testing/fake-anthropic-server.js';
import { AnthropicModelClient, type AnthropicClientOptions } from './client.js';

export const KEY = 'sk-test-key';
let fake: FakeAnthropicServer | undefined;

/** Closes the fake server the last `setup` started; each test file registers it in `afterEach`. */
export async function closeFake(): Promise<void> {
  await fake?.close();
  fake = undefined;
}

export async function setup(
  options: FakeAnthropicOptions,
  clientOptions: Partial<AnthropicClientOptions> = {},
) {
  fake = await startFakeAnthropicServer({ apiKey: KEY, ...options });
  const client = new AnthropicModelClient({
    apiKey: KEY,
    baseURL: fake.url,
    retry: { baseDelayMs: 1, jitter: 0 },
    ...clientOptions,
  });
  return { fake, client };
}

export function request(
  messages: Message[] = [{ role: 'user', content: 'Hello' }],
  extra: Partial<ModelRequest> = {},
): ModelRequest {
  return {
    model: 'sonnet',
    system: [{ type: 'text', text: 'You are a test agent.' }],
    messages,
    tools: [
      {
        name: 'Read',
        description: 'Reads a file.',
        input_schema: {
          type: 'object',
          properties: { file_path: { type: 'string' } },
          required: ['file_path'],
        },
      },
    ],
    maxTokens: 1000,
    ...extra,
  };
}

export async function collect(stream: AsyncIterable<ModelStreamEvent>): Promise<ModelStreamEvent[]> {
  const events: ModelStreamEvent[] = [];
  for await (const e of stream) events.push(e);
  return events;
}

export async function failure(
  stream: AsyncIterable<ModelStreamEvent>,
): Promise<{ error: ModelError; events: ModelStreamEvent[] }> {
  const events: ModelStreamEvent[] = [];
  try {
    for await (const e of stream) events.push(e);
  } catch (error) {
    expect(error).toBeInstanceOf(ModelError);
    return { error: error as ModelError, events };
  }
  throw new Error('the stream did not fail');
}

export function last<T>(xs: readonly T[]): T {
  const x = xs.at(-1);
  if (x === undefined) throw new Error('empty');
  return x;
}

/** Starts a fake server with exactly these options (no default key); `closeFake` closes it. */
export async function startFake(options: FakeAnthropicOptions): Promise<FakeAnthropicServer> {
  fake = await startFakeAnthropicServer(options);
  return fake;
}
