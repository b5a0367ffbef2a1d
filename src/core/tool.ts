/**
 * The tool contract. A tool is a flat object: an input schema (zod, or a JSON Schema validator for
 * tools defined by JSON Schema such as MCP tools), a `call` async generator that yields progress
 * and returns output, a result mapping, and the questions the runtime and the permission engine
 * ask before running it. docs/runtime.md describes the result contract.
 */
import type { z } from 'zod';
import type { ToolResultContent } from './content.js';
import type { ToolUseContext } from './context.js';
import type { Message } from './messages.js';
import type { CallDescription, ToolPermissionResult } from './permission-types.js';
import type { ToolReminders } from './reminders.js';

export type AnyObject = Record<string, unknown>;

/** JSON Schema object as sent to the model (`input_schema`). */
export type JSONSchemaObject = { type: 'object'; properties?: Record<string, unknown>; [k: string]: unknown };

/**
 * One problem found by an input schema, in zod's issue shape (the subset the runtime reads).
 * `path` leads to the offending value (`['edits', 0, 'old_string']`; empty for the whole input).
 */
export interface InputSchemaIssue {
  /** zod's issue codes: `invalid_type`, `unrecognized_keys`, `invalid_value`, … (anything else: `message` is used). */
  code?: string;
  path: readonly PropertyKey[];
  message: string;
  /** `invalid_type`: the expected type (`string`, `number`, …). */
  expected?: string;
  /** `unrecognized_keys`: the extra keys. */
  keys?: readonly string[];
  /** `invalid_value`: the allowed values. */
  values?: readonly unknown[];
}

/** What an input schema's `safeParse` answers. */
export type InputParseResult<I> =
  | { success: true; data: I }
  | { success: false; error: { issues: readonly InputSchemaIssue[] } };

/**
 * An input schema that is not zod: a validator compiled from a JSON Schema (MCP tools). It parses
 * like zod (`safeParse`, issues with paths) and carries the schema the model is shown.
 */
export interface JsonSchemaInput<I = AnyObject> {
  readonly kind: 'json-schema';
  /** The schema as the model sees it (`input_schema`). */
  readonly jsonSchema: JSONSchemaObject;
  safeParse(input: unknown): InputParseResult<I>;
}

/** A tool's input schema: zod (parsing always on), or a compiled JSON Schema. */
export type ToolInputSchema<I> = z.ZodType<I> | JsonSchemaInput<I>;

/** What `mapToolResultToContent` sees besides the output: the call it answers. */
export interface ToolResultMeta<Input = AnyObject> {
  /** The `tool_use` id of the call. */
  toolUseId: string;
  /** The input the call ran with (parsed; after any update by the permission step). */
  input: Input;
  /** The context the call ran with (its compat profile, app state, …). */
  context: ToolUseContext;
}

/** What `call` returns. */
export interface ToolResult<T> {
  /** The structured output: what hosts store as the transcript's `toolUseResult` and hooks get as `tool_response`. */
  data: T;
  /** Messages to append to the conversation after this result (e.g. an attachment). */
  newMessages?: Message[];
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
  /** Old names still accepted (e.g. `Task` for `Agent`, `BashOutput` for `TaskOutput`). */
  readonly aliases: readonly string[];
  /** The input schema: zod, or a compiled JSON Schema (`JsonSchemaInput`). Parsing is always on. */
  readonly inputSchema: ToolInputSchema<Input>;
  /** JSON Schema shown to the model instead of the zod rendering (adapted tools: MCP). */
  readonly inputJSONSchema?: JSONSchemaObject;
  /** Model-facing description (the tool definition's `description`). */
  readonly description: string;
  /** Longer usage guidance included in the system prompt, if any. */
  readonly prompt: string;
  /** Largest result (characters) kept inline; above it the result is spilled to disk. `Infinity` = never spill. */
  readonly maxResultSizeChars: number;
  /** Deferred tools are listed by name only until ToolSearch loads them. */
  readonly shouldDefer: boolean;
  /** Never deferred. */
  readonly alwaysLoad: boolean;
  /** Extra words ToolSearch matches. */
  readonly searchHint?: string;
  /** True for tools adapted from MCP servers. */
  readonly isMcp: boolean;
  readonly mcpInfo?: { serverName: string; toolName: string };
  /** What the tool adds to the conversation outside its calls (session context, reminders); see core/reminders.ts. */
  readonly reminders?: ToolReminders;
  /**
   * Starts what the tool keeps for a whole session, once, when a main session starts (before its
   * first prompt), with the session's context: the Cron tools load the project's durable jobs and
   * arm their timers. Optional; sub-agent sessions do not call it. A failure becomes a warning
   * notice and never stops the session.
   */
  readonly startSession?: (context: ToolUseContext) => void | Promise<void>;

  /** Does the work. Yields progress events; returns the output. Honour `context.abortController.signal`. */
  call(input: Input, context: ToolUseContext): AsyncGenerator<Progress, ToolResult<Output>, void>;
  /**
   * Maps the output to the `tool_result` content the model sees. Sees the call's input and context
   * (compat-dependent renderings read the context's profile). Pure: called once per call.
   */
  mapToolResultToContent(output: Output, meta: ToolResultMeta<Input>): ToolResultContent;
  /** Pure checks on parsed input (no side effects beyond reading files). */
  validateInput(input: Input, context: ToolUseContext): Promise<ValidationResult>;
  /** The tool's own verdict; `passthrough` defers to the general engine (which asks when nothing allows). */
  checkPermissions(input: Input, context: ToolUseContext): Promise<ToolPermissionResult>;
  /** Permission targets and effects of this call, for the permission engine. */
  describeCall(input: Input, context: ToolUseContext): Promise<CallDescription>;
  isEnabled(): boolean;
  /**
   * May this call run alongside other concurrency-safe calls? The runtime asks once per call, with
   * the context the call will run in; without a context a tool that needs one answers false.
   */
  isConcurrencySafe(input: Input, context?: ToolUseContext): boolean;
  /** Does this call change nothing? Same contract as `isConcurrencySafe`. */
  isReadOnly(input: Input, context?: ToolUseContext): boolean;
  isDestructive(input: Input): boolean;
  /**
   * Does this call reach beyond the local machine? Optional: MCP tools answer from their server's
   * `openWorldHint`; built-in tools take it from the trait table. Informational, never authority.
   */
  isOpenWorld?(input: Input): boolean;
  /**
   * The input as hooks see it (PreToolUse, PostToolUse `tool_input`), when the harness adds fields
   * the model does not send: ExitPlanMode adds `plan` and `planFilePath` (Claude Code documentation,
   * "Hooks reference"). Optional; absent → hooks see the input unchanged. A hook's `updatedInput`
   * that echoes an injected field back unchanged has it removed before the input is parsed again.
   */
  observableInput?(input: Input, context: ToolUseContext): Promise<Record<string, unknown>>;
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
