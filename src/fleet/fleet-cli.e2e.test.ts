/**
 * The fleet's faces end to end (docs/fleet.md, "Commands"): three real `gantry fleet serve`
 * workers on one Postgres, sessions submitted with `gantry fleet submit` (a prompt, a JSONL file),
 * answered with `gantry fleet approve|deny` and the worker's HTTP endpoint, cancelled with
 * `gantry fleet cancel`, read back with `status`, `logs` and `gantry replay`.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reply, toolUse } from '../testing/fake-model-script.js';
import type { EngineClient } from './engine.js';
import { openFleet, pendingAsks, sessionStatus } from './fleet-client.js';
import {
  eventually,
  type FleetWorld,
  fleetCli,
  lastToolResult,
  startFleetWorld,
  startServeProcess,
  type WorkerProcess,
} from '../testing/fleet-fixtures.js';
import { postgresBinaries } from '../testing/postgres.js';
import { GANTRY_BIN } from '../testing/print-fixtures.js';
import { CallsTable } from './dbos/calls-table.js';

const run = promisify(execFile);

/** Rows of `session` in the call journal. */
async function journalRows(databaseUrl: string, session: string): Promise<number> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    const { rows } = await db.query<{ n: string }>(
      'SELECT count(*) AS n FROM gantry_fleet.calls WHERE workflow_id = $1',
      [session],
    );
    return Number(rows[0]?.n);
  } finally {
    await db.end();
  }
}

const finish = (request: Parameters<typeof lastToolResult>[0]) => {
  const last = lastToolResult(request);
  return reply.text(`done ${last?.isError ? 'error' : 'ok'}: ${last?.text.slice(0, 300) ?? ''}`);
};

const scenarios = {
  basic: (turn: number, request: never, dir: string) =>
    turn === 0
      ? reply.message([toolUse('Bash', { command: `echo basic >> ${dir}/ledger` }, { id: 'toolu_basic_1' })])
      : turn === 1
        ? reply.toolUse('Read', { file_path: `${dir}/ledger` }, { id: 'toolu_basic_2' })
        : finish(request),
  ask: (turn: number, request: never, dir: string) =>
    turn === 0
      ? reply.toolUse('Bash', { command: `echo asked >> ${dir}/ledger` }, { id: 'toolu_ask_1' })
      : finish(request),
  // A barrier, not a sleep: each task waits (within the test's timeout) until three tasks have started. With one
  // session at a time per worker, that needs all three workers, however long DBOS's queue polling
  // of one of them backs off under contention; a worker that never takes work still fails the test.
  share: (turn: number, request: never, dir: string) =>
    turn === 0
      ? reply.toolUse(
          'Bash',
          {
            command: `echo started >> ${dir}/../share-started; until awk "END { exit NR < 3 }" ${dir}/../share-started; do sleep 0.1; done; echo shared >> ${dir}/ledger`,
          },
          { id: 'toolu_share_1' },
        )
      : finish(request),
};

interface Submitted {
  session: string;
  output?: { subtype: string; result: string; workerId: string; transcriptPath?: string; isError: boolean };
  error?: string;
}

describe.skipIf(!postgresBinaries())(
  'gantry fleet: serve, submit, status, logs, approve, deny, cancel',
  () => {
    let world: FleetWorld;
    let client: EngineClient;
    const workers: WorkerProcess[] = [];

    const dirFor = (name: string): string => {
      const dir = path.join(world.dir, 'work', name);
      mkdirSync(dir, { recursive: true });
      return dir;
    };
    const ledger = (dir: string): string[] =>
      existsSync(path.join(dir, 'ledger'))
        ? readFileSync(path.join(dir, 'ledger'), 'utf8').split('\n').filter(Boolean)
        : [];
    const submitAsk = async (
      name: string,
      extra: string[] = [],
    ): Promise<{ dir: string; session: string }> => {
      const dir = dirFor(name);
      const r = await fleetCli(world, [
        'submit',
        `scenario:ask dir:${dir}`,
        '--cwd',
        dir,
        '--allowedTools',
        'Read',
        '--json',
        ...extra,
      ]);
      expect(r.code, r.stderr).toBe(0);
      return { dir, session: (JSON.parse(r.stdout) as { session: string }).session };
    };
    // Polls go through the library client (a process per poll would be slow); the actions under
    // test go through the command.
    const waitForAsk = (session: string) =>
      eventually(`an ask of ${session}`, async () => {
        const asks = await pendingAsks(client, session);
        return asks.length ? asks : undefined;
      });
    const waitForEnd = (session: string) =>
      eventually(`${session} to end`, async () => {
        const s = await sessionStatus(client, session);
        return s && s.state !== 'queued' && s.state !== 'running' ? s : undefined;
      });

    beforeAll(async () => {
      world = await startFleetWorld(scenarios as never);
      client = await openFleet(world.pg.url);
      workers.push(await startServeProcess(world, 'serve-1', ['--concurrency', '1']));
      workers.push(
        ...(await Promise.all([
          startServeProcess(world, 'serve-2', ['--concurrency', '1']),
          startServeProcess(world, 'serve-3', ['--concurrency', '1']),
        ])),
      );
    });

    afterAll(async () => {
      for (const w of workers) await w.stop().catch(() => undefined);
      await client?.close();
      await world?.close();
    });

    it('submit --wait runs a session to its end; status, logs and gantry replay read it', async () => {
      const dir = dirFor('basic');
      const r = await fleetCli(world, [
        'submit',
        `scenario:basic dir:${dir}`,
        '--cwd',
        dir,
        '--allowedTools',
        'Bash',
        '--wait',
        '--json',
      ]);
      expect(r.code, r.stderr).toBe(0);
      const done = JSON.parse(r.stdout) as Submitted;
      expect(done.output?.subtype).toBe('success');
      expect(done.output?.result).toMatch(/^done ok: .*basic/s);
      expect(ledger(dir)).toEqual(['basic']);

      const status = await fleetCli(world, ['status', done.session]);
      expect(status.stdout).toContain(`${done.session} succeeded on serve-`);
      const logs = await fleetCli(world, ['logs', done.session]);
      expect(logs.code, logs.stderr).toBe(0);
      expect(logs.stdout).toContain('assistant: [Bash');
      expect(logs.stdout).toContain('assistant: done ok');

      const transcript = done.output?.transcriptPath ?? '';
      const replay = await run(process.execPath, [GANTRY_BIN, 'replay', transcript, '--json'], {
        env: world.env,
        cwd: world.dir,
      });
      const calls = replay.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(calls.some((c) => JSON.stringify(c).includes('Bash'))).toBe(true);
    });

    it('an ask waits for `gantry fleet approve`; a deny through the HTTP endpoint reaches the model', async () => {
      const approved = await submitAsk('approve');
      const asks = await waitForAsk(approved.session);
      expect(asks).toEqual([expect.objectContaining({ toolUseId: 'toolu_ask_1', toolName: 'Bash' })]);
      const list = await fleetCli(world, ['status']);
      expect(list.stdout).toContain(`${approved.session} toolu_ask_1 Bash`);
      const a = await fleetCli(world, ['approve', approved.session, 'toolu_ask_1']);
      expect(a.code, a.stderr).toBe(0);

      const denied = await submitAsk('deny');
      await waitForAsk(denied.session);
      const endpoint = workers.find((w) => w.approvals)?.approvals ?? '';
      const unauth = await fetch(`${endpoint}/asks`);
      expect(unauth.status).toBe(401);
      const headers = { authorization: 'Bearer fleet-test-token', 'content-type': 'application/json' };
      const listed = (await (await fetch(`${endpoint}/asks`, { headers })).json()) as {
        asks: { session: string }[];
      };
      expect(listed.asks.map((x) => x.session)).toContain(denied.session);
      const bad = await fetch(`${endpoint}/approvals`, { method: 'POST', headers, body: '{"session":1}' });
      expect(bad.status).toBe(400);
      const res = await fetch(`${endpoint}/approvals`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          session: denied.session,
          tool_use_id: 'toolu_ask_1',
          decision: 'deny',
          message: 'not today',
        }),
      });
      expect(res.status).toBe(202);

      expect((await waitForEnd(approved.session)).output?.result).toMatch(/^done ok/);
      expect(ledger(approved.dir)).toEqual(['asked']);
      const deniedOut = (await waitForEnd(denied.session)).output;
      expect(deniedOut?.result).toMatch(/^done error: .*not today/s);
      expect(ledger(denied.dir)).toEqual([]);
    });

    it('an unanswered ask is denied when its timeout passes', async () => {
      const timed = await submitAsk('timeout', ['--approval-timeout', '1']);
      const out = (await waitForEnd(timed.session)).output;
      expect(out?.result).toMatch(/^done error: .*No answer to this permission request within 1 s/s);
      expect(ledger(timed.dir)).toEqual([]);
    });

    it('gantry fleet cancel ends a session that waits for an approval; its call never runs', async () => {
      const parked = await submitAsk('cancel');
      await waitForAsk(parked.session);
      const c = await fleetCli(world, ['cancel', parked.session]);
      expect(c.code, c.stderr).toBe(0);
      expect((await waitForEnd(parked.session)).state).toBe('cancelled');
      const approve = await fleetCli(world, ['approve', parked.session, 'toolu_ask_1']);
      expect(approve.code).toBe(1);
      expect(approve.stderr).toContain('has ended (cancelled)');
      expect(ledger(parked.dir)).toEqual([]);

      // Its journal (the recorded model turn) outlives the cancel, since DBOS can resume the
      // session; a prune drops it only once the session was cancelled longer ago than the
      // retention. The retention is counted from the cancel: an hour keeps it, zero drops it.
      const rows = () => journalRows(world.pg.url, parked.session);
      expect(await rows()).toBeGreaterThanOrEqual(1);
      const calls = new CallsTable(world.pg.url);
      try {
        await calls.prune();
        await calls.prune(3_600_000);
        expect(await rows()).toBeGreaterThanOrEqual(1);
        await expect(calls.prune(-1)).rejects.toThrow(RangeError);
        await calls.prune(0);
        expect(await rows()).toBe(0);
      } finally {
        await calls.close();
      }
    });

    it('three workers share one queue: a JSONL file of tasks spreads over all of them', async () => {
      // One working directory for all nine (the barrier file sits in it); a folder each for the ledgers.
      const shared = dirFor('share');
      const dirs = Array.from({ length: 9 }, (_, i) => dirFor(`share/task-${i}`));
      const file = path.join(world.dir, 'tasks.jsonl');
      writeFileSync(
        file,
        `${dirs.map((d, i) => JSON.stringify({ prompt: `scenario:share dir:${d}`, cwd: shared, label: `task ${i}`, priority: i + 1 })).join('\n')}\n`,
      );
      const r = await fleetCli(world, [
        'submit',
        '--file',
        file,
        '--allowedTools',
        'Bash',
        '--wait',
        '--json',
      ]);
      expect(r.code, r.stderr).toBe(0);
      const results = r.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Submitted);
      expect(results).toHaveLength(9);
      for (const x of results) expect(x.output?.result).toMatch(/^done ok/);
      expect(new Set(results.map((x) => x.output?.workerId))).toEqual(
        new Set(['serve-1', 'serve-2', 'serve-3']),
      );
      for (const d of dirs) expect(ledger(d)).toEqual(['shared']);
    });

    it('usage errors exit 3 with the reason', async () => {
      writeFileSync(path.join(world.dir, 'bad.jsonl'), '{"cwd": "."}\n');
      const r = await fleetCli(world, ['submit', '--file', path.join(world.dir, 'bad.jsonl')]);
      expect(r.code).toBe(3);
      expect(r.stderr).toContain('bad.jsonl:1: the task has no "prompt"');
      const none = await fleetCli(world, ['submit']);
      expect(none.code).toBe(3);
      const state = await fleetCli(world, ['status', '--state', 'sleeping']);
      expect(state.code).toBe(3);
    });
  },
);
