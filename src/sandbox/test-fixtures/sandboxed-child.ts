/**
 * A separate Node process that runs one Bash command through a sandbox (or without one) and
 * prints `{"code":…,"output":…}` as one JSON line. Used by the escape tests that need a parent
 * process of their own: `/proc/<parent>/environ` (the parent holds a secret the command was not
 * given) and "the sandbox dies with its parent" (the test SIGKILLs this process).
 *
 * argv[2]: JSON `{ project, command, sandboxed, tmpRoot? }`; `{PARENT_PID}` in the
 * command is replaced by this process's pid.
 */
import { defaultSandboxSettings } from '../../core/sandbox-settings.js';
import { createSandboxManager } from '../sandbox-manager.js';
import { runWithSandbox } from '../test-support.js';

const input = JSON.parse(process.argv[2] ?? '{}') as {
  project: string;
  command: string;
  sandboxed: boolean;
  /** Parent of the session temp root (the test removes it, also when it SIGKILLs this process). */
  tmpRoot?: string;
};
const sandbox = input.sandboxed
  ? createSandboxManager({
      settings: { ...defaultSandboxSettings(), enabled: true },
      workingDirectories: () => [input.project],
      ...(input.tmpRoot ? { tmpRoot: input.tmpRoot } : {}),
    })
  : undefined;
const env: Record<string, string> = {
  PATH: process.env.PATH ?? '/usr/bin:/bin',
  HOME: process.env.HOME ?? '/',
};
const command = input.command.replaceAll('{PARENT_PID}', String(process.pid));
const result = await runWithSandbox(sandbox, { command, cwd: input.project, env });
process.stdout.write(`${JSON.stringify({ code: result.code, output: result.output })}\n`);
await sandbox?.dispose();
