/**
 * Result-size thresholds from managed settings: read once, first file wins, bad values reported,
 * and a per-tool cap changing what the model gets for an oversized result (spilled to a file).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { allowAllDecider } from '../../runtime/index.js';
import { reply } from '../../testing/fake-model-script.js';
import {
  type FakeModel,
  type LoopWorld,
  loopOptions,
  makeLoopWorld,
  runQuery,
  startFakeModel,
} from '../../testing/loop-fixtures.js';
import { readManagedToolLimits } from '../thresholds.js';

let world: LoopWorld | undefined;
let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  world?.cleanup();
  model = undefined;
  world = undefined;
});

describe('readManagedToolLimits', () => {
  it('reads the managed files in precedence order (drop-ins included) and reports bad values', () => {
    world = makeLoopWorld();
    const main = path.join(world.root, 'managed-settings.json');
    writeFileSync(
      main,
      JSON.stringify({
        toolResultLimits: { maxResultSizeChars: 40_000, perTool: { Bash: 20_000, Grep: -1 } },
      }),
    );
    mkdirSync(path.join(world.root, 'managed-settings.d'));
    writeFileSync(
      path.join(world.root, 'managed-settings.d', '10-extra.json'),
      JSON.stringify({
        toolResultLimits: { maxResultSizeChars: 1, maxTurnResultsChars: 150_000, perTool: { Grep: 9_000 } },
      }),
    );
    const r = readManagedToolLimits({
      managedFiles: [main, path.join(world.root, 'missing.json')],
      home: world.home,
    });
    expect(r.limits).toEqual({
      maxResultSizeChars: 40_000,
      maxTurnResultsChars: 150_000,
      perTool: { Bash: 20_000, Grep: 9_000 },
    });
    expect(r.problems.map((p) => p.message)).toEqual([
      '"toolResultLimits.perTool.Grep" must be a positive integer; ignored',
    ]);
    expect(r.files).toHaveLength(2);
  });

  it('no managed settings: no limits, no problems', () => {
    world = makeLoopWorld();
    expect(
      readManagedToolLimits({ managedFiles: [path.join(world.root, 'none.json')], home: world.home }),
    ).toEqual({
      limits: {},
      problems: [],
      files: [],
    });
  });
});

describe('a per-tool cap in the loop', () => {
  it('a Bash result over its managed cap reaches the model as a persisted-output preview', async () => {
    world = makeLoopWorld();
    const cmd = `printf '%.0s0123456789' $(seq 1 50)`;
    model = await startFakeModel('anthropic', [reply.toolUse('Bash', { command: cmd }), reply.text('ok')]);
    const main = path.join(world.root, 'managed.json');
    writeFileSync(main, JSON.stringify({ toolResultLimits: { perTool: { Bash: 200 } } }));
    const { limits } = readManagedToolLimits({ managedFiles: [main], home: world.home });
    await runQuery(
      await loopOptions(world, model, { prompt: 'go', decide: allowAllDecider, toolResultLimits: limits }),
    );
    const sent = model.requests()[1]!.body.messages[2].content[0].content as string;
    expect(sent).toContain('<persisted-output>');
    // The spilled file sits in the session's folder under the (test) home, not in the temp directory.
    expect(sent).toContain(path.join(world.home, '.gantry', 'sessions'));
    const unlimited = await startFakeModel('anthropic', [
      reply.toolUse('Bash', { command: cmd }),
      reply.text('ok'),
    ]);
    try {
      await runQuery(await loopOptions(world, unlimited, { prompt: 'go', decide: allowAllDecider }));
      expect(unlimited.requests()[1]!.body.messages[2].content[0].content).toBe('0123456789'.repeat(50));
    } finally {
      await unlimited.close();
    }
  });
});
