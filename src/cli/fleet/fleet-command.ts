/**
 * `gantry fleet …` (docs/fleet.md): agent sessions as durable workflows on Postgres. This file only
 * declares the sub-commands; each action loads fleet-actions.ts (and through it the engine) when
 * it runs, so other commands never load the database client.
 */
import type { Command } from 'commander';

const collect = (v: string, prev: string[] = []): string[] => [...prev, v];

const DATABASE_HELP =
  'postgres://… of the fleet (default: GANTRY_FLEET_DATABASE, else the local cluster under ~/.gantry/fleet/pg)';

export function registerFleetCommand(program: Command): void {
  const fleet = program
    .command('fleet')
    .description('Run agent sessions as durable workflows on Postgres, across one or many workers.')
    .addHelpText(
      'after',
      '\nSetup and commands: docs/fleet.md. Needs Postgres (Debian: apt-get install postgresql).',
    );

  fleet
    .command('serve')
    .description('Start a worker: run queued sessions, recover those of workers that are gone.')
    .option('--database <url>', `${DATABASE_HELP}; without it a local cluster is started`)
    .option('--worker-id <id>', 'this worker (keep it across restarts to resume its sessions at once)')
    .option('--concurrency <n>', 'sessions at once in this worker (default 4)')
    .option('--global-concurrency <n>', 'sessions at once in the whole fleet')
    .option('--starts-per-minute <n>', 'session starts per minute, fleet-wide')
    .option('--model-rpm <n>', 'model requests per minute, fleet-wide (give every worker the same value)')
    .option('--dead-after <seconds>', 'a worker silent this long is gone and its sessions move (default 10)')
    .option('--keep-cancelled <hours>', "keep a cancelled session's call journal this long (default 168)")
    .option('--http-port <n>', 'approval endpoint on 127.0.0.1 (default 0: any free port; -1: none)')
    .action(async (o) => {
      const { runFleetServe } = await import('./fleet-actions.js');
      process.exitCode = await runFleetServe(o);
    });

  fleet
    .command('submit')
    .description('Queue a session (a prompt), or one session per line of a JSONL file of tasks.')
    .argument('[prompt]', 'the prompt')
    .option(
      '--file <tasks.jsonl>',
      'one task per line: {"prompt", "cwd"|"repo", "branch", "model", "priority", …}',
    )
    .option('--cwd <dir>', 'working directory every worker sees (default: the current directory)')
    .option('--repo <path|url>', 'work in a fresh checkout of this git repository on the worker')
    .option('--branch <name>', 'the session branch with --repo (default gantry/fleet/<session>)')
    .option('--model <name>', 'model name or alias')
    .option('--provider <name>', 'anthropic (default) or openai')
    .option('--priority <n>', '1 runs first')
    .option('--permission-mode <mode>', 'default, acceptEdits, plan, bypassPermissions, …')
    .option('--allowedTools <rule>', 'allow rule (repeatable)', collect)
    .option('--disallowedTools <rule>', 'deny rule (repeatable)', collect)
    .option('--settings <file>', 'settings file, read on the worker (repeatable)', collect)
    .option('--max-turns <n>', 'model requests allowed')
    .option('--approval-timeout <seconds>', 'an unanswered ask is denied after this (default 86400)')
    .option('--label <text>', 'shown by status')
    .option('--session-id <id>', 'the session id (submitting it again starts nothing new)')
    .option('--wait', 'wait for the session(s) to end and print the result(s)')
    .option('--database <url>', DATABASE_HELP)
    .option('--json', 'print JSON')
    .action(async (prompt, o) => {
      const { runFleetSubmit } = await import('./fleet-actions.js');
      process.exitCode = await runFleetSubmit(prompt, o);
    });

  fleet
    .command('status')
    .description('List sessions (or show one): state, worker, result; and the pending asks.')
    .argument('[session]', 'one session')
    .option('--state <s>', 'only queued|running|succeeded|failed|cancelled (repeatable)', collect)
    .option('--limit <n>', 'at most this many (default 50)')
    .option('--database <url>', DATABASE_HELP)
    .option('--json', 'print JSON')
    .action(async (session, o) => {
      const { runFleetStatus } = await import('./fleet-actions.js');
      process.exitCode = await runFleetStatus(session, o);
    });

  fleet
    .command('logs')
    .description("Print a session's transcript (from this machine's fleet folder).")
    .argument('<session>', 'the session')
    .option('--raw', 'the transcript lines as they are (JSONL)')
    .option('--database <url>', DATABASE_HELP)
    .action(async (session, o) => {
      const { runFleetLogs } = await import('./fleet-actions.js');
      process.exitCode = await runFleetLogs(session, o);
    });

  fleet
    .command('cancel')
    .description('Cancel a session (queued or running).')
    .argument('<session>', 'the session')
    .option('--database <url>', DATABASE_HELP)
    .action(async (session, o) => {
      const { runFleetCancel } = await import('./fleet-actions.js');
      process.exitCode = await runFleetCancel(session, o);
    });

  for (const verb of ['approve', 'deny'] as const) {
    fleet
      .command(verb)
      .description(verb === 'approve' ? 'Allow a pending ask.' : 'Deny a pending ask.')
      .argument('<session>', 'the session')
      .argument('<tool_use_id>', 'the asking call (see status)')
      .option('--message <text>', 'deny: the reason shown to the model')
      .option('--database <url>', DATABASE_HELP)
      .action(async (session, toolUseId, o) => {
        const { runFleetAnswer } = await import('./fleet-actions.js');
        process.exitCode = await runFleetAnswer(verb === 'approve', session, toolUseId, o);
      });
  }
}
