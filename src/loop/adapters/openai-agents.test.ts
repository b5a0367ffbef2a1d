/**
 * The OpenAI Agents SDK adapter driven by the real `@openai/agents` runner against the scripted
 * fake OpenAI-compatible server (real SSE, Chat Completions through the real `openai` client): a
 * call the engine allows runs at once, a call it asks about interrupts the run and runs (or not)
 * on approve/reject, a call a deny rule covers is refused without an interruption. Effects are
 * read back from the disk; what the model got, from the fake's recorded requests.
 */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, OpenAIProvider, Runner, setTracingDisabled } from '@openai/agents';
import OpenAI from 'openai';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { reply, type ScriptEntry, toolUse } from '../../testing/fake-model-script.js';
import { type FakeOpenAIServer, startFakeOpenAIServer } from '../../testing/fake-openai-server.js';
import { openAIAgentsTools } from './openai-agents.js';
import { createGantryToolset, type GantryToolset } from './toolset.js';

let root: string;
let project: string;
let fake: FakeOpenAIServer | undefined;
let toolset: GantryToolset | undefined;

beforeAll(() => setTracingDisabled(true));
beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-agents-')));
  project = path.join(root, 'project');
  mkdirSync(path.join(root, 'home'), { recursive: true });
  mkdirSync(project, { recursive: true });
});
afterEach(async () => {
  await toolset?.dispose();
  toolset = undefined;
  await fake?.close();
  fake = undefined;
  rmSync(root, { recursive: true, force: true });
});

async function setup(script: ScriptEntry[], settings?: unknown) {
  fake = await startFakeOpenAIServer({ apiKey: 'sk-agents', script });
  const files: string[] = [];
  if (settings) {
    const file = path.join(root, 'settings.json');
    writeFileSync(file, JSON.stringify(settings));
    files.push(file);
  }
  toolset = await createGantryToolset({
    cwd: project,
    home: path.join(root, 'home'),
    toolNames: ['Bash', 'Read'],
    settingsFiles: files,
    managedFiles: [],
    sessionDir: path.join(root, 'session'),
  });
  const client = new OpenAI({ baseURL: `${fake.url}/v1`, apiKey: 'sk-agents', maxRetries: 0 });
  const runner = new Runner({
    modelProvider: new OpenAIProvider({ openAIClient: client, useResponses: false }),
    tracingDisabled: true,
  });
  const agent = new Agent({
    name: 'coder',
    instructions: 'Use the tools.',
    model: 'gpt-fake',
    tools: openAIAgentsTools(toolset),
  });
  return { agent, runner };
}

/** The tool messages the model got in chat request `n`. */
function toolMessages(n: number): any[] {
  const body = fake?.modelRequests[n]?.body;
  return (body?.messages ?? []).filter((m: any) => m.role === 'tool');
}

const bash = (command: string) => toolUse('Bash', { command, description: 'run it' });

describe('openAIAgentsTools with the Agents SDK runner', () => {
  it('a call the engine allows runs without an interruption', async () => {
    const { agent, runner } = await setup([
      reply.message([bash('echo allowed-output')]),
      reply.text('Done.'),
    ]);
    const r = await runner.run(agent, 'echo');
    expect(r.interruptions ?? []).toEqual([]);
    expect(r.finalOutput).toBe('Done.');
    expect(JSON.stringify(toolMessages(1))).toContain('allowed-output');
  });

  it('a call the engine asks about interrupts the run; approved, it runs', async () => {
    const { agent, runner } = await setup([
      reply.message([bash('touch approved.txt')]),
      reply.text('Created.'),
    ]);
    const first = await runner.run(agent, 'make a file');
    expect(first.interruptions).toHaveLength(1);
    expect(first.interruptions?.[0]?.name).toBe('Bash');
    expect(existsSync(path.join(project, 'approved.txt'))).toBe(false);
    for (const i of first.interruptions ?? []) first.state.approve(i);
    const second = await runner.run(agent, first.state);
    expect(second.finalOutput).toBe('Created.');
    expect(existsSync(path.join(project, 'approved.txt'))).toBe(true);
  });

  it('a call the engine asks about and the person rejects never runs', async () => {
    const { agent, runner } = await setup([reply.message([bash('touch refused.txt')]), reply.text('Fine.')]);
    const first = await runner.run(agent, 'make a file');
    for (const i of first.interruptions ?? []) first.state.reject(i);
    const second = await runner.run(agent, first.state);
    expect(second.finalOutput).toBe('Fine.');
    expect(existsSync(path.join(project, 'refused.txt'))).toBe(false);
    expect(toolMessages(1)).toHaveLength(1);
  });

  it('a call a deny rule covers is refused by the engine without an interruption', async () => {
    writeFileSync(path.join(project, 'keep.txt'), 'x');
    const { agent, runner } = await setup([reply.message([bash('rm keep.txt')]), reply.text('Could not.')], {
      permissions: { deny: ['Bash(rm:*)'] },
    });
    const r = await runner.run(agent, 'delete');
    expect(r.interruptions ?? []).toEqual([]);
    expect(existsSync(path.join(project, 'keep.txt'))).toBe(true);
    const sent = JSON.stringify(toolMessages(1));
    expect(sent).toContain('denied');
    expect(sent).toContain('Bash(rm:*)');
  });

  it('execute without an approval for a call the engine asks about refuses it (fail closed)', async () => {
    await setup([]);
    const bashTool = openAIAgentsTools(toolset as GantryToolset).find((t) => t.name === 'Bash');
    const out = await (bashTool as any).invoke(
      { isToolApproved: () => undefined, toolInput: undefined },
      JSON.stringify({ command: 'touch sneaky.txt', description: 'x' }),
      { toolCall: { type: 'function_call', callId: 'call_x', name: 'Bash', arguments: '{}' } },
    );
    expect(String(out)).toMatch(/needs approval/);
    expect(existsSync(path.join(project, 'sneaky.txt'))).toBe(false);
  });
});
