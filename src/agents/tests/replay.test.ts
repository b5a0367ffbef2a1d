/**
 * A sub-agent's sidechain transcript replays through `gantry replay`'s reader like a Claude Code
 * one: its calls are found, marked as sidechain, with the mode the child ran in — the parent's
 * mode, since a child's mode only narrows it.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { listTranscriptFiles, newReadStats, readRecordedCalls } from '../../cli/replay/transcript-reader.js';
import { agentIdOf, reply } from '../../testing/fake-model-script.js';
import {
  type FakeModel,
  type LoopWorld,
  loopOptions,
  makeEngine,
  makeLoopWorld,
  runQuery,
  startFakeModel,
} from '../../testing/loop-fixtures.js';
import { toolsWithAgent } from './test-support.js';

let world: LoopWorld | undefined;
let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  world?.cleanup();
  model = undefined;
  world = undefined;
});

describe('replaying a sidechain', () => {
  it('finds the child calls, marked sidechain, in the parent mode', async () => {
    world = makeLoopWorld();
    model = await startFakeModel(
      'anthropic',
      [reply.toolUse('Agent', { description: 'Status', prompt: 'git status please' }), reply.text('done')],
      {
        routes: [
          {
            when: (r) => agentIdOf(r) !== undefined,
            script: [reply.toolUse('Bash', { command: 'ls', description: 'list' }), reply.text('listed')],
          },
        ],
      },
    );
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'go',
        tools: await toolsWithAgent(),
        permissionEngine: makeEngine(world),
        permissionMode: 'acceptEdits',
      }),
    );
    const sessionDir = run.result.transcriptPath!.replace(/\.jsonl$/, '');
    const files = await listTranscriptFiles([path.join(sessionDir, 'subagents')]);
    expect(files).toHaveLength(1);
    const calls = await readRecordedCalls(files[0]!, newReadStats());
    expect(calls).toEqual([
      expect.objectContaining({
        tool: 'Bash',
        isSidechain: true,
        permissionMode: 'acceptEdits',
        outcome: 'executed',
      }),
    ]);
  });
});
