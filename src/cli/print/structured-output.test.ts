/**
 * `--json-schema` values at start-up (structured-output.ts): what is accepted, and the reason a
 * bad one is refused. The session behaviour (the tool, the reminders, the result fields) is
 * covered end to end through the Agent SDK in test/integration/agent-sdk-protocol.e2e.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { OutputSchemaError, parseOutputSchema, StructuredOutput } from './structured-output.js';

describe('parseOutputSchema', () => {
  it.each([
    ['{"type":"object","properties":{"a":{"type":"string"}}}', 'a plain object schema'],
    ['{"type":"object"}', 'an object with no properties'],
    [
      '{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}',
      'a 2020-12 schema (the dialect Claude Code tool schemas name)',
    ],
    ['{"type":"object","properties":{"d":{"type":"string","format":"date"}}}', 'formats are known'],
    ['{"$schema":"http://json-schema.org/draft-07/schema#","type":"object"}', 'draft-07 named'],
  ])('accepts %s (%s)', (text: string, _why: string) => {
    expect(parseOutputSchema(text)).toEqual(JSON.parse(text));
  });

  it.each([
    ['{"type":"object"', /not valid JSON/, 'truncated JSON'],
    ['[1,2]', /expected a JSON Schema object/, 'an array is not a schema'],
    ['"object"', /expected a JSON Schema object/, 'a string is not a schema'],
    ['{"type":"array","items":{}}', /must describe an object.*"array"/, 'a tool input must be an object'],
    ['{"properties":{}}', /must describe an object.*null/, 'the root type must be stated'],
    ['{"type":"object","properties":{"a":{"type":"strnig"}}}', /not valid JSON Schema/, 'a misspelt type'],
    ['{"type":"object","required":"a"}', /not valid JSON Schema/, 'required must be a list'],
    [
      '{"$schema":"https://json-schema.org/draft/2019-09/schema","type":"object"}',
      /dialect that is not checked here/,
      'a dialect Ajv is not set up for is named, not half-checked',
    ],
  ])('refuses %s with %s (%s)', (text: string, message: RegExp, _why: string) => {
    expect(() => parseOutputSchema(text)).toThrow(OutputSchemaError);
    expect(() => parseOutputSchema(text)).toThrow(message);
  });

  it('takes an object as well (initialize.jsonSchema)', () => {
    expect(parseOutputSchema({ type: 'object' })).toEqual({ type: 'object' });
  });
});

describe('StructuredOutput', () => {
  it("adds a read-only StructuredOutput tool after the session's tools, the instruction and one Stop callback", () => {
    const schema = { type: 'object' as const, properties: { a: { type: 'string' } } };
    const s = new StructuredOutput(schema);
    expect(s.tool.name).toBe('StructuredOutput');
    expect(s.tool.isReadOnly({})).toBe(true);
    const options = s.apply({
      prompt: 'x',
      modelClient: {} as never,
      model: 'm',
      cwd: '/',
      tools: [],
      appendSystemPrompt: 'mine',
    });
    expect(options.tools?.map((t) => t.name)).toEqual(['StructuredOutput']);
    expect(options.appendSystemPrompt?.startsWith('mine\n\n')).toBe(true);
    expect(options.hooks?.Stop).toHaveLength(1);
  });
});
