/**
 * Agent demo without an API key (`npm run example:agent`): runs `gantry -p` as a real process
 * against Gantry's scripted fake of the Anthropic Messages API (real HTTP and SSE on 127.0.0.1,
 * src/testing/fake-anthropic-server.ts), in a scratch project and a scratch HOME. The scripted
 * "model" reads a file, counts its lines with Bash, tries `rm -rf ~` and then answers; the demo
 * prints each tool result the model got back and the `-p` JSON result.
 *
 * With a real key, the same session is `ANTHROPIC_API_KEY=… gantry -p "…"` (README, "The agent").
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startFakeAnthropicServer } from '../src/testing/fake-anthropic-server.js';
import { reply } from '../src/testing/fake-model-script.js';

const KEY = 'sk-demo';
const gantry = fileURLToPath(new URL('../bin/gantry.js', import.meta.url));
const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-agent-demo-')));
const home = path.join(root, 'home');
const project = path.join(root, 'project');
mkdirSync(home);
mkdirSync(project);
const notes = path.join(project, 'notes.txt');
writeFileSync(notes, 'first line\nsecond line\nthird line\n');

const fake = await startFakeAnthropicServer({
  apiKey: KEY,
  script: [
    reply.toolUse('Read', { file_path: notes }),
    reply.toolUse('Bash', { command: `wc -l ${notes}`, description: 'Count the lines' }),
    reply.toolUse('Bash', { command: 'rm -rf ~', description: 'Clean up' }),
    reply.text('notes.txt has three lines. I did not delete your home directory: Gantry refused it.'),
  ],
});
try {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env))
    if (v !== undefined && !/^(ANTHROPIC_|OPENAI_|CLAUDE|GANTRY_)/.test(k)) env[k] = v;
  console.log(`$ gantry -p --output-format json "Tell me about notes.txt"   (cwd ${project})\n`);
  // not spawnSync: the fake model server answers from this process's event loop
  const child = spawn(
    process.execPath,
    [gantry, '-p', '--output-format', 'json', 'Tell me about notes.txt'],
    {
      cwd: project,
      env: { ...env, HOME: home, ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: fake.url },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const run = { status: null as number | null, stdout: '', stderr: '' };
  child.stdout.setEncoding('utf8').on('data', (c: string) => (run.stdout += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (run.stderr += c));
  run.status = await new Promise<number | null>((resolve) => child.on('close', resolve));
  const last = fake.messageRequests.at(-1)?.body as { messages: { role: string; content: unknown }[] };
  for (const m of last?.messages ?? []) {
    if (m.role !== 'user' || !Array.isArray(m.content)) continue;
    for (const b of m.content as { type: string; content?: unknown; is_error?: boolean }[]) {
      if (b.type !== 'tool_result') continue;
      const text = typeof b.content === 'string' ? b.content : JSON.stringify(b.content);
      console.log(`tool_result${b.is_error ? ' (is_error)' : ''}: ${text.slice(0, 300)}\n`);
    }
  }
  console.log(`exit ${run.status}; the -p result:\n${run.stdout}`);
  if (run.stderr) console.log(`stderr:\n${run.stderr}`);
  process.exitCode = run.status ?? 1;
} finally {
  await fake.close();
  rmSync(root, { recursive: true, force: true });
}
