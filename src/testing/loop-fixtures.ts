/**
 * Test support for the agent loop: a temp project and home, a scripted fake model server reached
 * through the real SDK, Gantry's real tools and permission engine, and helpers to run a `query`
 * and read what it yielded and what it sent. Tests only.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AnyTool, ModelClient } from '../core/index.js';
import type { Query, QueryEvent, QueryOptions, QueryResult, ResultEvent } from '../loop/types.js';
import { query } from '../loop/query.js';
import { AnthropicModelClient } from '../model/anthropic/client.js';
import { OpenAIModelClient } from '../model/openai/client.js';
import { createPermissionEngine, type PermissionEngine } from '../permissions/engine.js';
import { loadSettings } from '../permissions/settings/load.js';
import { fsPathResolver } from '../core/paths.js';
import { toolDescriberFor } from '../tools/describers.js';
import { getAllBaseTools } from '../tools/index.js';
import { type FakeAnthropicServer, startFakeAnthropicServer } from './fake-anthropic-server.js';
import type { FakeRoute, ScriptEntry } from './fake-model-script.js';
import { type FakeOpenAIServer, startFakeOpenAIServer } from './fake-openai-server.js';

export const TEST_KEY = 'sk-loop-test';

export interface LoopWorld {
  root: string;
  home: string;
  project: string;
  gantryHome: string;
  cleanup(): void;
}

/** A temp world: `<root>/home` (HOME) and `<root>/home/project` (cwd). */
export function makeLoopWorld(): LoopWorld {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-loop-')));
  const home = path.join(root, 'home');
  const project = path.join(home, 'project');
  mkdirSync(project, { recursive: true });
  return {
    root,
    home,
    project,
    gantryHome: path.join(home, '.gantry'),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

export type Provider = 'anthropic' | 'openai';

export interface FakeModel {
  provider: Provider;
  client: ModelClient;
  /** Recorded model requests (bodies parsed). */
  requests(): { body: any; headers: Record<string, string>; usage?: any }[];
  enqueue(...entries: ScriptEntry[]): void;
  close(): Promise<void>;
  server: FakeAnthropicServer | FakeOpenAIServer;
}

/** A fake server for `provider` and a client of the real SDK pointed at it (fast retries). */
export async function startFakeModel(
  provider: Provider,
  script: ScriptEntry[],
  options: { routes?: FakeRoute[]; retryDelayMs?: number } = {},
): Promise<FakeModel> {
  const retry = { baseDelayMs: options.retryDelayMs ?? 1, jitter: 0 };
  if (provider === 'anthropic') {
    const server = await startFakeAnthropicServer({
      apiKey: TEST_KEY,
      script,
      ...(options.routes ? { routes: options.routes } : {}),
    });
    const client = new AnthropicModelClient({ apiKey: TEST_KEY, baseURL: server.url, retry });
    return {
      provider,
      client,
      server,
      requests: () =>
        server.messageRequests.map((r) => ({ body: r.body, headers: r.headers, usage: r.usage })),
      enqueue: (...e) => server.enqueue(...e),
      close: () => server.close(),
    };
  }
  const server = await startFakeOpenAIServer({
    apiKey: TEST_KEY,
    script,
    ...(options.routes ? { routes: options.routes } : {}),
  });
  const client = new OpenAIModelClient({
    apiKey: TEST_KEY,
    baseURL: `${server.url}/v1`,
    model: 'gpt-4.1',
    retry,
  });
  return {
    provider,
    client,
    server,
    requests: () => server.modelRequests.map((r) => ({ body: r.body, headers: r.headers, usage: r.usage })),
    enqueue: (...e) => server.enqueue(...e),
    close: () => server.close(),
  };
}

/** Gantry's real permission engine for a world, with optional settings (written to a file). */
export function makeEngine(
  world: LoopWorld,
  settings: Record<string, unknown> = {},
  extra: { trust?: boolean } = {},
): PermissionEngine {
  const file = path.join(world.root, `settings-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(settings));
  const loaded = loadSettings({
    projectRoot: world.project,
    home: world.home,
    managedFiles: [],
    settingsFiles: [file],
    trust: extra.trust ?? true,
  });
  return createPermissionEngine({
    settings: loaded,
    describe: async (toolName, input, request) => {
      const d = toolDescriberFor(toolName);
      if (!d) throw new Error(`no describer for ${toolName}`);
      return d.describe(input, { cwd: request.cwd, home: world.home, resolver: fsPathResolver });
    },
  });
}

export async function realTools(): Promise<AnyTool[]> {
  return getAllBaseTools();
}

/** Base options for a query in `world` against `model` (override anything). */
export async function loopOptions(
  world: LoopWorld,
  model: FakeModel,
  overrides: Partial<QueryOptions> & Pick<QueryOptions, 'prompt'>,
): Promise<QueryOptions> {
  return {
    modelClient: model.client,
    model: model.provider === 'anthropic' ? 'claude-haiku-4-5' : 'gpt-4.1',
    tools: await realTools(),
    cwd: world.project,
    home: world.home,
    transcript: { gantryHome: world.gantryHome },
    ...overrides,
  };
}

export interface Collected {
  events: QueryEvent[];
  result: QueryResult;
  results: ResultEvent[];
  /** Events of one type (and subtype for system events). */
  of<T extends QueryEvent['type'], S extends string | undefined = undefined>(
    type: T,
    subtype?: S,
  ): Extract<QueryEvent, { type: T } & (S extends string ? { subtype: S } : unknown)>[];
}

/** Runs a query to its end and keeps every event. */
export async function collect(
  q: Query,
  onEvent?: (e: QueryEvent, q: Query) => void | Promise<void>,
): Promise<Collected> {
  const events: QueryEvent[] = [];
  let result: QueryResult;
  for (;;) {
    const step = await q.next();
    if (step.done) {
      result = step.value;
      break;
    }
    events.push(step.value);
    await onEvent?.(step.value, q);
  }
  return {
    events,
    result,
    results: events.filter((e): e is ResultEvent => e.type === 'result'),
    of: (type, subtype) =>
      events.filter(
        (e) => e.type === type && (subtype === undefined || (e as { subtype?: string }).subtype === subtype),
      ) as never,
  };
}

/** `query(options)` run to its end. */
export async function runQuery(
  options: QueryOptions,
  onEvent?: (e: QueryEvent, q: Query) => void | Promise<void>,
) {
  return collect(query(options), onEvent);
}
