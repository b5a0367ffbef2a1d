/**
 * A fleet on one machine for tests and benchmarks: a throwaway Postgres (postgres.ts), the fake
 * Anthropic server answering every session from a scenario named in its prompt, worker processes
 * (fleet-worker-process.ts, or the real `gantry fleet serve`), and the `gantry fleet` command.
 *
 * Scenario prompts read `scenario:<name> dir:<dir>`; `reply(name, turn, request)` of the world
 * gives the model's answer for the `turn`-th request of that session (0-based, counted by the
 * assistant messages already in the conversation), so a resumed session gets the same script.
 * `seen` counts the requests per `<name>:<turn>` (how often a turn was really paid for).
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { type FakeAnthropicServer, startFakeAnthropicServer } from './fake-anthropic-server.js';
import type { FakeReply, ScriptRequest } from './fake-model-script.js';
import { GANTRY_BIN } from './print-fixtures.js';
import { startTestPostgres, type TestPostgres } from './postgres.js';
import { REPO_ROOT } from './shared-data.js';

const run = promisify(execFile);

export type ScenarioReply = (turn: number, request: ScriptRequest, dir: string) => FakeReply;

/** The text of every block of the first user message (where the prompt is). */
function firstUserText(body: { messages?: { role: string; content: unknown }[] }): string {
  const first = body.messages?.find((m) => m.role === 'user');
  if (!first) return '';
  if (typeof first.content === 'string') return first.content;
  return (first.content as { type: string; text?: string }[]).map((b) => b.text ?? '').join('\n');
}

/** The last tool_result's text in the request (what the model was just told). */
export function lastToolResult(request: ScriptRequest): { text: string; isError: boolean } | undefined {
  const messages = (request.body?.messages ?? []) as { role: string; content: unknown }[];
  for (let i = messages.length - 1; i >= 0; i--) {
    const content = messages[i]?.content;
    if (!Array.isArray(content)) continue;
    for (let j = content.length - 1; j >= 0; j--) {
      const b = content[j] as { type: string; content?: unknown; is_error?: boolean };
      if (b.type !== 'tool_result') continue;
      const c = b.content;
      const text =
        typeof c === 'string'
          ? c
          : Array.isArray(c)
            ? c.map((x: { text?: string }) => x.text ?? '').join('')
            : '';
      return { text, isError: b.is_error === true };
    }
  }
  return undefined;
}

export interface FleetWorld {
  pg: TestPostgres;
  server: FakeAnthropicServer;
  /** Temp root: HOME of the workers, fleet home, ledgers. */
  dir: string;
  fleetHome: string;
  seen: Map<string, number>;
  env: NodeJS.ProcessEnv;
  close(): Promise<void>;
}

export async function startFleetWorld(scenarios: Record<string, ScenarioReply>): Promise<FleetWorld> {
  const dir = mkdtempSync(path.join(tmpdir(), 'gantry-fleet-'));
  const seen = new Map<string, number>();
  let pg: TestPostgres | undefined;
  try {
    pg = await startTestPostgres();
    const server = await startFakeAnthropicServer({
      routes: [
        {
          name: 'scenarios',
          when: () => true,
          script: (request) => {
            const prompt = firstUserText(request.body ?? {});
            const m = /scenario:(\S+) dir:(\S+)/.exec(prompt);
            const scenario = m ? scenarios[m[1] ?? ''] : undefined;
            if (!m || !scenario) return { type: 'message', content: [{ type: 'text', text: 'no scenario' }] };
            const turn = ((request.body?.messages ?? []) as { role: string }[]).filter(
              (x) => x.role === 'assistant',
            ).length;
            const key = `${m[1]}:${turn}`;
            seen.set(key, (seen.get(key) ?? 0) + 1);
            return scenario(turn, request, m[2] ?? '');
          },
        },
      ],
    });
    const fleetHome = path.join(dir, '.gantry', 'fleet');
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      HOME: dir,
      ANTHROPIC_BASE_URL: server.url,
      ANTHROPIC_API_KEY: 'test-key',
      GANTRY_FLEET_DATABASE: pg.url,
      GANTRY_FLEET_TOKEN: 'fleet-test-token',
      FLEET_DATABASE: pg.url,
      FLEET_HOME: fleetHome,
      FLEET_TOKEN: 'fleet-test-token',
      GANTRY_FLEET_WORK: path.join(dir, 'work'),
    };
    const world = pg;
    return {
      pg: world,
      server,
      dir,
      fleetHome,
      seen,
      env,
      async close() {
        await server.close();
        await world.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await pg?.stop();
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

export interface WorkerProcess {
  readonly id: string;
  readonly child: ChildProcess;
  readonly approvals: string | null;
  readonly stderr: () => string;
  /** SIGKILL, and wait for the exit. */
  kill(): Promise<void>;
  /** SIGTERM (a graceful stop), and wait for the exit. */
  stop(): Promise<void>;
}

function waitReady(
  child: ChildProcess,
  id: string,
  stderr: () => string,
): Promise<{ approvals: string | null }> {
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString('utf8');
      const line = out.split('\n').find((l) => l.startsWith('{'));
      if (line) {
        child.stdout?.off('data', onData);
        const parsed = JSON.parse(line) as { approvals?: string | null };
        resolve({ approvals: parsed.approvals ?? null });
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) =>
      reject(new Error(`worker ${id} exited (${code}) before it was ready:\n${stderr()}`)),
    );
  });
}

function wrap(
  child: ChildProcess,
  id: string,
  approvals: string | null,
  stderr: () => string,
): WorkerProcess {
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  return {
    id,
    child,
    approvals,
    stderr,
    async kill() {
      child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Starts a test worker process (fleet-worker-process.ts) and waits until it takes work. */
export async function startWorkerProcess(
  world: FleetWorld,
  id: string,
  extraEnv: Record<string, string> = {},
): Promise<WorkerProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(REPO_ROOT, 'src/testing/fleet-worker-process.ts')],
    {
      cwd: REPO_ROOT,
      env: { ...world.env, FLEET_WORKER_ID: id, ...extraEnv },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err = (err + d.toString('utf8')).slice(-20_000);
  });
  const stderr = () => err;
  const { approvals } = await waitReady(child, id, stderr);
  return wrap(child, id, approvals, stderr);
}

/** Starts the real `gantry fleet serve` and waits until it takes work. */
export async function startServeProcess(
  world: FleetWorld,
  id: string,
  args: string[] = [],
): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [GANTRY_BIN, 'fleet', 'serve', '--worker-id', id, ...args], {
    cwd: world.dir,
    env: world.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err = (err + d.toString('utf8')).slice(-20_000);
  });
  const stderr = () => err;
  const { approvals } = await waitReady(child, id, stderr);
  return wrap(child, id, approvals, stderr);
}

/** Runs `gantry fleet <args>`; resolves with its exit code and output (never throws on exit ≠ 0). */
export async function fleetCli(
  world: FleetWorld,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [GANTRY_BIN, 'fleet', ...args], {
      cwd: world.dir,
      env: world.env,
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, stdout: e.stdout ?? '', stderr: e.stderr ?? '' };
  }
}

/** Polls `check` every 50 ms until it returns a value other than undefined/false, or throws after `timeoutMs`. */
export async function eventually<T>(
  what: string,
  check: () => Promise<T | undefined | false>,
  timeoutMs = 30_000,
): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
