/**
 * Whether a resolved path lies inside the session's working directories (project root, current
 * directory, additional directories; each symlink-resolved). Write, Edit and NotebookEdit look at
 * the file in `validateInput` only there: outside, the answer ("does not exist" or "has not been
 * read yet") would tell whether a file exists before anyone allowed the call, so those checks wait
 * until `call`, after the permission decision (docs/reliability.md "Bad paths").
 */
import type { ToolUseContext } from '../../core/index.js';
import { fsPathResolver, isInsideAny } from '../../core/index.js';

/** True when `resolved` (absolute, symlink-resolved) is inside a working directory of the session. */
export function insideWorkingDirectories(
  context: Pick<ToolUseContext, 'getAppState'>,
  resolved: string,
): boolean {
  const s = context.getAppState();
  const dirs = [s.projectRoot, s.cwd, ...s.additionalDirectories].map((d) => fsPathResolver.realpath(d));
  return isInsideAny(resolved, dirs);
}
