/**
 * bench/agents: how much of a fork's request its parent's prompt cache serves, on the scripted
 * fake Messages API (real SDK, real HTTP + SSE) with its simulated prompt cache, Gantry's real
 * tools and permission engine.
 *
 * One parent turn starts N = 4 forks (one assistant message, four Agent calls with
 * `subagent_type: "fork"`). Reported:
 * 1. per fork: the share of its first request's input tokens read from the cache
 *    (cache_read / (input + cache_creation + cache_read)); goal ≥ 95% for every fork;
 * 2. the first character where two forks' requests differ, in `JSON.stringify({tools, system,
 *    messages})`, and whether it lies inside the directive (goal: yes). Claude Code 2.1.332's forks
 *    first differ before their directive (at the spawning tool_use id, 97.3% into the prefix),
 *    because each fork keeps only its own tool_use;
 * 3. baselines in the same run: a fresh general-purpose child's first request (its own system
 *    prompt and tool list), whose share shows what a non-fork sub-agent gets from the cache; and
 *    the same forks without the shared-prefix breakpoint (`ModelRequest.sharedPrefixEnd` dropped
 *    on the way to the client), where every fork reads only the parent's prefix.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createAgentTool } from '../src/agents/index.js';
import type { ModelClient, ModelRequest } from '../src/core/model-client.js';
import { query } from '../src/loop/query.js';
import { AnthropicModelClient } from '../src/model/anthropic/client.js';
import { createPermissionEngine } from '../src/permissions/engine.js';
import { settingsFromRules } from '../src/permissions/settings/from-rules.js';
import { startFakeAnthropicServer } from '../src/testing/fake-anthropic-server.js';
import { agentIdOf, lastUserText, reply, text, toolUse } from '../src/testing/fake-model-script.js';
import { firstDifference, wirePrefix } from '../src/testing/request-prefix.js';
import { getAllBaseTools } from '../src/tools/index.js';
import type { BenchReport } from './run.js';

const KEY = 'sk-bench-agents';

function share(usage: any): number {
  const total =
    (usage.input_tokens ?? 0) +
    (usage.cache_creation_input_tokens ?? 0) +
    (usage.cache_read_input_tokens ?? 0);
  return total ? (usage.cache_read_input_tokens ?? 0) / total : 0;
}

interface Scenario {
  label: string;
  forks: number;
  /** Bytes of a file the parent reads in an earlier turn (0: the forks come in the first turn). */
  readBytes: number;
  /** Drop the shared-prefix breakpoint (the baseline). */
  withoutSharedBreakpoint?: boolean;
}

/** The client with `sharedPrefixEnd` removed from every request. */
function withoutSharedPrefix(client: ModelClient): ModelClient {
  const strip = (r: ModelRequest): ModelRequest => {
    const { sharedPrefixEnd: _dropped, ...rest } = r;
    return rest;
  };
  return {
    provider: client.provider,
    stream: (r, o) => client.stream(strip(r), o),
    countTokens: (r, o) => client.countTokens(strip(r), o),
  };
}

async function measure(sc: Scenario) {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-bench-agents-')));
  const home = path.join(root, 'home');
  const project = path.join(home, 'project');
  mkdirSync(project, { recursive: true });
  const file = path.join(project, 'notes.txt');
  writeFileSync(
    file,
    `${'a line of project notes, repeated for size\n'.repeat(Math.ceil(sc.readBytes / 43))}`,
  );
  const forkCalls = Array.from({ length: sc.forks }, (_, i) =>
    toolUse('Agent', { description: `Fork ${i}`, prompt: `Side task number ${i}.`, subagent_type: 'fork' }),
  );
  const server = await startFakeAnthropicServer({
    apiKey: KEY,
    script: [
      ...(sc.readBytes ? [reply.toolUse('Read', { file_path: file })] : []),
      reply.message([text('Splitting the work.'), ...forkCalls]),
      reply.message([toolUse('Agent', { description: 'Fresh', prompt: 'A fresh side task.' })]),
      ...Array.from({ length: sc.forks + 4 }, () => reply.text('Noted.')),
    ],
    routes: [
      {
        when: (r) => agentIdOf(r) !== undefined,
        script: (r) => reply.text(`Done: ${lastUserText(r.body).slice(-20)}`),
      },
    ],
  });
  try {
    const real = new AnthropicModelClient({
      apiKey: KEY,
      baseURL: server.url,
      retry: { baseDelayMs: 1, jitter: 0 },
    });
    const client = sc.withoutSharedBreakpoint ? withoutSharedPrefix(real) : real;
    const engine = createPermissionEngine({
      settings: settingsFromRules({ projectRoot: project, home, pathRoot: '/' }),
    });
    const q = query({
      prompt: 'Do several things at once',
      modelClient: client,
      model: 'claude-haiku-4-5',
      tools: [createAgentTool(), ...(await getAllBaseTools())],
      cwd: project,
      home,
      permissionEngine: engine,
      transcript: { persist: false },
    });
    for await (const _ of q) {
      // drain
    }
    const children = server.messageRequests.filter((r) => r.headers['x-gantry-agent-id']);
    const forks = children.filter((r) => JSON.stringify(r.body.messages).includes('Your directive: '));
    const fresh = children.find((r) => !JSON.stringify(r.body.messages).includes('Your directive: '));
    const shares = forks.map((f) => share(f.usage));
    const a = wirePrefix(forks[0]!.body);
    const b = wirePrefix(forks[1]!.body);
    return {
      shares,
      length: a.length,
      at: firstDifference(a, b),
      directive: a.lastIndexOf('Your directive: '),
      fresh: fresh ? share(fresh.usage) : undefined,
    };
  } finally {
    await server.close();
    rmSync(root, { recursive: true, force: true });
  }
}

const SCENARIOS: Scenario[] = [
  { label: 'first turn, 4 forks', forks: 4, readBytes: 0 },
  { label: 'first turn, 2 forks', forks: 2, readBytes: 0 },
  { label: 'after an 8 KB Read, 4 forks', forks: 4, readBytes: 8_000 },
  {
    label: 'baseline: first turn, 4 forks, no shared-prefix breakpoint',
    forks: 4,
    readBytes: 0,
    withoutSharedBreakpoint: true,
  },
];

export default async function run(): Promise<BenchReport> {
  const figures: Record<string, number | string> = {};
  const targets: Record<string, boolean> = {};
  const uncached: Record<string, number> = {};
  for (const sc of SCENARIOS) {
    const m = await measure(sc);
    m.shares.forEach((s, i) => {
      figures[`${sc.label}: fork ${i} cache share %`] = s * 100;
    });
    figures[`${sc.label}: request length chars`] = m.length;
    figures[`${sc.label}: first difference fork 0 vs 1 at char`] = m.at;
    figures[`${sc.label}: first difference at % of request`] = (m.at / m.length) * 100;
    figures[`${sc.label}: directive starts at char`] = m.directive;
    figures[`${sc.label}: fresh general-purpose child cache share % (baseline)`] =
      m.fresh === undefined ? 'n/a' : m.fresh * 100;
    // Share of the forks after the first one that the cache did not serve.
    const missed = m.shares.slice(1).reduce((a, s) => a + (1 - s), 0) / Math.max(1, m.shares.length - 1);
    uncached[sc.label] = missed;
    if (sc.withoutSharedBreakpoint) continue;
    targets[`${sc.label}: every fork ≥ 95% from cache`] =
      m.shares.length === sc.forks && m.shares.every((s) => s >= 0.95);
    targets[`${sc.label}: forks first differ inside the directive`] = m.at > m.directive && m.directive > 0;
  }
  const withShared = uncached['first turn, 4 forks'];
  const without = uncached['baseline: first turn, 4 forks, no shared-prefix breakpoint'];
  if (withShared !== undefined && without)
    figures[
      'first turn, 4 forks: uncached input of forks 1-3, with / without the shared breakpoint (ratio)'
    ] = withShared / without;
  return {
    name: 'agents: fork cache share',
    figures,
    targets,
    notes: [
      "Claude Code 2.1.332's forks first differ at 97.3% of the prefix, at the spawning tool_use id (before the directive).",
      'The first fork cannot read its suffix (the forking assistant message, one placeholder per call, the directive) but writes it up to the directive, with a breakpoint on the last placeholder; its siblings read all of it and pay only for their directive.',
    ],
  };
}
