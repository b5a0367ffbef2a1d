/**
 * The Bash tool's public surface: the tool factory with its options, the sandbox seam, and the
 * structured output and progress types hosts render.
 */
export {
  type BashOutput,
  type BashProgress,
  type BashToolOptions,
  BashTool,
  createBashTool,
} from './bash.tool.js';
export { BashAbortError, BashCommandError } from './bash-output.js';
export type { GitOperation } from './git-operations.js';
export type { BashSandbox, SandboxCallInfo, SpawnSpec } from './spawn-spec.js';
