/**
 * More of the control protocol, driven by the unmodified Claude Agent SDK against gantry and the
 * scripted fake Anthropic server (docs/cli-print.md "Control protocol"):
 *
 * - structured output: `outputFormat: {type: "json_schema", schema}` (the SDK passes
 *   `--json-schema=<json>`): the StructuredOutput tool, a rejected input and a retry, the result's
 *   `structured_output`; a model that never answers in shape ends with
 *   `error_max_structured_output_retries` after a bounded number of requests; a bad schema fails
 *   the start with a clear message;
 * - elicitation: the real MCP test server (src/testing/mcp-test-server.ts, its `elicit` and
 *   `elicit_url` tools) asks for input through `elicitation/create`; gantry forwards it as an
 *   `elicitation` control request, the SDK's `onElicitation` answers (form and URL mode), and the
 *   server gets the answer; without the callback, and in plain `gantry -p`, it is declined.
 */
import { query, type SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type FakeAnthropicServer,
  startFakeAnthropicServer,
} from '../../src/testing/fake-anthropic-server.js';
import { reply, type ScriptEntry } from '../../src/testing/fake-model-script.js';
import { mcpTestServerCommand } from '../../src/testing/mcp-test-server.js';
import {
  GANTRY_BIN,
  gantryEnv,
  makePrintWorld,
  PRINT_TEST_KEY,
  type PrintWorld,
  runGantry,
} from '../../src/testing/print-fixtures.js';

let world: PrintWorld;
let fake: FakeAnthropicServer;

beforeEach(() => {
  world = makePrintWorld();
});
afterEach(async () => {
  await fake?.close();
  world.cleanup();
});

async function withFake(script: ScriptEntry[]) {
  fake = await startFakeAnthropicServer({ apiKey: PRINT_TEST_KEY, script });
}

function baseOptions(stderr: string[]) {
  return {
    pathToClaudeCodeExecutable: GANTRY_BIN,
    cwd: world.project,
    env: gantryEnv(world, fake),
    stderr: (chunk: string) => void stderr.push(chunk),
  };
}

const SCHEMA = {
  type: 'object',
  properties: { city: { type: 'string' }, population: { type: 'integer', minimum: 0 } },
  required: ['city', 'population'],
  additionalProperties: false,
} as const;

/** Runs the query to its end; a throw after the messages (an error exit) is returned, not raised. */
async function drain(q: AsyncIterable<SDKMessage>): Promise<{ messages: SDKMessage[]; thrown?: Error }> {
  const messages: SDKMessage[] = [];
  try {
    for await (const m of q) messages.push(m);
    return { messages };
  } catch (e) {
    return { messages, thrown: e as Error };
  }
}

describe('structured output through the SDK (outputFormat json_schema)', () => {
  it('offers StructuredOutput with the schema, sends a rejected input back, and returns the valid one as structured_output', async () => {
    await withFake([
      reply.toolUse('StructuredOutput', { city: 'Lyon', population: 'many' }),
      reply.toolUse('StructuredOutput', { city: 'Lyon', population: 522_250 }),
      reply.text('Recorded.'),
    ]);
    const stderr: string[] = [];
    const { messages, thrown } = await drain(
      query({
        prompt: 'What is the largest city of the Rhône department?',
        options: { ...baseOptions(stderr), outputFormat: { type: 'json_schema', schema: SCHEMA } },
      }),
    );
    expect(thrown, stderr.join('')).toBeUndefined();
    const result = messages.at(-1) as SDKMessage & Record<string, unknown>;
    expect(result).toMatchObject({
      type: 'result',
      subtype: 'success',
      is_error: false,
      structured_output: { city: 'Lyon', population: 522_250 },
    });
    // The tool is offered with the schema as its input schema, and the instruction is in the prompt.
    const first = fake.messageRequests[0]?.body;
    const offered = first.tools.find((t: { name: string }) => t.name === 'StructuredOutput');
    expect(offered.input_schema).toEqual(SCHEMA);
    expect(JSON.stringify(first.system)).toContain('StructuredOutput');
    // The invalid input came back to the model as an input error naming the field.
    const second = JSON.stringify(fake.messageRequests[1]?.body.messages.at(-1));
    expect(second).toContain('InputValidationError');
    expect(second).toContain('population');
    expect(fake.messageRequests).toHaveLength(3);
  });

  it('a model that never calls the tool is reminded a bounded number of times, then the result is error_max_structured_output_retries', async () => {
    await withFake(Array.from({ length: 12 }, (_, i) => reply.text(`Plain answer ${i}.`)));
    const stderr: string[] = [];
    const { messages, thrown } = await drain(
      query({
        prompt: 'Answer in shape.',
        options: { ...baseOptions(stderr), outputFormat: { type: 'json_schema', schema: SCHEMA } },
      }),
    );
    const result = messages.at(-1) as SDKMessage & Record<string, unknown>;
    expect(result).toMatchObject({
      type: 'result',
      subtype: 'error_max_structured_output_retries',
      is_error: true,
    });
    expect(result.structured_output).toBeUndefined();
    expect(String((result.errors as string[])[0])).toMatch(/StructuredOutput/);
    // Five requests: the first answer and four reminders (the fifth stop ends the turn).
    expect(fake.messageRequests).toHaveLength(5);
    expect(JSON.stringify(fake.messageRequests[1]?.body.messages.at(-1))).toContain('StructuredOutput');
    // An error result makes gantry exit 1, which the SDK reports after yielding the result.
    expect(thrown?.message).toMatch(/error result|exited with code 1/);
  });

  it('a model that keeps sending invalid input is stopped after the same bound', async () => {
    await withFake(
      Array.from({ length: 12 }, (_, i) =>
        reply.toolUse('StructuredOutput', { city: `C${i}`, population: -i - 1 }),
      ),
    );
    const stderr: string[] = [];
    const { messages } = await drain(
      query({
        prompt: 'Answer in shape.',
        options: { ...baseOptions(stderr), outputFormat: { type: 'json_schema', schema: SCHEMA } },
      }),
    );
    const result = messages.at(-1) as SDKMessage & Record<string, unknown>;
    expect(result).toMatchObject({
      type: 'result',
      subtype: 'error_max_structured_output_retries',
      is_error: true,
    });
    // Five rejected calls, then the turn is stopped before another request goes out.
    expect(fake.messageRequests).toHaveLength(5);
    expect(result.terminal_reason).toMatch(/^aborted/);
  });

  it('a schema that is not an object schema fails the start with a clear message', async () => {
    await withFake([reply.text('never asked')]);
    const stderr: string[] = [];
    const { thrown } = await drain(
      query({
        prompt: 'x',
        options: {
          ...baseOptions(stderr),
          outputFormat: { type: 'json_schema', schema: { type: 'array', items: { type: 'string' } } },
        },
      }),
    );
    expect(thrown?.message).toMatch(/exited with code 1/);
    expect(stderr.join('')).toMatch(/--json-schema: the schema must describe an object/);
    expect(fake.messageRequests).toHaveLength(0);
  });
});

/** The test MCP server's special tools only; its `elicit` tool asks the client through `elicitation/create`. */
const asker = () => {
  const c = mcpTestServerCommand({ toolCount: 0, name: 'asker' });
  return { type: 'stdio' as const, command: c.command, args: c.args };
};
const ELICIT_SCRIPT = () => [
  reply.toolUse('mcp__asker__elicit', { question: 'Which colour should the badge be?' }),
  reply.text('Noted.'),
];
/** The tool result the model got for the elicit call (the server reports the answer it received). */
const elicitResult = (): string => JSON.stringify(fake.messageRequests[1]?.body.messages.at(-1));

describe('MCP elicitation through the SDK (onElicitation)', () => {
  it("a server's elicitation/create reaches onElicitation as an elicitation request, and its answer reaches the server", async () => {
    await withFake(ELICIT_SCRIPT());
    const stderr: string[] = [];
    const asked: Record<string, unknown>[] = [];
    const { messages, thrown } = await drain(
      query({
        prompt: 'pick a colour with the user',
        options: {
          ...baseOptions(stderr),
          env: gantryEnv(world, fake, { ENABLE_TOOL_SEARCH: 'false' }),
          mcpServers: { asker: asker() },
          mcpServersDelivery: 'argv',
          allowedTools: ['mcp__asker__elicit'],
          onElicitation: async (request) => {
            asked.push({ ...request });
            return { action: 'accept', content: { answer: 'teal' } };
          },
        },
      }),
    );
    expect(thrown, stderr.join('')).toBeUndefined();
    expect(messages.at(-1)).toMatchObject({ type: 'result', subtype: 'success', result: 'Noted.' });
    expect(asked).toEqual([
      {
        serverName: 'asker',
        message: 'Which colour should the badge be?',
        mode: 'form',
        requestedSchema: {
          type: 'object',
          properties: { answer: { type: 'string' } },
          required: ['answer'],
        },
      },
    ]);
    expect(elicitResult()).toContain('elicitation accept: {\\"answer\\":\\"teal\\"}');
  });

  it('a URL-mode elicitation reaches onElicitation with its url and elicitationId', async () => {
    await withFake([
      reply.toolUse('mcp__asker__elicit_url', { url: 'https://sign-in.invalid/device' }),
      reply.text('Signed in.'),
    ]);
    const stderr: string[] = [];
    const asked: Record<string, unknown>[] = [];
    const { thrown } = await drain(
      query({
        prompt: 'sign in',
        options: {
          ...baseOptions(stderr),
          env: gantryEnv(world, fake, { ENABLE_TOOL_SEARCH: 'false' }),
          mcpServers: { asker: asker() },
          mcpServersDelivery: 'argv',
          allowedTools: ['mcp__asker__elicit_url'],
          onElicitation: async (request) => {
            asked.push({ ...request });
            return { action: 'accept' };
          },
        },
      }),
    );
    expect(thrown, stderr.join('')).toBeUndefined();
    expect(asked).toEqual([
      {
        serverName: 'asker',
        message: 'Sign in to continue.',
        mode: 'url',
        url: 'https://sign-in.invalid/device',
        elicitationId: 'elicitation-7',
      },
    ]);
    expect(elicitResult()).toContain('url elicitation accept');
  });

  it('without onElicitation the SDK declines, and the server hears the decline', async () => {
    await withFake(ELICIT_SCRIPT());
    const stderr: string[] = [];
    const { messages, thrown } = await drain(
      query({
        prompt: 'pick a colour with the user',
        options: {
          ...baseOptions(stderr),
          env: gantryEnv(world, fake, { ENABLE_TOOL_SEARCH: 'false' }),
          mcpServers: { asker: asker() },
          mcpServersDelivery: 'argv',
          allowedTools: ['mcp__asker__elicit'],
        },
      }),
    );
    expect(thrown, stderr.join('')).toBeUndefined();
    expect(messages.at(-1)).toMatchObject({ type: 'result', subtype: 'success' });
    expect(elicitResult()).toContain('elicitation decline');
  });

  it('plain gantry -p (no host to ask) declines the elicitation', async () => {
    await withFake(ELICIT_SCRIPT());
    const r = await runGantry(
      [
        '-p',
        '--output-format',
        'json',
        '--mcp-config',
        JSON.stringify({ mcpServers: { asker: asker() } }),
        '--allowedTools',
        'mcp__asker__elicit',
        'pick a colour',
      ],
      { cwd: world.project, env: gantryEnv(world, fake, { ENABLE_TOOL_SEARCH: 'false' }) },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ type: 'result', subtype: 'success', result: 'Noted.' });
    expect(elicitResult()).toContain('elicitation decline');
  });
});
