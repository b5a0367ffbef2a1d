/**
 * Carrying a call's model-facing rendering next to its structured result.
 *
 * A tool's output (`ToolResult.data`) is what hosts store as `toolUseResult` and must keep Claude
 * Code's shapes (README §5.2). Some renderings depend on the call's compat profile (Read's line
 * separator, Edit's snippet style), which `mapToolResultToContent` cannot see. So `call` attaches
 * the rendered content as a NON-enumerable property: JSON (transcripts, hooks) and deep equality
 * ignore it, and `mapToolResultToContent` uses it. A copy that drops it (structuredClone) falls back
 * to the default rendering, never to an error.
 */
import type { ToolResultContent } from '../../core/index.js';

const MODEL_CONTENT = Symbol.for('gantry.file-tools.modelContent');

/** Attaches `content` to `output` (returns the same object). */
export function withModelContent<T extends object>(output: T, content: ToolResultContent): T {
  Object.defineProperty(output, MODEL_CONTENT, { value: content, enumerable: false, configurable: true });
  return output;
}

/** The content attached by {@link withModelContent}, if any. */
export function modelContentOf(output: object): ToolResultContent | undefined {
  return (output as { [MODEL_CONTENT]?: ToolResultContent })[MODEL_CONTENT];
}
