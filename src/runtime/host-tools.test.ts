/**
 * The registry stays open to hosts: a tool Gantry does not ship (PowerShell, a product tool) is
 * built with `buildTool` and handed in beside the built-ins (`assembleToolPool({ builtIn })`, or
 * `createAgent({ tools })`, which goes through the same pool); it is offered to the model and run
 * by the runtime like any other. Its name keeps the trait table's row when it has one (PowerShell:
 * shell rules), and an unknown name is treated as unknown (ask).
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildTool } from '../core/index.js';
import { traitsOf } from '../core/tool-traits.js';
import { toolUse } from '../testing/runtime-fixtures.js';
import { getAllBaseTools } from '../tools/index.js';
import { allowAllDecider } from './deciders.js';
import { createToolRuntime } from './create-tool-runtime.js';
import { assembleToolPool } from './tool-pool.js';

const HostPowerShell = buildTool({
  name: 'PowerShell',
  description: 'Run a PowerShell command (a host tool).',
  inputSchema: z.strictObject({ command: z.string() }),
  async *call(input: { command: string }) {
    return { data: `ran: ${input.command}` };
  },
  mapToolResultToContent: (output: string) => output,
});

describe('host tools beside the built-ins', () => {
  it('a host PowerShell tool is offered, run, and keeps the shell rule kind of its trait row', async () => {
    const pool = assembleToolPool({ builtIn: [...(await getAllBaseTools({ env: {} })), HostPowerShell] });
    expect(pool.definitions().map((d) => d.name)).toContain('PowerShell');
    const runtime = createToolRuntime({
      tools: pool.callable,
      cwd: process.cwd(),
      decide: allowAllDecider,
      env: {},
    });
    const turn = await runtime.runToolsToCompletion([toolUse('t1', 'PowerShell', { command: 'Get-Date' })]);
    expect(turn.results[0]?.content).toBe('ran: Get-Date');
    expect(traitsOf('PowerShell')?.ruleKind).toBe('shell');
    expect(traitsOf('SomeProductTool')).toBeUndefined();
  });
});
