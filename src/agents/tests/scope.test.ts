/**
 * An agent definition's own `mcpServers` and `hooks`: a real stdio MCP server (the test server)
 * connected for the sub-agent's lifetime, its tools in the child's pool only, the process gone
 * when the child ends; the definition's PreToolUse, PostToolUse and Stop hooks (real shell
 * commands) run for that sub-agent only; a project definition's servers and hooks are left out
 * in an untrusted folder.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
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
import { processesMatching } from '../../testing/mcp-client-fixtures.js';
import { mcpTestServerCommand } from '../../testing/mcp-test-server.js';
import type { AgentDefinition } from '../definitions.js';
import { toolNames, toolsWithAgent } from './test-support.js';

let world: LoopWorld | undefined;
let model: FakeModel | undefined;
afterEach(async () => {
  await model?.close();
  world?.cleanup();
  model = undefined;
  world = undefined;
});

const childRequests = (m: FakeModel) => m.requests().filter((r) => r.headers['x-gantry-agent-id']);
const parentRequests = (m: FakeModel) => m.requests().filter((r) => !r.headers['x-gantry-agent-id']);

function metaFiles(w: LoopWorld): any[] {
  const out: any[] = [];
  const walk = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith('.meta.json')) out.push(JSON.parse(readFileSync(p, 'utf8')));
    }
  };
  walk(w.gantryHome);
  return out;
}

function scratchAgent(marker: string, source: AgentDefinition['source']): AgentDefinition {
  const cmd = mcpTestServerCommand({ toolCount: 0, name: marker });
  return {
    agentType: 'scratcher',
    whenToUse: 'Uses the scratch server.',
    prompt: 'You use the scratch server.',
    tools: ['Read'],
    mcpServers: [{ scratch: { command: cmd.command, args: cmd.args } }],
    source,
    ...(source === 'project' ? { filePath: '/repo/.claude/agents/scratcher.md' } : {}),
  };
}

describe("an agent definition's mcpServers", () => {
  it('connect for the sub-agent only, serve its calls, and close when it ends', async () => {
    world = makeLoopWorld();
    const marker = `scratch-${Math.random().toString(36).slice(2)}`;
    let liveDuringChild = -1;
    let childTurn = 0;
    model = await startFakeModel(
      'anthropic',
      [
        reply.toolUse('Agent', { description: 'Scratch', prompt: 'Echo hello.', subagent_type: 'scratcher' }),
        reply.text('Parent done.'),
      ],
      {
        routes: [
          {
            when: (r) => agentIdOf(r) !== undefined,
            script: () => {
              childTurn++;
              if (childTurn === 1) {
                liveDuringChild = processesMatching(marker).length;
                return reply.toolUse('mcp__scratch__echo', { message: 'hello from the child' });
              }
              return reply.text('Echoed.');
            },
          },
        ],
      },
    );
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'go',
        tools: await toolsWithAgent({ agents: [scratchAgent(marker, 'flag')] }),
        permissionEngine: makeEngine(world, { permissions: { allow: ['mcp__scratch__echo'] } }),
      }),
    );
    expect(run.results.at(-1)?.subtype).toBe('success');
    const [first, second] = childRequests(model);
    // The child's pool: its definition's tools plus its own server's; the parent never sees them.
    expect(toolNames(first!.body)).toContain('Read');
    expect(toolNames(first!.body)).toContain('mcp__scratch__echo');
    for (const r of parentRequests(model))
      expect(toolNames(r.body).some((n) => n.startsWith('mcp__scratch__'))).toBe(false);
    // The call reached the real server and its answer came back to the child.
    const result = second!.body.messages.at(-1).content[0];
    expect(result.type).toBe('tool_result');
    expect(JSON.stringify(result.content)).toContain('hello from the child');
    expect(result.is_error ?? false).toBe(false);
    // Alive while the child ran, gone once it ended.
    expect(liveDuringChild).toBeGreaterThan(0);
    expect(processesMatching(marker)).toEqual([]);
    const meta = metaFiles(world).find((m) => m.agentType === 'scratcher');
    expect(meta.mcpServers).toEqual([{ name: 'scratch', status: 'connected' }]);
  });

  it('of a project definition are left out in an untrusted folder, and the child is told why in its meta', async () => {
    world = makeLoopWorld();
    const marker = `scratch-${Math.random().toString(36).slice(2)}`;
    model = await startFakeModel(
      'anthropic',
      [
        reply.toolUse('Agent', { description: 'Scratch', prompt: 'Echo hello.', subagent_type: 'scratcher' }),
        reply.text('Parent done.'),
      ],
      { routes: [{ when: (r) => agentIdOf(r) !== undefined, script: [reply.text('No server.')] }] },
    );
    await runQuery(
      await loopOptions(world, model, {
        prompt: 'go',
        tools: await toolsWithAgent({
          agents: [scratchAgent(marker, 'project')],
          host: { projectTrusted: false },
        }),
        permissionEngine: makeEngine(world),
      }),
    );
    const [child] = childRequests(model);
    expect(toolNames(child!.body).some((n) => n.startsWith('mcp__scratch__'))).toBe(false);
    const meta = metaFiles(world).find((m) => m.agentType === 'scratcher');
    expect(meta.scopeNotes.join('\n')).toContain('the folder is not trusted');
    expect(processesMatching(marker)).toEqual([]);
  });
});

describe("an agent definition's hooks", () => {
  it('run for that sub-agent only: PreToolUse denies, PostToolUse logs, Stop sends it back once', async () => {
    world = makeLoopWorld();
    const log = path.join(world.root, 'post.log');
    const mark = path.join(world.root, 'stop-once');
    const file = path.join(world.project, 'notes.txt');
    writeFileSync(file, 'the notes\n');
    const definition: AgentDefinition = {
      agentType: 'careful',
      whenToUse: 'Reads carefully.',
      prompt: 'You read carefully.',
      source: 'flag',
      hooks: {
        PreToolUse: [
          {
            matcher: 'Bash',
            hooks: [{ type: 'command', command: 'echo "no shell for careful agents" >&2; exit 2' }],
          },
        ],
        PostToolUse: [
          {
            hooks: [
              {
                type: 'command',
                command: `node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>require("fs").appendFileSync(${JSON.stringify(log)}, JSON.parse(s).tool_name+"\\n"))'`,
              },
            ],
          },
        ],
        Stop: [
          {
            hooks: [
              {
                type: 'command',
                command: `if [ -f ${mark} ]; then exit 0; fi; touch ${mark}; echo "say which file you read" >&2; exit 2`,
              },
            ],
          },
        ],
      },
    };
    model = await startFakeModel(
      'anthropic',
      [
        reply.toolUse('Agent', {
          description: 'Careful',
          prompt: 'Read the notes.',
          subagent_type: 'careful',
        }),
        reply.toolUse('Bash', { command: 'echo parent-ran' }),
        reply.text('Parent done.'),
      ],
      {
        routes: [
          {
            when: (r) => agentIdOf(r) !== undefined,
            script: [
              reply.toolUse('Bash', { command: 'echo child-ran' }),
              reply.toolUse('Read', { file_path: file }),
              reply.text('Read it.'),
              reply.text('I read notes.txt.'),
            ],
          },
        ],
      },
    );
    const run = await runQuery(
      await loopOptions(world, model, {
        prompt: 'go',
        tools: await toolsWithAgent({ agents: [definition] }),
        permissionEngine: makeEngine(world, { permissions: { allow: ['Bash(echo:*)'] } }),
      }),
    );
    expect(run.results.at(-1)?.subtype).toBe('success');
    const child = childRequests(model);
    expect(child).toHaveLength(4);
    // PreToolUse of the definition denied the child's Bash call with the hook's reason …
    const bashResult = child[1]!.body.messages.at(-1).content[0];
    expect(bashResult.is_error).toBe(true);
    expect(JSON.stringify(bashResult.content)).toContain('no shell for careful agents');
    // … while the parent's own Bash call ran.
    const parentBash = parentRequests(model).at(-1)!.body.messages.at(-1).content[0];
    expect(JSON.stringify(parentBash.content)).toContain('parent-ran');
    // The Stop hook (run as SubagentStop) sent the child back once with its reason.
    const fed = JSON.stringify(child[3]!.body.messages.at(-1));
    expect(fed).toContain('SubagentStop hook feedback:');
    expect(fed).toContain('say which file you read');
    const agentResult = JSON.stringify(parentRequests(model)[1]!.body.messages.at(-1));
    expect(agentResult).toContain('I read notes.txt.');
    // PostToolUse ran for the child's successful Read only, not for the parent's Bash.
    expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual(['Read']);
  });

  it('are left out when settings allow only managed hooks (or none)', async () => {
    world = makeLoopWorld();
    const definition: AgentDefinition = {
      agentType: 'careful',
      whenToUse: 'Reads carefully.',
      prompt: 'You read carefully.',
      source: 'user',
      hooks: { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'exit 2' }] }] },
    };
    model = await startFakeModel(
      'anthropic',
      [
        reply.toolUse('Agent', { description: 'Careful', prompt: 'Run echo.', subagent_type: 'careful' }),
        reply.text('Parent done.'),
      ],
      {
        routes: [
          {
            when: (r) => agentIdOf(r) !== undefined,
            script: [reply.toolUse('Bash', { command: 'echo child-ran' }), reply.text('Ran it.')],
          },
        ],
      },
    );
    await runQuery(
      await loopOptions(world, model, {
        prompt: 'go',
        tools: await toolsWithAgent({ agents: [definition], host: { hooksAllowed: false } }),
        permissionEngine: makeEngine(world, { permissions: { allow: ['Bash(echo:*)'] } }),
      }),
    );
    const child = childRequests(model);
    expect(JSON.stringify(child[1]!.body.messages.at(-1).content[0].content)).toContain('child-ran');
    const meta = metaFiles(world).find((m) => m.agentType === 'careful');
    expect(meta.scopeNotes.join('\n')).toContain('hooks left out');
  });
});
