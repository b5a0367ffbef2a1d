/**
 * Forks share the parent's request prefix: two forks of one turn send the parent's frozen system
 * blocks and exact tool definitions, the parent's conversation with its whole assistant message,
 * one fixed placeholder per tool_result, then their directive. Their requests are byte-identical
 * up to the directive, and read the parent's prefix from the (simulated) prompt cache.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { agentIdOf, lastUserText, reply, text, toolUse } from '../../testing/fake-model-script.js';
import {
  type FakeModel,
  type LoopWorld,
  loopOptions,
  makeEngine,
  makeLoopWorld,
  runQuery,
  startFakeModel,
} from '../../testing/loop-fixtures.js';
import { firstDifference, wirePrefix } from '../../testing/request-prefix.js';
import { FORK_PLACEHOLDER_RESULT } from '../fork.js';
import { toolsWithAgent } from './test-support.js';

let world: LoopWorld | undefined;
let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  world?.cleanup();
  model = undefined;
  world = undefined;
});

describe('two forks of one turn', () => {
  it('send byte-identical requests up to the directive, built from the parent request', async () => {
    world = makeLoopWorld();
    model = await startFakeModel(
      'anthropic',
      [
        reply.message([
          text('Splitting the work.'),
          toolUse('Agent', { description: 'Fork A', prompt: 'Count the files.', subagent_type: 'fork' }),
          toolUse('Agent', { description: 'Fork B', prompt: 'List the tests.', subagent_type: 'fork' }),
        ]),
        reply.text('Both launched.'),
        reply.text('Noted one.'),
        reply.text('Noted two.'),
      ],
      {
        routes: [
          {
            when: (r) => agentIdOf(r) !== undefined,
            script: (r) =>
              reply.text(lastUserText(r.body).includes('Count') ? 'Fork A done.' : 'Fork B done.'),
          },
        ],
      },
    );
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'Do two things at once',
        tools: await toolsWithAgent(),
        permissionEngine: makeEngine(world),
      }),
    );
    expect(run.results.length).toBeGreaterThanOrEqual(2);

    const requests = model.requests();
    const parentFirst = requests.find((r) => !r.headers['x-gantry-agent-id'])!;
    const forks = requests.filter((r) => r.headers['x-gantry-agent-id']);
    expect(forks).toHaveLength(2);
    const [a, b] = forks.map((f) => f.body);

    // The parent's exact system blocks and tools, byte for byte.
    for (const f of [a, b]) {
      expect(JSON.stringify(f.system)).toBe(JSON.stringify(parentFirst.body.system));
      expect(JSON.stringify(f.tools)).toBe(JSON.stringify(parentFirst.body.tools));
      expect(f.model).toBe(parentFirst.body.model);
    }
    // The parent's conversation, the whole assistant message, placeholders, then the directive.
    const last = a.messages.at(-1);
    expect(a.messages.at(-2).content.filter((x: any) => x.type === 'tool_use')).toHaveLength(2);
    const results = last.content.filter((x: any) => x.type === 'tool_result');
    expect(results).toHaveLength(2);
    for (const r of results) expect(r.content).toEqual([{ type: 'text', text: FORK_PLACEHOLDER_RESULT }]);
    expect(last.content.at(-1).text).toContain('Your directive: ');

    // Byte-identical up to the directive.
    const pa = wirePrefix(a);
    const pb = wirePrefix(b);
    const at = firstDifference(pa, pb);
    const directiveA = pa.lastIndexOf('Your directive: ');
    expect(at).toBeGreaterThan(directiveA);
    expect(pa.slice(0, at)).toBe(pb.slice(0, at));

    // Each fork reads the parent's prefix from the cache.
    for (const f of forks) expect(f.usage.cache_read_input_tokens).toBeGreaterThan(0);
    // The block before the directive keeps a breakpoint (4 markers in all), so the first fork
    // writes the shared context and the second reads all of it: only its directive is new.
    for (const f of forks) {
      const results = f.body.messages.at(-1).content;
      expect(results.at(-2).cache_control).toEqual({ type: 'ephemeral' });
      expect(results.at(-1).cache_control).toEqual({ type: 'ephemeral' });
      expect(JSON.stringify(f.body).split('"cache_control"').length - 1).toBe(4);
    }
    const [first, second] = forks.map((f) => f.usage);
    expect(second.cache_read_input_tokens).toBeGreaterThan(first.cache_read_input_tokens);
    const directiveTokens = Math.ceil(JSON.stringify(last.content.at(-1)).length / 4) + 8;
    expect(second.input_tokens + second.cache_creation_input_tokens).toBeLessThanOrEqual(directiveTokens);

    // The notifications reached the parent.
    const parentLater = requests.filter((r) => !r.headers['x-gantry-agent-id']).slice(2);
    const all = JSON.stringify(parentLater.map((r) => r.body.messages.at(-1)));
    expect(all).toContain('Fork A done.');
    expect(all).toContain('Fork B done.');
  });
});
