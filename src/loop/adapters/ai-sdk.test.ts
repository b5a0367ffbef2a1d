/**
 * The AI SDK adapter driven by the real `ai` 6 `generateText` against the scripted fake
 * OpenAI-compatible server (real SSE through `@ai-sdk/openai-compatible`): a call the engine
 * allows runs at once, a call it asks about stops with an approval request and runs (or not) on
 * the person's answer, a call a deny rule covers is refused without asking. The tools' effects are
 * read back from the disk, and what the model got from the fake's recorded requests.
 */
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { generateText, type ModelMessage, stepCountIs } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { reply, type ScriptEntry, toolUse } from '../../testing/fake-model-script.js';
import { type FakeOpenAIServer, startFakeOpenAIServer } from '../../testing/fake-openai-server.js';
import { aiSdkTools, approvedInMessages } from './ai-sdk.js';
import { createGantryToolset, type GantryToolset } from './toolset.js';

let root: string;
let project: string;
let fake: FakeOpenAIServer | undefined;
let toolset: GantryToolset | undefined;

beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-ai-sdk-')));
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
  fake = await startFakeOpenAIServer({ apiKey: 'sk-ai-sdk', script });
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
  const provider = createOpenAICompatible({ name: 'fake', baseURL: `${fake.url}/v1`, apiKey: 'sk-ai-sdk' });
  return { model: provider.chatModel('gpt-fake'), tools: aiSdkTools(toolset) };
}

/** The tool messages the model got in chat request `n`. */
function toolMessages(n: number): any[] {
  const body = fake?.requests.filter((r) => r.path.endsWith('/chat/completions'))[n]?.body;
  return (body?.messages ?? []).filter((m: any) => m.role === 'tool');
}

const bash = (command: string) => toolUse('Bash', { command, description: 'run it' });

describe('aiSdkTools with generateText', () => {
  it('a call the engine allows runs without an approval request', async () => {
    const { model, tools } = await setup([reply.message([bash('echo allowed-output')]), reply.text('Done.')]);
    const r = await generateText({ model, tools, prompt: 'echo', stopWhen: stepCountIs(4) });
    expect(r.text).toBe('Done.');
    expect(r.content.some((p) => p.type === 'tool-approval-request')).toBe(false);
    expect(JSON.stringify(toolMessages(1))).toContain('allowed-output');
  });

  it('a call the engine asks about stops for approval; approved, it runs', async () => {
    const { model, tools } = await setup([
      reply.message([bash('touch approved.txt')]),
      reply.text('Created.'),
    ]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'make a file' }];
    const first = await generateText({ model, tools, messages, stopWhen: stepCountIs(4) });
    const ask = first.content.find((p) => p.type === 'tool-approval-request');
    expect(ask).toBeDefined();
    expect(existsSync(path.join(project, 'approved.txt'))).toBe(false);
    messages.push(...first.response.messages, {
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: (ask as any).approvalId, approved: true }],
    });
    const second = await generateText({ model, tools, messages, stopWhen: stepCountIs(4) });
    expect(second.text).toBe('Created.');
    expect(existsSync(path.join(project, 'approved.txt'))).toBe(true);
  });

  it('a call the engine asks about and the person refuses never runs; the model gets the reason', async () => {
    const { model, tools } = await setup([reply.message([bash('touch refused.txt')]), reply.text('Fine.')]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'make a file' }];
    const first = await generateText({ model, tools, messages, stopWhen: stepCountIs(4) });
    const ask = first.content.find((p) => p.type === 'tool-approval-request') as any;
    messages.push(...first.response.messages, {
      role: 'tool',
      content: [
        {
          type: 'tool-approval-response',
          approvalId: ask.approvalId,
          approved: false,
          reason: 'not in my repo',
        },
      ],
    });
    const second = await generateText({ model, tools, messages, stopWhen: stepCountIs(4) });
    expect(second.text).toBe('Fine.');
    expect(existsSync(path.join(project, 'refused.txt'))).toBe(false);
    expect(JSON.stringify(toolMessages(1))).toContain('not in my repo');
  });

  it('the approval is found in the messages by a fresh tool set (another process answering)', async () => {
    const { model, tools } = await setup([
      reply.message([bash('touch later.txt')]),
      reply.text('Created later.'),
    ]);
    const messages: ModelMessage[] = [{ role: 'user', content: 'make a file' }];
    const first = await generateText({ model, tools, messages, stopWhen: stepCountIs(4) });
    const ask = first.content.find((p) => p.type === 'tool-approval-request') as any;
    messages.push(...first.response.messages, {
      role: 'tool',
      content: [{ type: 'tool-approval-response', approvalId: ask.approvalId, approved: true }],
    });
    const fresh = aiSdkTools(toolset as GantryToolset);
    const second = await generateText({ model, tools: fresh, messages, stopWhen: stepCountIs(4) });
    expect(second.text).toBe('Created later.');
    expect(existsSync(path.join(project, 'later.txt'))).toBe(true);
  });

  it('execute without an approval for a call the engine asks about refuses it (fail closed)', async () => {
    const { tools } = await setup([]);
    const run = tools.Bash?.execute?.(
      { command: 'touch sneaky.txt', description: 'x' },
      { toolCallId: 'call_x', messages: [] },
    );
    await expect(Promise.resolve(run)).rejects.toThrow(/needs approval/);
    expect(existsSync(path.join(project, 'sneaky.txt'))).toBe(false);
  });

  it('a call a deny rule covers is refused by the engine without asking', async () => {
    writeFileSync(path.join(project, 'keep.txt'), 'x');
    const { model, tools } = await setup([reply.message([bash('rm keep.txt')]), reply.text('Could not.')], {
      permissions: { deny: ['Bash(rm:*)'] },
    });
    const r = await generateText({ model, tools, prompt: 'delete', stopWhen: stepCountIs(4) });
    expect(r.content.some((p) => p.type === 'tool-approval-request')).toBe(false);
    expect(existsSync(path.join(project, 'keep.txt'))).toBe(true);
    const sent = JSON.stringify(toolMessages(1));
    expect(sent).toContain('denied');
    expect(sent).toContain('Bash(rm:*)');
  });
});

describe('approvedInMessages', () => {
  const request = {
    role: 'assistant',
    content: [{ type: 'tool-approval-request', approvalId: 'a1', toolCallId: 'c1' }],
  };
  it.each([
    { why: 'approved response for the call', answer: true, id: 'c1', want: true },
    { why: 'refused response', answer: false, id: 'c1', want: false },
    { why: 'another call id', answer: true, id: 'c2', want: false },
  ])('$why', ({ answer, id, want }) => {
    const messages = [
      request,
      { role: 'tool', content: [{ type: 'tool-approval-response', approvalId: 'a1', approved: answer }] },
    ];
    expect(approvedInMessages(messages, id)).toBe(want);
  });
  it('no response at all is not an approval', () => {
    expect(approvedInMessages([request], 'c1')).toBe(false);
  });
});
