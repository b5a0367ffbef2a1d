/**
 * The `runSubagent` session service: a tool below the agents room (here a probe standing in for
 * Skill with `context: fork`) runs a sub-agent through `context.services.runSubagent`.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AnyTool, buildTool, type SubagentReport } from '../../core/index.js';
import { agentIdOf, reply, text, toolUse } from '../../testing/fake-model-script.js';
import {
  type FakeModel,
  type LoopWorld,
  loopOptions,
  makeLoopWorld,
  realTools,
  runQuery,
  startFakeModel,
} from '../../testing/loop-fixtures.js';
import { allowAllDecider } from '../../runtime/index.js';
import { createSubagentRunner } from '../subagent-runner.js';

let world: LoopWorld | undefined;
let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  world?.cleanup();
  model = undefined;
  world = undefined;
});

function probe(type: string, reports: SubagentReport[]): AnyTool {
  return buildTool({
    name: 'Probe',
    description: 'runs a sub-agent',
    inputSchema: z.object({ task: z.string() }),
    isConcurrencySafe: () => true,
    async *call(input: { task: string }, context) {
      const run = context.services.runSubagent;
      if (!run) throw new Error('no runSubagent service');
      const report = await run({ prompt: input.task, description: 'probe task', agentType: type }, context);
      reports.push(report);
      return { data: report.text };
    },
  });
}

describe('runSubagent', () => {
  it.each(['Explore', 'fork'])('runs a %s sub-agent for a tool and returns its report', async (type) => {
    world = makeLoopWorld();
    const reports: SubagentReport[] = [];
    model = await startFakeModel(
      'anthropic',
      [
        reply.message([text('Probing.'), toolUse('Probe', { task: 'look around' })]),
        reply.text('Parent done.'),
      ],
      { routes: [{ when: (r) => agentIdOf(r) !== undefined, script: [reply.text(`report from ${type}`)] }] },
    );
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'go',
        tools: [probe(type, reports), ...(await realTools())],
        decide: allowAllDecider,
        runSubagent: createSubagentRunner(),
      }),
    );
    expect(run.results[0]!.result).toBe('Parent done.');
    expect(reports).toEqual([
      expect.objectContaining({ agentType: type, status: 'completed', text: `report from ${type}` }),
    ]);
    const child = model.requests().find((r) => r.headers['x-gantry-agent-id'])!;
    if (type === 'fork') {
      const parentFirst = model.requests()[0]!;
      expect(JSON.stringify(child.body.system)).toBe(JSON.stringify(parentFirst.body.system));
      expect(JSON.stringify(child.body.messages.at(-1))).toContain('Your directive: look around');
    } else expect(child.body.tools.map((t: any) => t.name)).not.toContain('Write');
  });
});
