/**
 * The spawn seam between the Bash tool (which builds what to run) and the OS sandbox (which wraps
 * it): shared here because `sandbox/` sits below `tools/` and may not import from it (docs/architecture.md).
 */

/** What to spawn: a program, its arguments, working directory and complete environment. */
export interface SpawnSpec {
  /** Program to execute (absolute path or a name looked up in PATH). */
  file: string;
  args: string[];
  /** Absolute working directory. */
  cwd: string;
  /** Complete environment of the child (not merged with the parent's). */
  env: Record<string, string>;
  /**
   * Files the harness needs the command to be able to write (the cwd capture file). A sandbox
   * wrapper must keep them writable or cwd tracking silently stops (the cwd is then kept).
   */
  harnessWritablePaths: string[];
}

/** What a sandbox knows about the call when it wraps a spec. */
export interface SandboxCallInfo {
  command: string;
  /** The model asked to run outside the sandbox (the Claude Code sandboxing docs); the sandbox decides whether to honour it. */
  dangerouslyDisableSandbox: boolean;
  /** True for `run_in_background` tasks. */
  background: boolean;
}
