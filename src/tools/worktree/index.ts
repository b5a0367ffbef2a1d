/**
 * The worktree tools (behind the `WORKTREE` feature flag; the registry imports this module only
 * when the flag is on). The git helpers they share with the Agent tool's isolation mode are in
 * git-worktree.ts, which the agents room imports directly.
 */
import type { AnyTool } from '../../core/index.js';
import { EnterWorktreeTool } from './enter-worktree.tool.js';
import { ExitWorktreeTool } from './exit-worktree.tool.js';

export {
  type EnterWorktreeInput,
  type EnterWorktreeOutput,
  EnterWorktreeTool,
} from './enter-worktree.tool.js';
export { type ExitWorktreeInput, type ExitWorktreeOutput, ExitWorktreeTool } from './exit-worktree.tool.js';

/** EnterWorktree and ExitWorktree, in the order the model sees them. */
export function worktreeTools(): AnyTool[] {
  return [EnterWorktreeTool, ExitWorktreeTool];
}
