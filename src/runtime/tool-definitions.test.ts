/**
 * Tool definitions are rendered once and byte-stable: across calls, across fresh schema instances,
 * and across process restarts (the request prefix must stay byte-identical for the prompt cache).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTool } from '../core/index.js';
import { REPO_ROOT } from '../testing/shared-data.js';
import { getAllBaseTools } from '../tools/index.js';
import { renderToolDefinitionsJson, toolDefinition, toolDefinitions } from './tool-definitions.js';

const run = promisify(execFile);

function sampleTool() {
  return buildTool({
    name: 'Sample',
    description: 'A sample tool.',
    inputSchema: z.strictObject({
      file_path: z.string().describe('Absolute path.'),
      limit: z.number().int().min(1).default(2000).describe('Lines to read.'),
      mode: z.enum(['a', 'b']).optional(),
    }),
    async *call() {
      return { data: '' };
    },
  });
}

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

describe('toolDefinition', () => {
  it('renders {name, description, input_schema} in input mode: defaulted fields are optional, no $schema key', () => {
    expect(toolDefinition(sampleTool())).toEqual({
      name: 'Sample',
      description: 'A sample tool.',
      input_schema: {
        type: 'object',
        properties: {
          file_path: { type: 'string', description: 'Absolute path.' },
          limit: {
            type: 'integer',
            minimum: 1,
            default: 2000,
            description: 'Lines to read.',
          },
          mode: { type: 'string', enum: ['a', 'b'] },
        },
        required: ['file_path'],
        additionalProperties: false,
      },
    });
  });

  it("leaves out zod's safe-integer stand-in bounds of .int(), keeps every real bound", () => {
    const bounded = buildTool({
      name: 'Bounded',
      description: 'Bounds.',
      inputSchema: z.strictObject({
        any: z.number().int(),
        capped: z.number().int().min(0).max(600_000),
        list: z.array(z.number().int().nonnegative()).max(4),
      }),
      async *call() {
        return { data: '' };
      },
    });
    expect(toolDefinition(bounded).input_schema.properties).toEqual({
      any: { type: 'integer' },
      capped: { type: 'integer', minimum: 0, maximum: 600_000 },
      list: { type: 'array', maxItems: 4, items: { type: 'integer', minimum: 0 } },
    });
  });

  it('renders once per tool: repeated calls return the same frozen object and the same bytes', () => {
    const tool = sampleTool();
    const first = toolDefinition(tool);
    const firstJson = JSON.stringify(first);
    for (let i = 0; i < 100; i++) {
      expect(toolDefinition(tool)).toBe(first);
      expect(JSON.stringify(toolDefinition(tool))).toBe(firstJson);
    }
    expect(Object.isFrozen(first)).toBe(true);
    expect(Object.isFrozen(first.input_schema.properties)).toBe(true);
    expect(() => {
      (first.input_schema as { type: string }).type = 'string';
    }).toThrow(TypeError);
  });

  it('fresh tool and schema instances render to identical bytes', () => {
    expect(renderToolDefinitionsJson([sampleTool()])).toBe(renderToolDefinitionsJson([sampleTool()]));
  });

  it('uses an adapted tool’s inputJSONSchema as given, copied so later changes cannot leak in', () => {
    const schema = { type: 'object' as const, properties: { q: { type: 'string' } }, required: ['q'] };
    const tool = buildTool({
      name: 'mcp__srv__search',
      description: 'Search.',
      inputSchema: z.object({}).passthrough(),
      inputJSONSchema: schema,
      async *call() {
        return { data: '' };
      },
    });
    const rendered = toolDefinition(tool);
    schema.required.push('mutated');
    expect(rendered.input_schema).toEqual({
      type: 'object',
      properties: { q: { type: 'string' } },
      required: ['q'],
    });
  });

  it('rejects a non-object input schema', () => {
    const tool = buildTool({
      name: 'Bad',
      description: 'x',
      inputSchema: z.string() as never,
      async *call() {
        return { data: '' };
      },
    });
    expect(() => toolDefinition(tool)).toThrow('must be an object schema');
  });

  it('keeps the order of the tool list', () => {
    const a = sampleTool();
    const b = buildTool({ ...sampleTool(), name: 'Other' });
    expect(toolDefinitions([b, a]).map((d) => d.name)).toEqual(['Other', 'Sample']);
  });

  it('every built-in renders to the same bytes in a fresh process', async () => {
    const tools = await getAllBaseTools({ features: { SLEEP: true } });
    const here = renderToolDefinitionsJson(tools);
    const script = [
      `const { getAllBaseTools } = await import(${JSON.stringify(pathToFileURL(path.join(REPO_ROOT, 'src/tools/index.ts')).href)});`,
      `const { renderToolDefinitionsJson } = await import(${JSON.stringify(pathToFileURL(path.join(REPO_ROOT, 'src/runtime/tool-definitions.ts')).href)});`,
      'const tools = await getAllBaseTools({ features: { SLEEP: true } });',
      'process.stdout.write(renderToolDefinitionsJson(tools));',
    ].join('\n');
    const { stdout } = await run(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: REPO_ROOT,
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(sha(stdout)).toBe(sha(here));
    expect(stdout).toContain('"name": "Sleep"');
  });
});
