/**
 * The tool contract (tool-contract.ts, name-table-contract.ts) over every registered tool and
 * every name table. A tool added to the registry is checked here without further work.
 */
import { realpathSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTool } from '../core/index.js';
import { FULL_ANALYSIS_LIMIT, MAX_PARSE_INPUT_CHARS } from '../shell/index.js';
import { FEATURE_FLAGS, getAllBaseTools } from '../tools/index.js';
import {
  checkHookAndGuardNames,
  checkRuleNames,
  checkSettingsKeys,
  checkShellNames,
  checkToolNameTables,
} from './name-table-contract.js';
import { makeTempDir } from './runtime-fixtures.js';
import { checkToolContract } from './tool-contract.js';

let temp: { dir: string; cleanup(): Promise<void> };
let cwd: string;
beforeAll(async () => {
  temp = await makeTempDir('gantry-contract-');
  cwd = realpathSync(temp.dir);
});
afterAll(() => temp.cleanup());

const allFeatures = Object.fromEntries(FEATURE_FLAGS.map((f) => [f, true]));
const tools = await getAllBaseTools({ features: allFeatures });

/**
 * Inputs the schema sampler cannot build (AskUserQuestion needs 2–4 options with distinct labels;
 * Monitor needs exactly one of `command` and `ws`).
 */
const SAMPLES: Record<string, Record<string, unknown>[]> = {
  Monitor: [{ description: 'Watch the log', command: 'tail -f app.log' }],
  AskUserQuestion: [
    {
      questions: [
        {
          question: 'Which database should the service use?',
          header: 'Database',
          multiSelect: false,
          options: [
            { label: 'Postgres', description: 'The team runs it already.' },
            { label: 'SQLite', description: 'One file, no server.' },
          ],
        },
      ],
    },
  ],
};

describe('every registered tool keeps the tool contract', () => {
  it.each(tools.map((t) => [t.name, t] as const))('%s', async (_name, tool) => {
    const caps = tool.name === 'Bash' ? [FULL_ANALYSIS_LIMIT, MAX_PARSE_INPUT_CHARS] : [10_000, 100_000];
    expect(
      await checkToolContract(tool, {
        cwd,
        stringCaps: caps,
        ...(SAMPLES[tool.name] ? { samples: SAMPLES[tool.name] } : {}),
      }),
    ).toEqual([]);
  });

  it('a tool that declares nothing gets fail-closed defaults (and keeps the contract)', async () => {
    const bare = buildTool({
      name: 'Bare',
      description: 'A tool that declares nothing.',
      inputSchema: z.strictObject({ path: z.string() }),
      async *call() {
        return { data: 'x' };
      },
    });
    const input = { path: 'a' };
    expect(bare.isReadOnly(input)).toBe(false);
    expect(bare.isConcurrencySafe(input)).toBe(false);
    expect(bare.toAutoClassifierInput(input)).toBe('');
    expect(await bare.checkPermissions(input, undefined as never)).toEqual({ behavior: 'passthrough' });
    expect((await bare.describeCall(input, undefined as never)).readOnly).toBe(false);
    expect(await checkToolContract(bare, { cwd })).toEqual([]);
  });

  it('the contract catches a tool that breaks it', async () => {
    const broken = buildTool({
      name: 'Broken',
      description: 'Throws where it must not.',
      inputSchema: z.strictObject({ name: z.string() }),
      isReadOnly: () => true,
      async validateInput(input: { name: string }) {
        return input.name === '' ? { ok: false, message: '' } : { ok: true };
      },
      async describeCall(input: { name: string }) {
        const table: Record<string, { path: string }> = { a: { path: '/a' } };
        const hit = table[input.name] ?? { path: `/${input.name}` };
        return {
          ruleContents: [],
          effects: [
            { kind: 'write', target: hit.path.toUpperCase(), certainty: 'known', source: 'tool-input' },
          ],
          findings: [],
          readOnly: false,
          summary: '',
        };
      },
      async *call() {
        return { data: 'x' };
      },
    });
    const failures = await checkToolContract(broken, { cwd });
    const has = (re: RegExp) => failures.some((f) => re.test(f));
    expect(has(/describeCall \(name: prototype name constructor\) threw/)).toBe(true);
    expect(has(/validateInput \(name: empty\) refused without a message/)).toBe(true);
    expect(has(/isReadOnly \(as generated\) is true but the description writes/)).toBe(true);
  });
});

describe('every name table answers prototype names with a decision or a clear error', () => {
  it('tool names: traits, describers, host describer', () => {
    expect(checkToolNameTables()).toEqual([]);
  });
  it('rule texts: parse, compile, decide', () => {
    expect(checkRuleNames()).toEqual([]);
  });
  it('programs and option names in shell commands', async () => {
    expect(await checkShellNames()).toEqual([]);
  });
  it('settings keys', () => {
    expect(checkSettingsKeys(cwd)).toEqual([]);
  });
  it('hook payloads and the guard', async () => {
    expect(await checkHookAndGuardNames(cwd)).toEqual([]);
  });
});
