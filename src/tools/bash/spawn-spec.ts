/**
 * The ONE seam between "what to run" and "how it is spawned": `buildShellSpawnSpec` turns
 * `{command, cwd, env}` into a {@link SpawnSpec} `{file, args, cwd, env}`; a {@link BashSandbox}
 * may wrap that spec (bubblewrap, sandbox-runtime…) before it is spawned. Nothing else in the Bash
 * tool decides argv.
 *
 * How the command runs (the Claude Code tools reference "Execution environment"; our choices, documented here):
 * - `bash --noprofile --norc -c SCRIPT bash COMMAND`: a non-interactive, non-login bash. No user rc
 *   file is sourced, `BASH_ENV`/`ENV` are removed from the environment (bash -c would source
 *   `$BASH_ENV`), and aliases are not expanded (non-interactive shells do not). Claude Code instead
 *   snapshots the user's rc file; we do not, so commands behave the same on every machine.
 * - SCRIPT installs an EXIT trap writing `pwd -P` to `cwdFile` and a TERM trap that reaps the
 *   shell's children before it exits (the harness signals the whole group, so they end too), clears the positional parameters
 *   (so `$1` inside the command is empty, as in a fresh shell), then `eval`s the command. The trap
 *   runs however the command ends (normal end, `exit N`, syntax error, SIGTERM handled by bash); it
 *   does not run when the shell is SIGKILLed or `exec`s another program — then the cwd is kept.
 * - When `envFile` is given (`CLAUDE_ENV_FILE` / `GANTRY_ENV_FILE`, the Claude Code tools reference) it is sourced first.
 * - stdin is /dev/null; stdout and stderr are the same file (the spawner's job, exec.ts).
 * - The spawner puts one line in front of SCRIPT that waits for its go-ahead on fd 3 and closes
 *   it (spawn-gate.ts); the spec itself is unchanged, so a sandbox wraps the script as built.
 */

import type { SandboxCallInfo, SpawnSpec } from '../../core/spawn.js';
import { markSelfGatingSpec } from './spawn-gate.js';

export type { SandboxCallInfo, SpawnSpec };

/**
 * The sandbox seam (helper H, `src/sandbox/`). Pass one to `createBashTool({ sandbox })`.
 *
 * - `wrap(spec, info)`: returns the spec to actually spawn (e.g. `bwrap … -- bash …`) and a `cleanup`
 *   called exactly once after the process group has ended (also on timeout, abort or spawn failure).
 *   It may return `spec` unchanged (sandbox off, excluded command, honoured
 *   `dangerouslyDisableSandbox`). Throwing makes the call fail with the error's message (fail closed:
 *   the command does not run unsandboxed).
 * - `decide(input)` (optional): whether the call will be sandboxed, for the permission engine.
 * - `annotate(stderr, info)`: given the harness's stderr notes for a finished command, returns them
 *   with sandbox violation details appended (the Claude Code sandboxing docs "escape hatch"); `info.output` is the
 *   model-visible output excerpt, for sandboxes that recognise violations from it.
 */
export interface BashSandbox {
  /**
   * Optional: will this call run sandboxed? `describeCall` copies `mode === 'sandboxed'` into
   * `CallDescription.sandboxed` (the permission engine's `autoAllowBashIfSandboxed` path, the Claude Code sandboxing docs).
   * Without it the description never claims a sandbox (fail closed).
   */
  decide?(input: {
    command: string;
    dangerouslyDisableSandbox?: boolean;
    cwd?: string;
  }): Promise<{ mode: string }>;
  wrap(
    spec: SpawnSpec,
    info: SandboxCallInfo,
  ): Promise<{ spec: SpawnSpec; cleanup: () => void | Promise<void> }>;
  annotate(stderr: string, info: SandboxCallInfo & { output: string }): string;
}

/** Quotes a string for bash as a single word. */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** Environment variables removed from every child: they would make bash source files or change parsing. */
const STRIPPED_ENV = ['BASH_ENV', 'ENV', 'PROMPT_COMMAND', 'SHELLOPTS', 'BASHOPTS', 'CDPATH'];

/** Variables set for every command: no editor or pager waits for a person that is not there. */
const FIXED_ENV: Record<string, string> = {
  GIT_EDITOR: 'true',
  GIT_TERMINAL_PROMPT: '0',
  GANTRY: '1',
};

export interface ShellSpawnOptions {
  command: string;
  /** Absolute directory the command starts in. */
  cwd: string;
  /** Base environment (default `process.env`). */
  env?: Record<string, string | undefined>;
  /** File the EXIT trap writes `pwd -P` to. */
  cwdFile: string;
  /** Script sourced before the command (CLAUDE_ENV_FILE semantics), if any. */
  envFile?: string;
  /** Shell binary (default `bash`, looked up in PATH). */
  shell?: string;
}

/** Builds the spawn spec for one Bash command (see the module comment for the exact behaviour). */
export function buildShellSpawnSpec(options: ShellSpawnOptions): SpawnSpec {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.env ?? process.env)) {
    if (value !== undefined && !STRIPPED_ENV.includes(key)) env[key] = value;
  }
  Object.assign(env, FIXED_ENV);
  // bash keeps a logical $PWD it inherits when it names the start directory (symlinked paths stay as written).
  env.PWD = options.cwd;
  delete env.OLDPWD;
  const lines = [
    `trap -- ${shellQuote(`pwd -P >| ${shellQuote(options.cwdFile)}`)} EXIT`,
    // On SIGTERM, reap the children (they got SIGTERM too, as group members) before exiting, so no
    // orphaned zombie is left for init to collect.
    "trap -- 'wait; exit 143' TERM",
  ];
  if (options.envFile) {
    lines.push(`if [ -f ${shellQuote(options.envFile)} ]; then . ${shellQuote(options.envFile)}; fi`);
  }
  lines.push('__gantry_command=$1', 'set --', 'eval "$__gantry_command"');
  const spec: SpawnSpec = {
    file: options.shell ?? 'bash',
    args: ['--noprofile', '--norc', '-c', lines.join('\n'), 'bash', options.command],
    cwd: options.cwd,
    env,
    harnessWritablePaths: [options.cwdFile],
  };
  // Spawned as it is, this bash reads the spawn gate itself (spawn-gate.ts): no wrapper process.
  markSelfGatingSpec(spec, 3);
  return spec;
}
