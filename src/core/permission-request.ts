/**
 * `buildPermissionRequest`: the one place a `PermissionRequest` is put together — by the runtime
 * for its own tools, by the guard (`gantry check`/`hook`/`replay`) for a host's calls, and by tests.
 * `isReadOnly` and `classifierInput` are always derived the same way: from the tool's own
 * predicates (`isReadOnly`, `toAutoClassifierInput`), or, for a tool Gantry has no object for, from
 * the description (read-only only when the describer proved it; no classifier text).
 *
 * A predicate that throws counts as "not read-only" / "no classifier text" (fail closed).
 */
import type { AppState, ToolUseContext } from './context.js';
import { isMcpToolName } from './mcp-names.js';
import type { CallDescription, PermissionRequest, ToolPermissionResult } from './permission-types.js';

/** What the request needs from a tool: a `Tool`, a describer entry, or just a name. */
export interface RequestTool {
  readonly name: string;
  /** True for MCP-adapted tools (default: the `mcp__` name prefix). */
  readonly isMcp?: boolean;
  isReadOnly?(input: Record<string, unknown>, context?: ToolUseContext): boolean;
  toAutoClassifierInput?(input: Record<string, unknown>): string;
}

/** The session facts a decision depends on (a subset of `AppState`). */
export type RequestSession = Pick<
  AppState,
  'cwd' | 'projectRoot' | 'additionalDirectories' | 'permissionMode' | 'sessionId'
>;

export interface BuildPermissionRequestOptions {
  tool: RequestTool;
  /** The name the call used (default `tool.name`; a host may call a tool by an alias). */
  toolName?: string;
  input: Record<string, unknown>;
  description: CallDescription;
  /** The tool's own verdict (`Tool.checkPermissions`); default passthrough. */
  toolResult?: ToolPermissionResult;
  toolUseId: string;
  session: RequestSession;
  /** The context the call will run in, for predicates that need it (the runtime passes it). */
  context?: ToolUseContext;
  /** The input hooks see, when the tool adds fields to it (`Tool.observableInput`). */
  hookInput?: Record<string, unknown>;
}

function safe<T>(fn: () => T, fallback: T, check: (v: unknown) => v is T): T {
  try {
    const v = fn();
    return check(v) ? v : fallback;
  } catch {
    return fallback;
  }
}
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
const isString = (v: unknown): v is string => typeof v === 'string';

/** Builds the request the permission engine decides (see module doc). Never throws. */
export function buildPermissionRequest(o: BuildPermissionRequestOptions): PermissionRequest {
  const { tool, input, description } = o;
  const toolName = o.toolName ?? tool.name;
  const isReadOnly = tool.isReadOnly
    ? safe(
        () =>
          (tool.isReadOnly as (i: Record<string, unknown>, c?: ToolUseContext) => boolean)(input, o.context),
        false,
        isBool,
      )
    : description.readOnly === true;
  const classifierInput = tool.toAutoClassifierInput
    ? safe(() => (tool.toAutoClassifierInput as (i: Record<string, unknown>) => string)(input), '', isString)
    : '';
  // Set after, not `...(o.hookInput ? { hookInput } : {})`: V8 builds a literal with a conditional
  // spread key by key at run time, and this runs once per call (docs/mcp-client.md §8.3).
  const request: PermissionRequest = {
    toolName,
    input,
    description,
    toolResult: o.toolResult ?? { behavior: 'passthrough' },
    isReadOnly,
    isMcp: tool.isMcp ?? isMcpToolName(toolName),
    cwd: o.session.cwd,
    projectRoot: o.session.projectRoot,
    additionalDirectories: o.session.additionalDirectories,
    mode: o.session.permissionMode,
    sessionId: o.session.sessionId,
    toolUseId: o.toolUseId,
    // A plain field, not a getter that computes it on first read: an object literal with an
    // accessor is built through V8's slow path (about twice the JSON.stringify it would save).
    classifierInput,
  };
  if (o.hookInput) request.hookInput = o.hookInput;
  return request;
}
