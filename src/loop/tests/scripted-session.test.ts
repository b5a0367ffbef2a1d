/**
 * Scripted sessions end to end: the loop drives the real SDK against the fake Messages API (and the
 * fake OpenAI-compatible endpoint), real tools change real files, the real permission engine
 * decides. What a `gantry -p` run does, minus the CLI.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { reply, text, toolUse } from '../../testing/fake-model-script.js';
import {
  type FakeModel,
  type LoopWorld,
  loopOptions,
  makeEngine,
  makeLoopWorld,
  type Provider,
  runQuery,
  startFakeModel,
} from '../../testing/loop-fixtures.js';

let world: LoopWorld | undefined;
let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  world?.cleanup();
  model = undefined;
  world = undefined;
});

describe.each<Provider>(['anthropic', 'openai'])(
  'a multi-turn Read/Grep/Bash/Edit session (%s)',
  (provider) => {
    it('runs every call, sends every result back, and ends with a success result', async () => {
      world = makeLoopWorld();
      const file = path.join(world.project, 'greet.ts');
      writeFileSync(file, 'export const greeting = "helo";\n');
      model = await startFakeModel(provider, [
        reply.message([text('Let me look.'), toolUse('Read', { file_path: file })]),
        reply.toolUse('Grep', { pattern: 'helo', path: world.project, output_mode: 'content' }),
        reply.toolUse('Edit', { file_path: file, old_string: '"helo"', new_string: '"hello"' }),
        reply.toolUse('Bash', { command: 'cat greet.ts', description: 'Show the file' }),
        reply.text('Fixed the typo.'),
      ]);
      const engine = makeEngine(world, { permissions: { allow: ['Edit'] } });
      const run = await runQuery(
        await loopOptions(world, model, { prompt: 'Fix the typo in greet.ts', permissionEngine: engine }),
      );

      expect(readFileSync(file, 'utf8')).toBe('export const greeting = "hello";\n');
      const [result] = run.results;
      expect(result).toMatchObject({
        type: 'result',
        subtype: 'success',
        is_error: false,
        result: 'Fixed the typo.',
        num_turns: 5,
        stop_reason: 'end_turn',
        terminal_reason: 'completed',
        permission_denials: [],
      });
      expect(run.of('system', 'init')).toHaveLength(1);
      const toolResults = run.of('user').filter((e) => Array.isArray(e.message.content));
      expect(toolResults.map((e) => (e.message.content as any[])[0].is_error ?? false)).toEqual([
        false,
        false,
        false,
        false,
      ]);
      expect(toolResults[0]?.tool_use_result).toMatchObject({ type: 'text', file: { filePath: file } });
      expect(String((toolResults[3]?.message.content as any[])[0].content)).toContain('"hello"');
      // Each request carries the whole conversation; the last one has 4 tool rounds.
      const requests = model.requests();
      expect(requests).toHaveLength(5);
      const last = requests[4]!.body;
      const messages =
        provider === 'anthropic' ? last.messages : last.messages.filter((m: any) => m.role !== 'system');
      expect(messages.length).toBeGreaterThanOrEqual(9);
      expect(result!.total_cost_usd).toBeGreaterThan(0);
      expect(Object.keys(result!.modelUsage)).toHaveLength(1);
    });
  },
);
