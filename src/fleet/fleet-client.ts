/**
 * What the fleet's faces do from outside a session (docs/fleet.md, "Commands"): submit sessions,
 * list them, read their pending asks, answer an ask, cancel, wait for a result. Written against the
 * engine interface; `openFleet(url)` gives the DBOS-backed client.
 */
import { randomUUID } from 'node:crypto';
import { createDbosEngine } from './dbos/dbos-engine.js';
import type { EngineClient, WorkflowInfo, WorkflowState } from './engine.js';
import {
  ASKS_EVENT,
  type ApprovalMessage,
  approvalTopic,
  type PendingAsk,
  SESSION_QUEUE,
  SESSION_WORKFLOW,
  type SessionInput,
  type SessionOutput,
} from './session-types.js';

export async function openFleet(databaseUrl: string): Promise<EngineClient> {
  return createDbosEngine({ databaseUrl }).client();
}

export interface SubmitOptions {
  /** Default: a new UUID. Submitting an id again does not start a second session. */
  sessionId?: string;
  /** 1 runs first; default none (after every prioritised session). */
  priority?: number;
}

export async function submitSession(
  client: EngineClient,
  input: SessionInput,
  options: SubmitOptions = {},
): Promise<string> {
  if (typeof input.prompt !== 'string' || !input.prompt) throw new Error('a session needs a prompt');
  if (!input.cwd && !input.repo) throw new Error('a session needs `cwd` or `repo`');
  const sessionId = options.sessionId ?? randomUUID();
  await client.enqueue(input, {
    workflowId: sessionId,
    queue: SESSION_QUEUE,
    workflowName: SESSION_WORKFLOW,
    ...(options.priority ? { priority: options.priority } : {}),
  });
  return sessionId;
}

export interface SessionSummary {
  session: string;
  state: WorkflowState;
  worker?: string;
  priority?: number;
  createdAt: number;
  label?: string;
  prompt?: string;
  output?: SessionOutput;
  error?: string;
}

function summaryOf(info: WorkflowInfo): SessionSummary {
  const input = info.input as SessionInput | undefined;
  return {
    session: info.workflowId,
    state: info.state,
    ...(info.workerId ? { worker: info.workerId } : {}),
    ...(info.priority ? { priority: info.priority } : {}),
    createdAt: info.createdAt,
    ...(input?.label ? { label: input.label } : {}),
    ...(input?.prompt ? { prompt: input.prompt } : {}),
    ...(info.output ? { output: info.output as SessionOutput } : {}),
    ...(info.error ? { error: info.error } : {}),
  };
}

export async function listSessions(
  client: EngineClient,
  filter: { states?: WorkflowState[]; limit?: number } = {},
): Promise<SessionSummary[]> {
  const rows = await client.list(filter);
  return rows.filter((r) => r.queue === undefined || r.queue === SESSION_QUEUE).map(summaryOf);
}

export async function sessionStatus(
  client: EngineClient,
  session: string,
): Promise<SessionSummary | undefined> {
  const info = await client.get(session);
  return info ? summaryOf(info) : undefined;
}

/** Every pending ask of the running sessions (or of one session). */
export async function pendingAsks(
  client: EngineClient,
  session?: string,
): Promise<(PendingAsk & { session: string })[]> {
  const ids = session ? [session] : (await client.list({ states: ['running'] })).map((w) => w.workflowId);
  const out: (PendingAsk & { session: string })[] = [];
  for (const id of ids) {
    const asks = (await client.getEvent<PendingAsk[]>(id, ASKS_EVENT)) ?? [];
    for (const ask of asks) out.push({ session: id, ...ask });
  }
  return out;
}

export async function answerAsk(
  client: EngineClient,
  answer: { session: string; toolUseId: string; allow: boolean; message?: string; by?: string },
): Promise<{ ok: true } | { ok: false; error: string }> {
  const info = await client.get(answer.session);
  if (!info) return { ok: false, error: `no session ${answer.session}` };
  if (info.state === 'succeeded' || info.state === 'failed' || info.state === 'cancelled')
    return { ok: false, error: `session ${answer.session} has ended (${info.state})` };
  const message: ApprovalMessage = {
    allow: answer.allow,
    ...(answer.message ? { message: answer.message } : {}),
    ...(answer.by ? { by: answer.by } : {}),
  };
  await client.send(answer.session, approvalTopic(answer.toolUseId), message);
  return { ok: true };
}
