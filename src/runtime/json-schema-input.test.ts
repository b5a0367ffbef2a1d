/**
 * Tools defined by JSON Schema: inputs validated with Ajv against the schema a real MCP server
 * (`@modelcontextprotocol/server-everything`, spawned over stdio) lists, errors reported in the
 * same InputValidationError shape zod's get; a bad input never reaches the server. Plus the
 * 2020-12 dialect and a schema that does not compile (fail closed).
 */
import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnyTool, buildTool, contentText, type JSONSchemaObject } from '../core/index.js';
import { makeTempDir, toolUse } from '../testing/runtime-fixtures.js';
import { createToolRuntime } from './create-tool-runtime.js';
import { allowAllDecider } from './deciders.js';
import { jsonSchemaInput } from './json-schema-input.js';
import { toolDefinition } from './tool-definitions.js';

const everything = createRequire(import.meta.url).resolve(
  '@modelcontextprotocol/server-everything/dist/index.js',
);

let client: Client;
let temp: { dir: string; cleanup(): Promise<void> };
let tools: AnyTool[];
const serverCalls: string[] = [];

/** The smallest MCP adapter: the server's schema in, its text content out. */
function adapt(listed: { name: string; description?: string; inputSchema: unknown }): AnyTool {
  const schema = listed.inputSchema as JSONSchemaObject;
  return buildTool({
    name: `mcp__everything__${listed.name}`,
    description: listed.description ?? listed.name,
    inputSchema: jsonSchemaInput(schema),
    isMcp: true,
    mcpInfo: { serverName: 'everything', toolName: listed.name },
    async *call(input: Record<string, unknown>) {
      serverCalls.push(listed.name);
      const result = await client.callTool({ name: listed.name, arguments: input });
      const content = result.content as { type: string; text?: string }[];
      return { data: content.map((b) => b.text ?? '').join('\n') };
    },
  });
}

beforeAll(async () => {
  temp = await makeTempDir();
  client = new Client({ name: 'gantry-test', version: '0.0.0' });
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [everything, 'stdio'], stderr: 'ignore' }),
  );
  tools = (await client.listTools()).tools.map(adapt);
}, 60_000);

afterAll(async () => {
  await client?.close();
  await temp?.cleanup();
});

async function call(name: string, input: unknown) {
  const runtime = createToolRuntime({
    tools,
    cwd: temp.dir,
    sessionDir: temp.dir,
    decide: allowAllDecider,
    env: {},
  });
  const { results } = await runtime.runToolsToCompletion([toolUse('t1', `mcp__everything__${name}`, input)]);
  return { isError: results[0]?.is_error === true, text: contentText(results[0]?.content ?? '') };
}

describe('a real MCP server’s schemas through the runtime', () => {
  it('a valid input runs on the server', async () => {
    const r = await call('get-sum', { a: 2, b: 3 });
    expect(r.isError).toBe(false);
    expect(r.text).toContain('5');
  });

  it('a missing field and a wrong type are named, like zod’s errors, and the server is never called', async () => {
    serverCalls.length = 0;
    const r = await call('get-sum', { a: '2' });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      '<tool_use_error>InputValidationError: mcp__everything__get-sum failed due to the following issues:\n' +
        '- The required parameter `b` is missing (expected number).\n' +
        '- The parameter `a` must be a number, but a string was given.\n' +
        'Fix the input and call mcp__everything__get-sum again.</tool_use_error>',
    );
    expect(serverCalls).toEqual([]);
  });

  it('an enum value outside the list names the allowed values', async () => {
    const r = await call('get-annotated-message', { messageType: 'loud' });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('The parameter `messageType` must be one of "error", "success", "debug".');
  });

  it('formats and ranges are checked (uri, minimum)', async () => {
    const uri = await call('gzip-file-as-resource', { data: 'not a uri' });
    expect(uri.isError).toBe(true);
    expect(uri.text).toContain('The parameter `data` is invalid: must match format "uri".');
    const range = await call('get-resource-links', { count: 0 });
    expect(range.text).toContain('The parameter `count` is invalid: must be >= 1.');
  });

  it('an input that is not an object is refused', async () => {
    const r = await call('echo', 'hello');
    expect(r.text).toContain('The input must be a JSON object, but a string was given.');
  });

  it('the model sees the server’s schema as listed', async () => {
    const listed = (await client.listTools()).tools.find((t) => t.name === 'get-sum');
    const tool = tools.find((t) => t.name === 'mcp__everything__get-sum') as AnyTool;
    expect(toolDefinition(tool).input_schema).toEqual(listed?.inputSchema);
  });
});

describe('jsonSchemaInput: dialects and broken schemas', () => {
  it('uses 2020-12 when the schema says so (prefixItems is enforced), draft-07 otherwise (it is not a keyword there)', () => {
    const body = {
      type: 'object',
      properties: { pair: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }] } },
    } as const;
    const modern = jsonSchemaInput({ $schema: 'https://json-schema.org/draft/2020-12/schema', ...body });
    const classic = jsonSchemaInput({ $schema: 'http://json-schema.org/draft-07/schema#', ...body });
    expect(modern.safeParse({ pair: ['a', 1] }).success).toBe(true);
    expect(modern.safeParse({ pair: [1, 'a'] }).success).toBe(false);
    expect(classic.safeParse({ pair: [1, 'a'] }).success).toBe(true);
  });

  it('reports paths into nested arrays and objects', () => {
    const input = jsonSchemaInput({
      type: 'object',
      properties: {
        edits: {
          type: 'array',
          items: { type: 'object', properties: { old: { type: 'string' } }, required: ['old'] },
        },
      },
      additionalProperties: false,
    });
    const r = input.safeParse({ edits: [{ old: 'x' }, {}], extra: true });
    expect(r.success).toBe(false);
    if (!r.success) {
      expect(r.error.issues.map((i) => [i.code, i.path])).toEqual([
        ['unrecognized_keys', []],
        ['invalid_type', ['edits', 1, 'old']],
      ]);
    }
  });

  it('never changes the input (no defaults filled in, no coercion)', () => {
    const input = jsonSchemaInput({ type: 'object', properties: { n: { type: 'number', default: 3 } } });
    const value = {};
    const r = input.safeParse(value);
    expect(r.success && r.data).toBe(value);
    expect(value).toEqual({});
    expect(input.safeParse({ n: '3' }).success).toBe(false);
  });

  it('a schema that does not compile rejects every input and says why (fail closed)', () => {
    const input = jsonSchemaInput({ type: 'object', properties: { a: { $ref: '#/$defs/missing' } } });
    const r = input.safeParse({ a: 1 });
    expect(r.success).toBe(false);
    if (!r.success) expect(r.error.issues[0]?.message).toMatch(/could not be compiled/);
  });

  it('two tools may share an $id', () => {
    const schema = (): JSONSchemaObject => ({
      $id: 'https://example.invalid/schemas/same.json',
      type: 'object',
      properties: {},
    });
    expect(jsonSchemaInput(schema()).safeParse({}).success).toBe(true);
    expect(jsonSchemaInput(schema()).safeParse({}).success).toBe(true);
  });
});

describe('jsonSchemaInput: wording', () => {
  it('uses the right article for the expected type', async () => {
    const tool = buildTool({
      name: 'Typed',
      description: 'x',
      inputSchema: jsonSchemaInput({
        type: 'object',
        properties: { n: { type: 'integer' }, o: { type: 'object' } },
      }),
      async *call() {
        return { data: '' };
      },
    });
    const runtime = createToolRuntime({
      tools: [tool],
      cwd: temp.dir,
      sessionDir: temp.dir,
      decide: allowAllDecider,
      env: {},
    });
    const { results } = await runtime.runToolsToCompletion([toolUse('t', 'Typed', { n: 1.5, o: [] })]);
    const text = contentText(results[0]?.content ?? '');
    expect(text).toContain('`n` must be an integer, but the number 1.5 was given.');
    expect(text).toContain('`o` must be an object, but an array was given.');
  });
});
