/**
 * Library demo (`npx tsx examples/demo.ts`): declare two tools, run one assistant turn of tool calls through
 * `createToolRuntime`, and print the `tool_result` blocks the model would receive.
 *
 * - `WordCount` is read-only and concurrency-safe: the two WordCount calls run together.
 * - `AppendNote` writes a file: it runs alone, reports progress, and needs permission — the
 *   decider below allows read-only calls and asks about the rest; the host (`canUseTool`) approves.
 * - A call to a tool that does not exist and a call with a bad input show the error results.
 */
import { appendFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import {
  askAllDecider,
  buildTool,
  type CanUseTool,
  createToolRuntime,
  type PermissionDecider,
  type ToolUseBlock,
  toolDefinitions,
} from '../src/index.js';

const WordCount = buildTool({
  name: 'WordCount',
  description: 'Count the words in a text.',
  inputSchema: z.strictObject({ text: z.string().describe('The text to count words in.') }),
  isReadOnly: (_input: { text: string }) => true,
  isConcurrencySafe: (_input: { text: string }) => true,
  async *call(input: { text: string }) {
    return { data: input.text.split(/\s+/).filter(Boolean).length };
  },
  mapToolResultToContent: (count: number) => `${count} words`,
});

function appendNoteTool(notesFile: string) {
  return buildTool({
    name: 'AppendNote',
    description: 'Append one line to the session notes file.',
    inputSchema: z.strictObject({ line: z.string().min(1).describe('The line to append.') }),
    async *call(input: { line: string }) {
      yield { status: `appending to ${path.basename(notesFile)}` };
      await appendFile(notesFile, `${input.line}\n`, 'utf8');
      return { data: `Appended "${input.line}" to ${path.basename(notesFile)}.` };
    },
  });
}

/** Read-only calls are allowed; anything else goes to the host (a stand-in for the real engine). */
const decide: PermissionDecider = async (request) =>
  request.isReadOnly
    ? { behavior: 'allow', reason: { type: 'read-only', message: 'Read-only call.' } }
    : askAllDecider(request);

/** The host: prints the question and approves (a real host would prompt a person). */
const canUseTool: CanUseTool = async (tool, input, decision) => {
  console.log(`  [host] ${tool.name} ${JSON.stringify(input)} asks: ${decision.reason.message} → allow`);
  return { behavior: 'allow' };
};

const workDir = await mkdtemp(path.join(tmpdir(), 'gantry-demo-'));
try {
  const notesFile = path.join(workDir, 'notes.txt');
  const tools = [WordCount, appendNoteTool(notesFile)];
  const runtime = createToolRuntime({
    tools,
    cwd: workDir,
    sessionDir: path.join(workDir, 'session'),
    decide,
    canUseTool,
  });

  console.log('Tools offered to the model:');
  for (const definition of toolDefinitions(tools))
    console.log(`  ${definition.name}: ${JSON.stringify(definition.input_schema)}`);

  const turn: ToolUseBlock[] = [
    { type: 'tool_use', id: 'toolu_01', name: 'WordCount', input: { text: 'the quick brown fox' } },
    { type: 'tool_use', id: 'toolu_02', name: 'WordCount', input: { text: 'jumps over the lazy dog' } },
    { type: 'tool_use', id: 'toolu_03', name: 'AppendNote', input: { line: 'counted two sentences' } },
    { type: 'tool_use', id: 'toolu_04', name: 'Translate', input: { text: 'hola' } },
    { type: 'tool_use', id: 'toolu_05', name: 'AppendNote', input: { line: '' } },
  ];

  console.log('\nRunning one turn:');
  for await (const update of runtime.runTools(turn)) {
    if (update.type === 'progress')
      console.log(`  [progress] ${update.event.toolName}: ${JSON.stringify(update.event.data)}`);
    if (update.type === 'result') console.log(`  ${JSON.stringify(update.block)}`);
  }
  console.log(
    `\n${path.basename(notesFile)} now holds: ${JSON.stringify(await readFile(notesFile, 'utf8'))}`,
  );
} finally {
  await rm(workDir, { recursive: true, force: true });
}
