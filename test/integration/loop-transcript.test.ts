/**
 * A session's transcript end to end: written by the loop under ~/.gantry/projects/<slug>/ (never
 * under ~/.claude), read back by `gantry replay`'s reader (every call with its outcome, denials
 * included), and restored by `resumeSession` so the resumed session's next request is
 * byte-identical to what the original session would have sent.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readRecordedCalls } from '../../src/cli/replay/transcript-reader.js';
import { createInputQueue } from '../../src/loop/input-queue.js';
import { projectSlug } from '../../src/loop/transcript/paths.js';
import { readTranscriptLines, resumeSession } from '../../src/loop/transcript/reader.js';
import { reply, text, toolUse } from '../../src/testing/fake-model-script.js';
import {
  type FakeModel,
  type LoopWorld,
  loopOptions,
  makeEngine,
  makeLoopWorld,
  runQuery,
  startFakeModel,
} from '../../src/testing/loop-fixtures.js';

let world: LoopWorld | undefined;
const models: FakeModel[] = [];
afterEach(async () => {
  for (const m of models.splice(0)) await m.close();
  world?.cleanup();
  world = undefined;
});

async function fake(script: Parameters<typeof startFakeModel>[1]): Promise<FakeModel> {
  const m = await startFakeModel('anthropic', script);
  models.push(m);
  return m;
}

describe('transcripts', () => {
  it('are written under ~/.gantry/projects/<slug>/ and gantry replay reads every call with its outcome', async () => {
    world = makeLoopWorld();
    const file = path.join(world.project, 'a.txt');
    writeFileSync(file, 'alpha\n');
    const model = await fake([
      reply.message([text('Reading.'), toolUse('Read', { file_path: file }, { id: 'toolu_r' })]),
      reply.message([
        toolUse('Bash', { command: `rm ${file}` }, { id: 'toolu_rm' }),
        toolUse('Grep', { pattern: 'alpha', path: world.project }, { id: 'toolu_g' }),
      ]),
      reply.text('done'),
    ]);
    const run = await runQuery(
      await loopOptions(world, model, { prompt: 'inspect', permissionEngine: makeEngine(world) }),
    );
    const transcript = run.result.transcriptPath as string;
    expect(transcript).toBe(
      path.join(
        world.home,
        '.gantry',
        'projects',
        projectSlug(world.project),
        `${run.result.sessionId}.jsonl`,
      ),
    );
    expect(existsSync(path.join(world.home, '.claude'))).toBe(false);

    const calls = await readRecordedCalls(transcript);
    expect(calls.map((c) => [c.toolUseId, c.tool, c.outcome, c.cwd])).toEqual([
      ['toolu_r', 'Read', 'executed', world.project],
      ['toolu_rm', 'Bash', 'denied', world.project],
      ['toolu_g', 'Grep', 'executed', world.project],
    ]);
    expect(existsSync(file)).toBe(true);

    // The file is Claude Code's line layout: tool results parented to their tool_use line.
    const { lines } = readTranscriptLines(transcript);
    const byUuid = new Map(lines.filter((l) => typeof l.uuid === 'string').map((l) => [l.uuid as string, l]));
    const results = lines.filter((l) => l.type === 'user' && 'toolUseResult' in l);
    expect(results).toHaveLength(3);
    for (const r of results) {
      const parent = byUuid.get(r.parentUuid as string) as any;
      const id = (r.message as any).content[0].tool_use_id;
      expect(parent.type).toBe('assistant');
      expect(parent.message.content[0].id).toBe(id);
      expect(r.sourceToolAssistantUUID).toBe(parent.uuid);
    }
    const read = results.find((r) => (r.message as any).content[0].tool_use_id === 'toolu_r') as any;
    expect(read.toolUseResult).toMatchObject({ type: 'text', file: { filePath: file, content: 'alpha\n' } });
  });

  it('a torn last line (a crash mid-write) does not stop replay or resume', async () => {
    world = makeLoopWorld();
    const model = await fake([
      reply.toolUse('Bash', { command: 'echo hi' }, { id: 'toolu_1' }),
      reply.text('ok'),
    ]);
    const run = await runQuery(
      await loopOptions(world, model, { prompt: 'go', permissionEngine: makeEngine(world) }),
    );
    const transcript = run.result.transcriptPath as string;
    writeFileSync(transcript, `${readFileSync(transcript, 'utf8')}{"type":"assistant","uuid":"torn`);
    expect((await readRecordedCalls(transcript)).map((c) => c.toolUseId)).toEqual(['toolu_1']);
    const resumed = resumeSession(transcript);
    expect(resumed.stats.tornLastLine).toBe(true);
    expect(resumed.messages).toEqual(run.result.messages);
  });

  it('a resumed session sends the same request bytes the original session would have sent', async () => {
    world = makeLoopWorld();
    writeFileSync(path.join(world.project, 'CLAUDE.md'), 'Project rule: be terse.');
    const script = () => [
      reply.message([text('Looking.'), toolUse('Bash', { command: 'echo one' }, { id: 'toolu_a' })]),
      reply.text('First answer.'),
      reply.text('Second answer.'),
    ];
    const now = () => new Date(2030, 0, 15, 9, 30);
    const sessionId = '0f0e0d0c-0b0a-4909-8807-060504030201';

    // A: both prompts in one session.
    const a = await fake(script());
    const input = createInputQueue();
    input.push('first prompt');
    await runQuery(
      await loopOptions(world, a, {
        prompt: input,
        sessionId,
        now,
        permissionEngine: makeEngine(world, { permissions: { allow: ['Bash(echo:*)'] } }),
        transcript: { gantryHome: path.join(world.root, 'gantry-a') },
      }),
      (e) => {
        if (e.type === 'result') {
          if (e.result_index === 0) input.push('second prompt');
          else input.close();
        }
      },
    );
    const expected = a.requests()[2]!;

    // B: the first prompt, then a new process resumes from the file and sends the second.
    const b1 = await fake(script().slice(0, 2));
    const first = await runQuery(
      await loopOptions(world, b1, {
        prompt: 'first prompt',
        sessionId,
        now,
        permissionEngine: makeEngine(world, { permissions: { allow: ['Bash(echo:*)'] } }),
        transcript: { gantryHome: path.join(world.root, 'gantry-b') },
      }),
    );
    // The memory file changes between the runs: the resumed session keeps the prompt it started with.
    writeFileSync(path.join(world.project, 'CLAUDE.md'), 'Project rule: changed later.');
    const resumed = resumeSession(first.result.transcriptPath as string);
    const b2 = await fake([reply.text('Second answer.')]);
    const second = await runQuery(
      await loopOptions(world, b2, {
        prompt: 'second prompt',
        resume: resumed,
        now: () => new Date(2030, 5, 1),
        permissionEngine: makeEngine(world, { permissions: { allow: ['Bash(echo:*)'] } }),
      }),
    );
    const got = b2.requests()[0]!;
    expect(got.body.system).toEqual(expected.body.system);
    expect(got.body.tools).toEqual(expected.body.tools);
    expect(JSON.stringify(got.body)).toBe(JSON.stringify(expected.body));
    expect(second.results[0]).toMatchObject({ result: 'Second answer.', result_index: 0 });
    expect(second.result.sessionId).toBe(sessionId);
    // Same file, continued: one session, one transcript.
    expect(second.result.transcriptPath).toBe(first.result.transcriptPath);
    const dir = path.dirname(first.result.transcriptPath as string);
    expect(readdirSync(dir)).toEqual([`${sessionId}.jsonl`]);
    const again = resumeSession(first.result.transcriptPath as string);
    expect(again.messages).toEqual(second.result.messages);
    expect(again.costState?.totalCostUSD).toBeCloseTo(second.results[0]!.total_cost_usd, 10);
  });
});
