/**
 * The tool contract (seed 000 §1; spec §1.2). A tool is a flat object: a zod input schema, a
 * `call` async generator that yields progress and returns output, a result mapping, and the
 * questions the runtime and the permission engine ask before running it.
 */
import type { z } from 'zod';
import type { ToolResultContent } from './content.js';
import type { ToolUseContext } from './context.js';
import type { CallDescription, ToolPermissionResult } from './permission-types.js';

export type AnyObject = Record<string, unknown>;

/** JSON Schema object as sent to the model (`input_schema`). */
export type JSONSchemaObject = { type: 'object'; properties?: Record<string, unknown>; [k: string]: unknown };

/** What `call` returns (seed 000 §1.1). */
export interface ToolResult<T> {
  data: T;
  /** Messages to append to the conversation after this result (e.g. an attachment). */
  newMessages?: unknown[];
  /** Changes the context for subsequent calls (applied in call order; after the batch for parallel calls). */
  contextModifier?: (context: ToolUseContext) => ToolUseContext;
}

/** `validateInput`'s answer: pure checks on parsed input. Never throws. */
export type ValidationResult = { ok: true } | { ok: false; message: string; field?: string };

/**
 * A tool. `Input` is the parsed input type (from the zod schema), `Output` what `call` returns in
 * `data`, `Progress` what `call` yields while it runs.
 */
export interface Tool<Input extends AnyObject = AnyObject, Output = unknown, Progress = unknown> {
  /** Name the model calls, e.g. `Read`, `mcp__server__tool`. */
  readonly name: string;
  /** Old names still accepted (e.g. `Task` for `Agent`, `BashOutput` for `TaskOutput`; spec §1.1). */
  readonly aliases: readonly string[];
  /** Zod object schema of the input. Parsing is always on. */
  readonly inputSchema: z.ZodType<Input>;
  /** JSON Schema shown to the model instead of the zod rendering (adapted tools: MCP). */
  readonly inputJSONSchema?: JSONSchemaObject;
  /** Model-facing description (the tool definition's `description`). */
  readonly description: string;
  /** Longer usage guidance included in the system prompt, if any. */
  readonly prompt: string;
  /** Largest result (characters) kept inline; above it the result is spilled to disk. `Infinity` = never spill. */
  readonly maxResultSizeChars: number;
  /** Deferred tools are listed by name only until ToolSearch loads them (spec §2.19). */
  readonly shouldDefer: boolean;
  /** Never deferred. */
  readonly alwaysLoad: boolean;
  /** Extra words ToolSearch matches. */
  readonly searchHint?: string;
  /** True for tools adapted from MCP servers. */
  readonly isMcp: boolean;
  readonly mcpInfo?: { serverName: string; toolName: string };

  /** Does the work. Yields progress events; returns the output. Honour `context.abortController.signal`. */
  call(input: Input, context: ToolUseContext): AsyncGenerator<Progress, ToolResult<Output>, void>;
  /** Maps output to the `tool_result` content the model sees. */
  mapToolResultToContent(output: Output, toolUseId: string): ToolResultContent;
  /** Pure checks on parsed input (no side effects beyond reading files). */
  validateInput(input: Input, context: ToolUseContext): Promise<ValidationResult>;
  /** The tool's own verdict; `passthrough` defers to the general engine (which asks when nothing allows). */
  checkPermissions(input: Input, context: ToolUseContext): Promise<ToolPermissionResult>;
  /** Permission targets and effects of this call, for the permission engine (design.md §2 step 4). */
  describeCall(input: Input, context: ToolUseContext): Promise<CallDescription>;
  isEnabled(): boolean;
  isConcurrencySafe(input: Input): boolean;
  isReadOnly(input: Input): boolean;
  isDestructive(input: Input): boolean;
  userFacingName(input: Input | undefined): string;
  /** Compact text for the auto-mode classifier; '' means the classifier never auto-approves it. */
  toAutoClassifierInput(input: Input): string;
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds tools of every input type.
export type AnyTool = Tool<any, any, any>;

/** Finds a tool by name or alias. */
export function findToolByName(tools: readonly AnyTool[], name: string): AnyTool | undefined {
  return tools.find((t) => t.name === name || t.aliases.includes(name));
}
