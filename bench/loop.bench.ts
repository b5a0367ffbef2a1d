/**
 * bench/loop: the agent loop's own cost, on the scripted fake Messages API through the real SDK
 * (real HTTP + SSE on 127.0.0.1), with Gantry's real permission engine.
 *
 * 1. Loop overhead per turn, excluding model and tool time: a 40-turn session where every turn is
 *    one call of a probe tool that does nothing. The model time is measured by wrapping the client
 *    (from `stream()` being called to its last event). Overhead of a turn = the gap between the end
 *    of one response's stream and the start of the next request: the tool turn's setup and
 *    scheduling, the runtime's per-call pipeline and permission decision (counted as loop time,
 *    since the probe itself does nothing), results into the conversation, events, transcript lines
 *    (written, fsync per turn) and the next request's assembly. Target: median ≤ 2 ms. Reported
 *    side by side with the same session's model time per turn, as a ratio.
 * 2. Start latency: from the moment the client hands the loop a tool_use block's
 *    `content_block_stop` to the moment the tool's `call` starts (the stream keeps going: the
 *    block is followed by 200 ms of slow text). Target: median ≤ 5 ms.
 * 3. Cache share in 10-turn sessions with real tools (a Read of ~1 KB, and of ~2 KB, each turn):
 *    cache reads / all input tokens per request, from the fake's simulated prompt cache. Target:
 *    ≥ 90% on every request from the second on (~1 KB reads). Structural check for both sizes:
 *    every request from the second on reads everything the request before it sent. (Turn 2's share
 *    is bounded by the new content over Gantry's ~6K-token prefix, so ~2 KB reads give ~89% there
 *    and more on later turns.)
 */
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { buildTool } from '../src/core/index.js';
import type { ModelClient, ModelStreamEvent } from '../src/core/model-client.js';
import { query } from '../src/loop/query.js';
import type { QueryEvent } from '../src/loop/types.js';
import { AnthropicModelClient } from '../src/model/anthropic/client.js';
import { createPermissionEngine } from '../src/permissions/engine.js';
import { settingsFromRules } from '../src/permissions/settings/from-rules.js';
import { startFakeAnthropicServer } from '../src/testing/fake-anthropic-server.js';
import { reply, text, toolUse } from '../src/testing/fake-model-script.js';
import { getAllBaseTools } from '../src/tools/index.js';
import type { BenchReport } from './run.js';

const TURNS = 40;

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * q))] as number;
}
const median = (xs: number[]) => quantile(xs, 0.5);

/** Wraps a client to record when each stream starts and ends, and when tool_use blocks complete. */
function timedClient(inner: ModelClient) {
  const streams: { start: number; end: number }[] = [];
  const toolStops = new Map<string, number>();
  const client: ModelClient = {
    provider: inner.provider,
    countTokens: (r, o) => inner.countTokens(r, o),
    async *stream(request, options) {
      const entry = { start: performance.now(), end: 0 };
      streams.push(entry);
      for await (const e of inner.stream(request, options) as AsyncIterable<ModelStreamEvent>) {
        if (e.type === 'content_block_stop' && e.block.type === 'tool_use')
          toolStops.set(e.block.id, performance.now());
        if (e.type === 'message_stop') entry.end = performance.now();
        yield e;
      }
      entry.end ||= performance.now();
    },
  };
  return { client, streams, toolStops };
}

function probeTool(starts: Map<string, number>) {
  return buildTool({
    name: 'Probe',
    description: 'Returns at once (benchmark probe).',
    inputSchema: z.strictObject({ n: z.number() }),
    isConcurrencySafe: () => true,
    isReadOnly: () => true,
    async *call(input: { n: number }, context) {
      starts.set(context.toolUseId ?? '', performance.now());
      return { data: `probe ${input.n}` };
    },
  });
}

async function drain(q: AsyncGenerator<QueryEvent>, onEvent?: (e: QueryEvent) => void): Promise<void> {
  for await (const e of q) onEvent?.(e);
}

interface Usage3 {
  input_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
}

/** A 10-turn session: 9 Reads of `lines` lines of a notes file, then an answer. */
async function cacheSession(
  root: string,
  lines: number,
): Promise<{ shares: number[]; readsAllBefore: number }> {
  const file = path.join(root, `notes-${lines}.md`);
  writeFileSync(file, `${'A line of project notes that the agent reads again.\n'.repeat(400)}`);
  const fake = await startFakeAnthropicServer({
    apiKey: 'k',
    script: [
      ...Array.from({ length: 9 }, (_, i) =>
        reply.toolUse('Read', { file_path: file, offset: 1 + i * lines, limit: lines }),
      ),
      reply.text('read it all'),
    ],
  });
  try {
    const client = new AnthropicModelClient({ apiKey: 'k', baseURL: fake.url, retry: { maxRetries: 0 } });
    await drain(
      query({
        prompt: 'read the notes ten times',
        modelClient: client,
        model: 'claude-haiku-4-5',
        tools: await getAllBaseTools(),
        cwd: root,
        home: root,
        permissionEngine: createPermissionEngine({
          settings: settingsFromRules({ projectRoot: root, home: root }),
        }),
        transcript: { gantryHome: path.join(root, 'g1') },
        memory: false,
      }),
    );
    const usage = fake.messageRequests.map((r) => r.usage as Usage3);
    const total = (u: Usage3) => u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;
    let readsAllBefore = 0;
    for (let i = 1; i < usage.length; i++)
      if (usage[i]!.cache_read_input_tokens >= total(usage[i - 1]!)) readsAllBefore++;
    return { shares: usage.map((u) => u.cache_read_input_tokens / total(u)), readsAllBefore };
  } finally {
    await fake.close();
  }
}

export default async function run(): Promise<BenchReport> {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-bench-loop-')));
  const fake = await startFakeAnthropicServer({ apiKey: 'k' });
  try {
    const base = new AnthropicModelClient({ apiKey: 'k', baseURL: fake.url, retry: { maxRetries: 0 } });
    const engine = () =>
      createPermissionEngine({
        settings: settingsFromRules({ projectRoot: root, home: root, allow: ['Probe'] }),
      });

    // 1. Overhead per turn.
    const starts = new Map<string, number>();
    for (let i = 0; i < TURNS; i++)
      fake.enqueue(reply.message([toolUse('Probe', { n: i }, { id: `toolu_o${i}` })]));
    fake.enqueue(reply.text('done'));
    const t1 = timedClient(base);
    await drain(
      query({
        prompt: 'probe',
        modelClient: t1.client,
        model: 'claude-haiku-4-5',
        tools: [probeTool(starts)],
        cwd: root,
        home: root,
        permissionEngine: engine(),
        transcript: { persist: false },
        memory: false,
      }),
    );
    const overhead: number[] = [];
    const modelMs: number[] = [];
    for (let i = 1; i < t1.streams.length; i++) {
      const prev = t1.streams[i - 1]!;
      const cur = t1.streams[i]!;
      // The probe's own work is nil, so the whole gap is counted as the loop's (the runtime's
      // per-call pipeline, permission decision included, is in it: a conservative figure).
      overhead.push(cur.start - prev.end);
      modelMs.push(prev.end - prev.start);
    }

    // 2. Start latency: the tool_use block ends while the stream still has 200 ms to go.
    const starts2 = new Map<string, number>();
    const latencyRuns = 30;
    for (let i = 0; i < latencyRuns; i++) {
      fake.enqueue(
        reply.message([toolUse('Probe', { n: i }, { id: `toolu_l${i}` }), text('slow tail '.repeat(10))], {
          chunkChars: 10,
          delayMs: 2,
        }),
      );
    }
    fake.enqueue(reply.text('done'));
    const t2 = timedClient(base);
    await drain(
      query({
        prompt: 'latency',
        modelClient: t2.client,
        model: 'claude-haiku-4-5',
        tools: [probeTool(starts2)],
        cwd: root,
        home: root,
        permissionEngine: engine(),
        transcript: { persist: false },
        memory: false,
        repeatedCallLimit: 1_000,
      }),
    );
    const latency: number[] = [];
    for (const [id, stop] of t2.toolStops) {
      const s = starts2.get(id);
      if (s !== undefined) latency.push(s - stop);
    }

    // 3. Cache share over a 10-turn session with the real Read tool, ~1 KB and ~2 KB read per turn.
    const small = await cacheSession(root, 20);
    const large = await cacheSession(root, 40);
    const shares = small.shares;
    const fromTurn2 = shares.slice(1);
    return {
      name: 'agent loop: overhead per turn, tool start latency, cache share',
      figures: {
        turns: overhead.length,
        'loop overhead per turn median ms': median(overhead),
        'loop overhead per turn p90 ms': quantile(overhead, 0.9),
        'model time per turn median ms (fake server, same run)': median(modelMs),
        'overhead / model time (medians)': median(overhead) / median(modelMs),
        'tool start after its block ended median ms': median(latency),
        'tool start after its block ended p90 ms': quantile(latency, 0.9),
        'cache share turn 1 %': 100 * (shares[0] ?? 0),
        'cache share from turn 2 min % (~1 KB read per turn)': 100 * Math.min(...fromTurn2),
        'cache share from turn 2 mean % (~1 KB read per turn)':
          (100 * fromTurn2.reduce((a, b) => a + b, 0)) / Math.max(1, fromTurn2.length),
        'cache share from turn 2 min % (~2 KB read per turn)': 100 * Math.min(...large.shares.slice(1)),
        'cache share by turn % (~2 KB read per turn)': large.shares
          .map((x) => (100 * x).toFixed(1))
          .join(' '),
        'requests reading all of the previous request from cache': `${small.readsAllBefore + large.readsAllBefore} of ${small.shares.length + large.shares.length - 2}`,
        requests: shares.length,
      },
      targets: {
        'loop overhead per turn ≤ 2 ms (median)': median(overhead) <= 2,
        'tool start ≤ 5 ms after its block ended (median)': median(latency) <= 5,
        'cache reads ≥ 90% of input tokens from turn 2 on (~1 KB read per turn)':
          fromTurn2.length === 9 && fromTurn2.every((s) => s >= 0.9),
        'every request from turn 2 on reads all of the previous request from cache':
          small.readsAllBefore + large.readsAllBefore === small.shares.length + large.shares.length - 2,
      },
    };
  } finally {
    await fake.close();
    rmSync(root, { recursive: true, force: true });
  }
}
