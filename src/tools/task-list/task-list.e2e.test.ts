/**
 * The task-list tools in `gantry -p` (the real bin against the scripted fake model server): the
 * list is kept beside the session's transcript under ~/.gantry/projects, and a TaskCreated command
 * hook from settings that exits 2 undoes the creation, its stderr reaching the model.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../../testing/fake-anthropic-server.js';
import { reply } from '../../testing/fake-model-script.js';
import {
  gantryEnv,
  makePrintWorld,
  PRINT_TEST_KEY,
  type PrintWorld,
  runGantry,
} from '../../testing/print-fixtures.js';

let world: PrintWorld;
let fake: FakeAnthropicServer | undefined;

beforeEach(() => {
  world = makePrintWorld();
});
afterEach(async () => {
  await fake?.close();
  fake = undefined;
  world.cleanup();
});

it('keeps the list beside the transcript; a blocking TaskCreated hook rolls the creation back', async () => {
  fake = await startFakeAnthropicServer({
    apiKey: PRINT_TEST_KEY,
    script: [
      reply.toolUse('TaskCreate', { subject: 'JIRA-1 write the parser', description: 'parse' }),
      reply.toolUse('TaskCreate', { subject: 'untracked', description: 'no ticket' }),
      reply.toolUse('TaskList', {}),
      reply.text('Listed.'),
    ],
  });
  // Blocks every task whose subject does not start with a ticket id (reads the hook input on stdin).
  const hook =
    `node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const i=JSON.parse(s);` +
    `if(!/^JIRA-/.test(i.task_subject)||i.hook_event_name!=='TaskCreated'){process.stderr.write('name a ticket');process.exit(2)}})"`;
  const settings = JSON.stringify({
    hooks: { TaskCreated: [{ hooks: [{ type: 'command', command: hook }] }] },
  });
  const r = await runGantry(
    ['-p', '--output-format', 'stream-json', '--verbose', '--settings', settings, 'plan the work'],
    { cwd: world.project, env: gantryEnv(world, fake) },
  );
  expect(r.code, r.stderr).toBe(0);
  const results = r
    .lines()
    .filter((l) => l.type === 'user' && Array.isArray(l.message?.content))
    .flatMap((l) => l.message.content.filter((b: any) => b.type === 'tool_result'));
  const text = (b: any) =>
    typeof b.content === 'string' ? b.content : b.content.map((x: any) => x.text).join('');
  expect(text(results[0])).toBe('Task #1 created successfully: JIRA-1 write the parser');
  expect(results[1].is_error).toBe(true);
  expect(text(results[1])).toContain('name a ticket');
  expect(text(results[2])).toBe('#1 [pending] JIRA-1 write the parser');
  const sessionId = r.lines()[0].session_id as string;
  const dir = path.join(world.gantryHome, 'projects', world.project.replace(/[^A-Za-z0-9]/g, '-'));
  expect(existsSync(path.join(dir, `${sessionId}.jsonl`))).toBe(true);
  const stored = JSON.parse(readFileSync(path.join(dir, sessionId, 'tasks', 'tasks.json'), 'utf8'));
  expect(stored.tasks.map((t: any) => t.subject)).toEqual(['JIRA-1 write the parser']);
});
