/**
 * The actions of `gantry fleet …` (declared in fleet-command.ts; docs/fleet.md). Exit codes: 0 ok,
 * 1 failure (no database, a session that failed with `--wait`, an unknown session), 3 usage error.
 *
 * The database: `--database`, else `GANTRY_FLEET_DATABASE`, else the local cluster in
 * `~/.gantry/fleet/pg` — `serve` starts it (Debian's binaries; stopped again when serve ends),
 * the other commands use it while it runs.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import type { PermissionMode } from '../../core/permission-types.js';
import type { EngineClient, WorkflowState } from '../../fleet/engine.js';
import {
  answerAsk,
  listSessions,
  openFleet,
  pendingAsks,
  sessionStatus,
  submitSession,
} from '../../fleet/fleet-client.js';
import {
  type LocalPostgres,
  POSTGRES_INSTALL_HINT,
  PostgresMissingError,
  PostgresUnreachableError,
  runningLocalPostgres,
  startLocalPostgres,
} from '../../fleet/local-postgres.js';
import type { SessionInput, SessionOutput } from '../../fleet/session-types.js';
import { transcriptPathOf } from '../../fleet/session-workflow.js';
import { startWorker } from '../../fleet/worker.js';
import { defaultGantryHome } from '../../loop/transcript/paths.js';
import { listenFailure } from '../listen-error.js';

const USAGE = 3;

function fleetHome(): string {
  return path.join(defaultGantryHome(process.env.HOME || homedir()), 'fleet');
}

function fail(message: string, code = 1): number {
  process.stderr.write(`gantry fleet: ${message}\n`);
  return code;
}

function intOption(value: unknown, name: string, min = 0): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min)
    throw new UsageError(`${name} must be an integer ≥ ${min} (got ${String(value)})`);
  return n;
}

class UsageError extends Error {}

async function databaseUrl(o: { database?: string }): Promise<string> {
  const given = o.database ?? process.env.GANTRY_FLEET_DATABASE;
  if (given) return given;
  const running = await runningLocalPostgres(path.join(fleetHome(), 'pg'));
  if (running) return running;
  throw new Error(
    'no fleet database: pass --database postgres://…, set GANTRY_FLEET_DATABASE, or start `gantry fleet serve` (it starts a local Postgres)',
  );
}

async function withClient(
  o: { database?: string },
  fn: (client: EngineClient) => Promise<number>,
): Promise<number> {
  let client: EngineClient;
  try {
    client = await openFleet(await databaseUrl(o));
  } catch (e) {
    return fail((e as Error).message);
  }
  try {
    return await fn(client);
  } catch (e) {
    if (e instanceof UsageError) return fail(e.message, USAGE);
    return fail((e as Error).message);
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** The approval endpoint's token: GANTRY_FLEET_TOKEN, else `~/.gantry/fleet/token` (made 0600). */
function fleetToken(): string {
  if (process.env.GANTRY_FLEET_TOKEN) return process.env.GANTRY_FLEET_TOKEN;
  const file = path.join(fleetHome(), 'token');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(path.dirname(file), { recursive: true });
  const token = randomBytes(24).toString('hex');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return token;
}

export interface ServeFlags {
  database?: string;
  workerId?: string;
  concurrency?: string;
  globalConcurrency?: string;
  startsPerMinute?: string;
  modelRpm?: string;
  deadAfter?: string;
  keepCancelled?: string;
  httpPort?: string;
}

export async function runFleetServe(o: ServeFlags): Promise<number> {
  let local: LocalPostgres | undefined;
  let url = o.database ?? process.env.GANTRY_FLEET_DATABASE;
  let options;
  try {
    const httpPort = o.httpPort === undefined ? 0 : Number(o.httpPort);
    if (!Number.isInteger(httpPort) || httpPort < -1 || httpPort > 65535)
      throw new UsageError(`--http-port must be -1..65535 (got ${o.httpPort})`);
    const deadAfter = o.deadAfter === undefined ? undefined : Number(o.deadAfter);
    if (deadAfter !== undefined && !(deadAfter > 0))
      throw new UsageError('--dead-after must be a positive number');
    // Number('') is 0: an empty value (an unset "$HOURS") must not mean "drop them at once"
    const keepCancelled =
      o.keepCancelled === undefined
        ? undefined
        : /^\s*$/.test(String(o.keepCancelled))
          ? Number.NaN
          : Number(o.keepCancelled);
    if (keepCancelled !== undefined && !(Number.isFinite(keepCancelled) && keepCancelled >= 0))
      throw new UsageError('--keep-cancelled must be a number of hours >= 0');
    options = {
      concurrency: intOption(o.concurrency, '--concurrency', 1),
      globalConcurrency: intOption(o.globalConcurrency, '--global-concurrency', 1),
      startsPerMinute: intOption(o.startsPerMinute, '--starts-per-minute', 1),
      modelRpm: intOption(o.modelRpm, '--model-rpm', 1),
      deadAfterMs: deadAfter === undefined ? undefined : deadAfter * 1000,
      cancelledRetentionMs: keepCancelled === undefined ? undefined : keepCancelled * 3_600_000,
      httpPort,
    };
  } catch (e) {
    return fail((e as Error).message, USAGE);
  }
  if (!url) {
    try {
      local = await startLocalPostgres({ dataDir: path.join(fleetHome(), 'pg') });
      url = local.url;
      process.stderr.write(`gantry fleet: local Postgres at ${url} (${local.dataDir})\n`);
    } catch (e) {
      if (e instanceof PostgresMissingError || e instanceof PostgresUnreachableError) return fail(e.message);
      return fail(`could not start the local Postgres: ${(e as Error).message}\n${POSTGRES_INSTALL_HINT}`);
    }
  }
  let worker: Awaited<ReturnType<typeof startWorker>>;
  try {
    worker = await startWorker({
      databaseUrl: url,
      fleetHome: fleetHome(),
      ...(o.workerId ? { workerId: o.workerId } : {}),
      ...(options.concurrency ? { concurrency: options.concurrency } : {}),
      ...(options.globalConcurrency ? { globalConcurrency: options.globalConcurrency } : {}),
      ...(options.startsPerMinute ? { startsPerMinute: options.startsPerMinute } : {}),
      ...(options.modelRpm ? { modelRequestsPerMinute: options.modelRpm } : {}),
      ...(options.deadAfterMs ? { deadAfterMs: options.deadAfterMs } : {}),
      ...(options.cancelledRetentionMs !== undefined
        ? { cancelledRetentionMs: options.cancelledRetentionMs }
        : {}),
      ...(options.httpPort >= 0 ? { httpPort: options.httpPort, httpToken: fleetToken() } : {}),
      log: (line) => process.stderr.write(`gantry fleet: ${line}\n`),
    });
  } catch (e) {
    if (local?.started) await local.stop();
    const listen = (e as { syscall?: unknown }).syscall === 'listen';
    return fail(
      `the worker could not start: ${listen ? listenFailure(e, '127.0.0.1', options.httpPort) : (e as Error).message}`,
    );
  }
  process.stdout.write(
    `${JSON.stringify({ worker: worker.workerId, database: url.replace(/:[^:@/]*@/, ':***@'), approvals: worker.approvalUrl ?? null })}\n`,
  );
  await new Promise<void>((resolve) => {
    const done = () => resolve();
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });
  await worker.stop().catch(() => undefined);
  if (local?.started) await local.stop();
  return 0;
}

export interface SubmitFlags {
  file?: string;
  cwd?: string;
  repo?: string;
  branch?: string;
  model?: string;
  provider?: string;
  priority?: string;
  permissionMode?: string;
  allowedTools?: string[];
  disallowedTools?: string[];
  settings?: string[];
  maxTurns?: string;
  approvalTimeout?: string;
  label?: string;
  sessionId?: string;
  wait?: boolean;
  database?: string;
  json?: boolean;
}

type Task = SessionInput & { priority?: number; session_id?: string };

function taskFromFlags(prompt: string | undefined, o: SubmitFlags): Task {
  const approval = o.approvalTimeout === undefined ? undefined : Number(o.approvalTimeout);
  if (approval !== undefined && !(approval > 0))
    throw new UsageError('--approval-timeout must be a positive number');
  const priority = intOption(o.priority, '--priority', 1);
  const maxTurns = intOption(o.maxTurns, '--max-turns', 1);
  return {
    prompt: prompt ?? '',
    ...(o.repo ? { repo: o.repo } : { cwd: path.resolve(o.cwd ?? process.cwd()) }),
    ...(o.branch ? { branch: o.branch } : {}),
    ...(o.model ? { model: o.model } : {}),
    ...(o.provider ? { provider: o.provider } : {}),
    ...(o.permissionMode ? { permissionMode: o.permissionMode as PermissionMode } : {}),
    ...(o.allowedTools ? { allowedTools: o.allowedTools } : {}),
    ...(o.disallowedTools ? { disallowedTools: o.disallowedTools } : {}),
    ...(o.settings ? { settingsFiles: o.settings.map((f) => path.resolve(f)) } : {}),
    ...(maxTurns ? { maxTurns } : {}),
    ...(approval ? { approvalTimeoutMs: approval * 1000 } : {}),
    ...(o.label ? { label: o.label } : {}),
    ...(priority ? { priority } : {}),
  };
}

/** Tasks of a JSONL file: each line's fields over the flags' defaults. Throws UsageError with the line number. */
function tasksFromFile(file: string, defaults: Task): Task[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  const tasks: Task[] = [];
  lines.forEach((line, i) => {
    if (!line.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      throw new UsageError(`${file}:${i + 1}: not JSON (${(e as Error).message})`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new UsageError(`${file}:${i + 1}: a task is a JSON object`);
    const t = { ...defaults, ...(value as Partial<Task>) };
    if ((value as Task).repo) delete t.cwd;
    if (typeof t.prompt !== 'string' || !t.prompt)
      throw new UsageError(`${file}:${i + 1}: the task has no "prompt"`);
    if (t.cwd) t.cwd = path.resolve(path.dirname(file), t.cwd);
    tasks.push(t);
  });
  if (!tasks.length) throw new UsageError(`${file}: no tasks`);
  return tasks;
}

export async function runFleetSubmit(prompt: string | undefined, o: SubmitFlags): Promise<number> {
  let tasks: Task[];
  try {
    const defaults = taskFromFlags(prompt, o);
    if (o.file) tasks = tasksFromFile(o.file, defaults);
    else if (!prompt) throw new UsageError('give a prompt or --file tasks.jsonl');
    else tasks = [defaults];
  } catch (e) {
    return fail((e as Error).message, e instanceof UsageError ? USAGE : 1);
  }
  return withClient(o, async (client) => {
    const ids: string[] = [];
    for (const [i, task] of tasks.entries()) {
      const { priority, session_id, ...input } = task;
      const id = await submitSession(client, input, {
        ...(priority ? { priority } : {}),
        ...((session_id ?? (i === 0 ? o.sessionId : undefined))
          ? { sessionId: session_id ?? o.sessionId }
          : {}),
      });
      ids.push(id);
      if (!o.wait) process.stdout.write(o.json ? `${JSON.stringify({ session: id })}\n` : `${id}\n`);
    }
    if (!o.wait) return 0;
    let failed = 0;
    for (const id of ids) {
      let output: SessionOutput | null = null;
      let error: string | undefined;
      try {
        output = await client.result<SessionOutput>(id, Number.POSITIVE_INFINITY);
      } catch (e) {
        error = (e as Error).message;
      }
      if (!output || output.isError) failed++;
      process.stdout.write(
        o.json
          ? `${JSON.stringify({ session: id, ...(output ? { output } : {}), ...(error ? { error } : {}) })}\n`
          : `${id} ${output ? `${output.subtype}: ${output.result}` : `failed: ${error ?? 'no result'}`}\n`,
      );
    }
    return failed ? 1 : 0;
  });
}

const STATES: readonly WorkflowState[] = ['queued', 'running', 'succeeded', 'failed', 'cancelled'];

export async function runFleetStatus(
  session: string | undefined,
  o: { state?: string[]; limit?: string; database?: string; json?: boolean },
): Promise<number> {
  return withClient(o, async (client) => {
    if (session) {
      const s = await sessionStatus(client, session);
      if (!s) return fail(`no session ${session}`);
      const asks = s.state === 'running' ? await pendingAsks(client, session) : [];
      if (o.json) process.stdout.write(`${JSON.stringify({ ...s, asks })}\n`);
      else {
        process.stdout.write(`${s.session} ${s.state}${s.worker ? ` on ${s.worker}` : ''}\n`);
        if (s.output) process.stdout.write(`  ${s.output.subtype}: ${s.output.result}\n`);
        if (s.output?.interruptedCalls.length)
          process.stdout.write(`  interrupted calls: ${s.output.interruptedCalls.join(', ')}\n`);
        if (s.error) process.stdout.write(`  error: ${s.error}\n`);
        for (const a of asks) process.stdout.write(`  ask ${a.toolUseId} ${a.toolName}: ${a.reason}\n`);
      }
      return 0;
    }
    for (const st of o.state ?? [])
      if (!STATES.includes(st as WorkflowState))
        throw new UsageError(`--state must be one of ${STATES.join(', ')}`);
    const limit = intOption(o.limit, '--limit', 1) ?? 50;
    const rows = await listSessions(client, {
      ...(o.state?.length ? { states: o.state as WorkflowState[] } : {}),
      limit,
    });
    const asks = await pendingAsks(client);
    if (o.json) {
      process.stdout.write(`${JSON.stringify({ sessions: rows, asks })}\n`);
      return 0;
    }
    for (const r of rows)
      process.stdout.write(
        `${r.session} ${r.state.padEnd(9)} ${(r.worker ?? '-').padEnd(20)} ${(r.label ?? r.prompt ?? '').slice(0, 60)}\n`,
      );
    if (asks.length) process.stdout.write('pending asks:\n');
    for (const a of asks) process.stdout.write(`  ${a.session} ${a.toolUseId} ${a.toolName}: ${a.reason}\n`);
    return 0;
  });
}

function blockText(block: Record<string, unknown>): string {
  if (block.type === 'text') return String(block.text ?? '');
  if (block.type === 'tool_use') return `[${String(block.name)} ${JSON.stringify(block.input)}]`;
  if (block.type === 'tool_result') {
    const c = block.content;
    const text =
      typeof c === 'string'
        ? c
        : Array.isArray(c)
          ? c.map((b) => blockText(b as Record<string, unknown>)).join('')
          : '';
    return `${block.is_error ? '[error] ' : '[result] '}${text}`;
  }
  return '';
}

export async function runFleetLogs(
  session: string,
  o: { raw?: boolean; database?: string },
): Promise<number> {
  const file = transcriptPathOf(fleetHome(), session);
  if (!existsSync(file)) {
    return withClient(o, async (client) => {
      const s = await sessionStatus(client, session);
      if (!s) return fail(`no session ${session}`);
      return fail(
        `no transcript of ${session} on this machine (${file}); it ${s.state === 'queued' ? 'has not started' : `ran on ${s.worker ?? 'another worker'}`}`,
      );
    });
  }
  const text = readFileSync(file, 'utf8');
  if (o.raw) {
    process.stdout.write(text);
    return 0;
  }
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    let entry: Record<string, unknown>;
    try {
      entry = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    const message = entry.message as { role?: string; content?: unknown } | undefined;
    if (!message || (entry.type !== 'user' && entry.type !== 'assistant')) continue;
    const content = message.content;
    const text =
      typeof content === 'string'
        ? content
        : Array.isArray(content)
          ? content
              .map((b) => blockText(b as Record<string, unknown>))
              .filter(Boolean)
              .join(' ')
          : '';
    if (text) process.stdout.write(`${String(entry.type)}: ${text}\n`);
  }
  return 0;
}

export async function runFleetCancel(session: string, o: { database?: string }): Promise<number> {
  return withClient(o, async (client) => {
    const s = await sessionStatus(client, session);
    if (!s) return fail(`no session ${session}`);
    await client.cancel(session);
    process.stdout.write(`${session} cancelled\n`);
    return 0;
  });
}

export async function runFleetAnswer(
  allow: boolean,
  session: string,
  toolUseId: string,
  o: { message?: string; database?: string },
): Promise<number> {
  return withClient(o, async (client) => {
    const out = await answerAsk(client, {
      session,
      toolUseId,
      allow,
      ...(o.message ? { message: o.message } : {}),
      by: 'cli',
    });
    if (!out.ok) return fail(out.error);
    process.stdout.write(`${allow ? 'approved' : 'denied'} ${toolUseId} of ${session}\n`);
    return 0;
  });
}
