/**
 * The `gantry` command line's sub-commands (commander). Each sub-command lives in its own file
 * under cli/ and is imported only when it runs, so `gantry hook` (which runs on every tool call of
 * the host) loads as little as possible. An agent run (`gantry -p`, interactive `gantry`) never
 * loads this module (main.ts).
 */
import { readFileSync } from 'node:fs';
import { Command, CommanderError } from 'commander';
import { registerFleetCommand } from './fleet/fleet-command.js';

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};

const collect = (v: string, prev: string[] = []): string[] => [...prev, v];

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('gantry')
    .description(
      'The tool layer of a coding agent: decide, run and report tool calls (Claude Code compatible).',
    )
    .version(pkg.version, '-V, --version')
    .addHelpText(
      'after',
      '\nAgent: gantry -p "<prompt>" [options] runs a headless session (gantry -p --help for its options).',
    );

  program
    .command('check')
    .description(
      'Explain the permission decision for a Bash command (after --) or a tool call (--tool/--input).',
    )
    .argument('[command...]', 'the Bash command, after --')
    .option('--settings <file>', 'extra settings file (repeatable)', collect)
    .option('--mode <mode>', 'permission mode (default|acceptEdits|plan|dontAsk|bypassPermissions|auto)')
    .option('--cwd <dir>', 'working directory / project root (default: current directory)')
    .option('--add-dir <dir>', 'additional working directory (repeatable)', collect)
    .option('--tool <name>', 'tool name, e.g. Read, Write, Edit, WebFetch, mcp__srv__tool')
    .option('--input <json>', 'tool input as a JSON object')
    .option('--hooks', 'also run the PreToolUse hooks from settings')
    .option('--trust', 'treat the project folder as trusted (project allow rules apply)')
    .option('--json', 'print one JSON object')
    .addHelpText('after', '\nExit code: 0 allow, 1 ask, 2 deny, 3 usage, input or internal error.')
    .action(async (words: string[], o) => {
      const { runCheck } = await import('./check.js');
      process.exitCode = await runCheck(words, o);
    });

  program
    .command('hook')
    .description(
      'Claude Code PreToolUse/PostToolUse hook: reads the hook JSON on stdin, answers with the decision JSON.',
    )
    .option('--settings <file>', 'extra settings file (repeatable)', collect)
    .option('--pass-allow', 'emit no decision when Gantry would allow (only tighten the host)')
    .option('--deny-only', 'emit only deny decisions (hosts whose hooks can only block: Codex)')
    .action(async (o: { settings?: string[]; passAllow?: boolean; denyOnly?: boolean }) => {
      const { handleHook, readStdin } = await import('./hook/run-hook.js');
      const answer = await handleHook(await readStdin(), {
        ...(o.settings ? { settingsFiles: o.settings } : {}),
        ...(o.passAllow ? { passAllow: true } : {}),
        ...(o.denyOnly ? { denyOnly: true } : {}),
      });
      process.stdout.write(answer.stdout);
      process.stderr.write(answer.stderr);
      process.exitCode = answer.exitCode;
    });

  program
    .command('replay')
    .description(
      'Replay recorded tool calls (Claude Code transcripts) through the permission engine and compare.',
    )
    .argument('[files...]', 'transcript .jsonl files or directories (default: ~/.claude/projects)')
    .option('--settings <file>', 'extra settings file (repeatable)', collect)
    .option('--mode <mode>', 'permission mode for every call (default: the recorded mode)')
    .option('--json', 'one JSON line per call, then a summary line')
    .option('--execute', 'also run the allowed read-only calls in --workspace')
    .option('--suggest', 'print only the suggested allow rules (verified by a second replay)')
    .option('--workspace <dir>', 'directory the executed calls are re-rooted into')
    .option(
      '--max-line-bytes <n>',
      'longest transcript line read; longer ones count as malformed (default 64 MiB)',
    )
    .action(async (files: string[], o) => {
      const { runReplay } = await import('./replay/cli.js');
      process.exitCode = await runReplay(files, o);
    });

  const mcp = program
    .command('mcp')
    .description('Serve the built-in tools over MCP (stdio or Streamable HTTP), permission engine in front.')
    .option('--cwd <dir>', 'project root (default: current directory)')
    .option('--mode <mode>', 'permission mode')
    .option('--settings <file>', 'extra settings file (repeatable)', collect)
    .option('--transport <kind>', 'stdio (default) or http (implied by --port)')
    .option('--port <n>', 'port for --transport http (0 = any free port)')
    .option('--on-ask <what>', 'deny or allow when the client cannot be asked (elicitation)', 'deny')
    .option('--trust', 'treat the project folder as trusted')
    .option('--max-message-bytes <n>', 'stdio: longest accepted message in bytes (default 16 MiB)')
    .option('--session-idle-ms <n>', 'http: close a session idle this long (default 30 minutes)')
    .option('--max-sessions <n>', 'http: most sessions at once (default 1000)')
    .option(
      '--auth-token <token>',
      'http: require Authorization: Bearer <token>, at least 16 characters (or env GANTRY_MCP_TOKEN)',
    )
    .action(async (o) => {
      const { runMcp } = await import('./mcp-command.js');
      process.exitCode = await runMcp(o, pkg.version);
    });
  // `gantry mcp list --cwd x`: options after `list` are the sub-command's own.
  program.enablePositionalOptions();
  mcp.enablePositionalOptions();
  mcp
    .command('list')
    .description('Check the MCP servers a session here would use: connect each once and report its status.')
    .option('--cwd <dir>', 'project root (default: current directory)')
    .option('--settings <file>', 'extra settings file (repeatable)', collect)
    .option('--mcp-config <file-or-json>', 'MCP servers from a JSON file or string (repeatable)', collect)
    .option('--strict-mcp-config', 'use only the --mcp-config servers')
    .option('--trust', 'treat the project folder as trusted')
    .option('--json', 'print the reports as JSON')
    .addHelpText('after', '\nExit code: 0 all started servers connected, 1 one failed, 3 usage error.')
    .action(async (o) => {
      const { runMcpList } = await import('./mcp-list.js');
      process.exitCode = await runMcpList(o, pkg.version);
    });

  program
    .command('serve')
    .description('Run the guard as an HTTP hook on 127.0.0.1 (Claude Code "type": "http" hooks).')
    .option('--port <n>', 'port on 127.0.0.1 (0 = any free port; default 7477)')
    .option('--settings <file>', 'extra settings file (repeatable)', collect)
    .option('--pass-allow', 'emit no decision when Gantry would allow (only tighten the host)')
    .addHelpText(
      'after',
      '\nToken: GANTRY_HOOK_TOKEN, else ~/.gantry/hook-token (created 0600 on first run).',
    )
    .action(async (o) => {
      const { runServe } = await import('./serve/serve-command.js');
      process.exitCode = await runServe(o);
    });

  registerFleetCommand(program);

  program
    .command('log')
    .description('Show recent guard decisions from the audit log, with a summary.')
    .option('--since <age>', 'only entries newer than this (e.g. 30m, 1h, 2d; default 24h)')
    .option('--decision <d>', 'only this decision (allow|ask|deny)')
    .option('--tool <name>', 'only this tool')
    .option('--json', 'one JSON line per entry, then a summary line')
    .option('--file <path>', 'log file (default: GANTRY_HOOK_LOG or ~/.gantry/hook-log.jsonl)')
    .action(async (o) => {
      const { runLog } = await import('./audit/log-command.js');
      process.exitCode = await runLog(o);
    });

  program
    .command('doctor')
    .description('Check that Gantry is set up and working here: sandbox, ripgrep, settings, installed hooks.')
    .option('--cwd <dir>', 'project directory (default: current directory)')
    .option('--json', 'print one JSON object')
    .addHelpText('after', '\nExit code: 0 all well, 1 problems found (numbered, with fixes), 3 usage error.')
    .action(async (o) => {
      const { runDoctor } = await import('./doctor/doctor-command.js');
      process.exitCode = await runDoctor(o);
    });

  program
    .command('teammate')
    .description('Run as a teammate of an agent team (started by the team lead; see docs/teams.md).')
    .requiredOption('--team <name>', 'the team')
    .requiredOption('--name <member>', "this teammate's name in the team")
    .action(async (o: { team: string; name: string }) => {
      const { runTeammateCli } = await import('./teammate/teammate-command.js');
      await runTeammateCli(o);
    });

  for (const verb of ['install', 'uninstall'] as const) {
    program
      .command(verb)
      .description(
        verb === 'install'
          ? "Add Gantry's hook to an agent's settings (backup, diff, idempotent)."
          : 'Remove exactly the hook entries gantry install added.',
      )
      .option('--claude', 'Claude Code (default)')
      .option('--gemini', 'Gemini CLI')
      .option('--codex', 'Codex (~/.codex/hooks.json; blocks what Gantry denies)')
      .option('--user', 'the user settings file (default)')
      .option('--project', "the project's shared settings file")
      .option('--local', "the project's local settings file (Claude Code)")
      .option('--http', 'install: also add the HTTP hook of gantry serve (fast path)')
      .option('--port <n>', 'install --http: the port gantry serve listens on (default 7477)')
      .option('--dry-run', 'print the diff, write nothing')
      .action(async (o) => {
        const m = await import('./install/install-command.js');
        process.exitCode = await (verb === 'install' ? m.runInstall(o) : m.runUninstall(o));
      });
  }

  return program;
}

/** Parses and runs a sub-command (or the help, the version, a usage error) from `argv`. */
export async function runProgram(argv: string[]): Promise<void> {
  const program = buildProgram();
  // Usage errors (an unknown option, a missing argument) exit 3 in every command, as `gantry check`
  // documents; help and version exit 0.
  for (const c of [program, ...program.commands]) c.exitOverride();
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) {
      process.exitCode = e.exitCode === 0 ? 0 : EXIT_USAGE;
      return;
    }
    throw e;
  }
}

/** Exit code of a usage error, in every command. */
export const EXIT_USAGE = 3;
