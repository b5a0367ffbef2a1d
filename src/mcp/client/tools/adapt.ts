/**
 * MCP tools as Gantry tools (docs/mcp-client.md "Adapting tools"). One template holds what every
 * MCP tool shares; each server tool is the template spread and overridden:
 *
 * - name `mcp__<server>__<tool>` (characters outside `[A-Za-z0-9_-]` replaced, core/mcp-names.ts);
 *   `mcpInfo` keeps the server's own names;
 * - description as served, cut at 2,048 characters (as Claude Code does);
 * - `inputJSONSchema`: the server's schema verbatim (the model sees it as given), and inputs are
 *   validated against it with Ajv (`jsonSchemaInput`). A schema whose root is not an object
 *   schema (a bare `anyOf`, no `type`) is shown to the model as an object schema with the branches'
 *   properties merged; validation still uses the server's schema;
 * - `isReadOnly` and `isConcurrencySafe` from `annotations.readOnlyHint`, `isDestructive` from
 *   `destructiveHint`, `isOpenWorld` from `openWorldHint` (absent → false). Hints decide
 *   scheduling and plan mode; they never grant permission: the engine never allows an MCP call as
 *   read-only, so a read-only hint does not auto-allow;
 * - `alwaysLoad` from `_meta["anthropic/alwaysLoad"]` or the server entry's `alwaysLoad`;
 *   `searchHint` from `_meta["anthropic/searchHint"]`; `_meta["anthropic/maxResultSizeChars"]`
 *   (≤ 500,000) raises the inline limit;
 * - `checkPermissions`: passthrough to the engine (so `mcp__server` and `mcp__server__tool` rules
 *   apply), except when an approval pin no longer matches (security/pins.ts): then it asks, with
 *   the change;
 * - `describeCall`: effects from the schema (describe.ts);
 * - `call`: `tools/call` through the connection, progress as tool progress, the turn's signal
 *   for cancellation, results converted and capped (results.ts); `isError` results become
 *   `is_error` tool results, and so do malformed results (result-shape.ts), naming what is wrong;
 * - the model's content carries a notice that it is untrusted data (`markUntrusted`, on by default).
 */
import type { CallToolResult, Progress, Tool as SdkTool } from '@modelcontextprotocol/sdk/types.js';
import { buildTool } from '../../../core/build-tool.js';
import { describeWorldOf } from '../../../core/call-describer.js';
import type { ToolResultContent } from '../../../core/content.js';
import { ToolExecutionError } from '../../../core/errors.js';
import { modelMcpToolName } from '../../../core/mcp-names.js';
import type { ToolPermissionResult } from '../../../core/permission-types.js';
import type { AnyTool, JSONSchemaObject } from '../../../core/tool.js';
import { jsonSchemaInput } from '../../../runtime/json-schema-input.js';
import {
  callOwnsAbortSignal,
  callProgressObserved,
  requestSignalOf,
} from '../../../runtime/turn-controller.js';
import { type ApprovalPins, pinQuestion, type ToolFingerprint } from '../security/pins.js';
import { argumentRoles, describeMcpCall } from './describe.js';
import { McpMalformedResultError } from './result-shape.js';
import {
  capMcpContent,
  convertMcpContent,
  inlineMcpContent,
  MAX_META_RESULT_SIZE_CHARS,
  markUntrusted,
  type McpToolOutput,
} from './results.js';

/** Claude Code cuts MCP tool descriptions at 2 KB. */
export const MAX_MCP_DESCRIPTION_CHARS = 2048;

/** The declared inline cap of MCP tool results (the runtime clamps it to its global cap). */
export const MCP_MAX_RESULT_SIZE_CHARS = 100_000;

/** What a tool call needs from its server connection. */
export interface McpToolBackend {
  callTool(
    toolName: string,
    args: Record<string, unknown>,
    options: { signal?: AbortSignal; onProgress?: (p: Progress) => void },
  ): Promise<CallToolResult>;
  /** Per-call timeout in ms (for the error message). */
  readonly toolTimeoutMs: number;
}

/** A progress event of a running MCP call (what the tool yields). */
export interface McpProgressEvent {
  type: 'mcp_progress';
  progress: number;
  total?: number;
  message?: string;
}

export interface AdaptOptions {
  serverName: string;
  backend: McpToolBackend;
  /** The server entry's `alwaysLoad`. */
  serverAlwaysLoad?: boolean;
  pins?: ApprovalPins;
  /** Put the untrusted-content notice in front of the model's content (default true). */
  markUntrusted?: boolean;
  /** `MAX_MCP_OUTPUT_TOKENS`. */
  maxOutputTokens: number;
}

/** The template every MCP tool is spread from (its members are overridden per tool). */
export const MCP_TOOL_TEMPLATE = buildTool({
  name: 'mcp',
  isMcp: true,
  description: 'A tool served by an MCP server.',
  maxResultSizeChars: MCP_MAX_RESULT_SIZE_CHARS,
  inputSchema: jsonSchemaInput({ type: 'object' }),
  async checkPermissions() {
    return { behavior: 'passthrough' as const };
  },
  // biome-ignore lint/correctness/useYield: the template's call is always overridden.
  async *call(): AsyncGenerator<never, { data: McpToolOutput }, void> {
    throw new ToolExecutionError('MCP tool template called directly');
  },
});

/** The answer of a call no approval pin concerns (one shared, settled promise: nothing to await per call). */
const PASSTHROUGH: Promise<ToolPermissionResult> = Promise.resolve(
  Object.freeze({ behavior: 'passthrough' }),
);

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The schema the model is shown: the server's schema when its root is an object schema, else an
 * object schema whose properties merge the root branches' (`anyOf`/`oneOf`/`allOf`).
 */
export function modelInputSchema(schema: unknown): JSONSchemaObject {
  if (!isObj(schema)) return { type: 'object', properties: {} };
  const combos = ['anyOf', 'oneOf', 'allOf'].filter((k) => Array.isArray(schema[k]));
  if (schema.type === 'object' && combos.length === 0) return schema as JSONSchemaObject;
  const properties: Record<string, unknown> = isObj(schema.properties) ? { ...schema.properties } : {};
  const requiredSets: string[][] = [];
  for (const k of combos)
    for (const branch of schema[k] as unknown[]) {
      if (!isObj(branch)) continue;
      if (isObj(branch.properties))
        for (const [p, s] of Object.entries(branch.properties)) properties[p] ??= s;
      if (k === 'allOf' && Array.isArray(branch.required)) requiredSets.push(branch.required as string[]);
    }
  const required = [
    ...new Set([
      ...(Array.isArray(schema.required) ? (schema.required as string[]) : []),
      ...requiredSets.flat(),
    ]),
  ];
  const out: JSONSchemaObject = { type: 'object', properties };
  if (typeof schema.$schema === 'string') out.$schema = schema.$schema;
  if (required.length) out.required = required;
  return out;
}

function truncateDescription(text: string): string {
  return text.length <= MAX_MCP_DESCRIPTION_CHARS ? text : `${text.slice(0, MAX_MCP_DESCRIPTION_CHARS - 1)}…`;
}

/** The fingerprint approval pins compare (name, description and schema as served). */
export function fingerprintOf(tool: AnyTool): ToolFingerprint {
  return { name: tool.name, description: tool.description, inputSchema: tool.inputJSONSchema };
}

function errorText(result: CallToolResult): string {
  const texts = (result.content ?? [])
    .map((b) =>
      b.type === 'text' ? b.text : b.type === 'resource' && 'text' in b.resource ? b.resource.text : '',
    )
    .filter(Boolean);
  return texts.join('\n') || 'The MCP tool reported an error without a message.';
}

function callFailure(
  error: unknown,
  serverName: string,
  toolName: string,
  timeoutMs: number,
): ToolExecutionError {
  if (error instanceof McpMalformedResultError)
    return new ToolExecutionError(
      `MCP server "${serverName}" returned a malformed result for ${toolName}: ${error.problem}. The tool ran on the server, but its result was not passed on.`,
    );
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown }).code;
  if (code === -32001 || /Request timed out/i.test(message))
    return new ToolExecutionError(
      `MCP server "${serverName}" did not finish ${toolName} within ${timeoutMs} ms (MCP_TOOL_TIMEOUT or the server's "timeout"); the call was cancelled.`,
    );
  if (code === -32000 || /Connection closed/i.test(message))
    return new ToolExecutionError(
      `MCP server "${serverName}" closed the connection during ${toolName} (${message}). The call's effects are unknown.`,
    );
  return new ToolExecutionError(`MCP server "${serverName}" failed ${toolName}: ${message}`);
}

/**
 * Runs the request with progress: progress notifications are yielded as `mcp_progress` events
 * while the request runs; returns its result, throws its error. Events wait in a list until the
 * generator yields them; `wake` resumes the generator when an event or the outcome arrives (one
 * promise per wait, none when nothing is pending).
 */
async function* callWithProgress(
  backend: McpToolBackend,
  toolName: string,
  input: Record<string, unknown>,
  signal: AbortSignal,
): AsyncGenerator<McpProgressEvent, CallToolResult, void> {
  let events: McpProgressEvent[] | undefined;
  let wake: (() => void) | undefined;
  let outcome: { ok: true; result: CallToolResult } | { ok: false; error: unknown } | undefined;
  const settle = (o: NonNullable<typeof outcome>): void => {
    outcome = o;
    wake?.();
  };
  backend
    .callTool(toolName, input, {
      signal,
      onProgress: (p) => {
        if (outcome) return;
        (events ??= []).push({
          type: 'mcp_progress',
          progress: p.progress,
          ...(p.total !== undefined ? { total: p.total } : {}),
          ...(p.message !== undefined ? { message: p.message } : {}),
        });
        wake?.();
      },
    })
    .then(
      (result) => settle({ ok: true, result }),
      (error: unknown) => settle({ ok: false, error }),
    );
  for (;;) {
    if (events?.length) {
      const batch = events;
      events = undefined;
      for (const event of batch) yield event;
      continue;
    }
    if (outcome) break;
    await new Promise<void>((resolve) => {
      wake = resolve;
    });
    wake = undefined;
  }
  if (!outcome.ok) throw outcome.error;
  return outcome.result;
}

/** Adapts one server tool (see the module comment). */
export function adaptMcpTool(sdkTool: SdkTool, options: AdaptOptions): AnyTool {
  const { serverName, backend } = options;
  const name = modelMcpToolName(serverName, sdkTool.name);
  const description = truncateDescription(sdkTool.description ?? '');
  const schema = (isObj(sdkTool.inputSchema) ? sdkTool.inputSchema : { type: 'object' }) as JSONSchemaObject;
  const shown = modelInputSchema(schema);
  const annotations = sdkTool.annotations ?? {};
  const readOnly = annotations.readOnlyHint === true;
  const destructive = annotations.destructiveHint === true;
  const openWorld = annotations.openWorldHint === true;
  const meta = isObj(sdkTool._meta) ? sdkTool._meta : {};
  const searchHint =
    typeof meta['anthropic/searchHint'] === 'string' ? meta['anthropic/searchHint'] : undefined;
  const rawMax = meta['anthropic/maxResultSizeChars'];
  const metaMax =
    typeof rawMax === 'number' && Number.isFinite(rawMax) && rawMax > 0
      ? Math.min(rawMax, MAX_META_RESULT_SIZE_CHARS)
      : undefined;
  const describeInfo = {
    toolName: sdkTool.name,
    toolDescription: description,
    inputSchema: schema as Record<string, unknown>,
    readOnlyHint: readOnly,
  };
  const roles = argumentRoles(describeInfo);
  const mark = options.markUntrusted !== false;
  const fingerprint: ToolFingerprint = { name, description, inputSchema: shown };

  const tool: AnyTool = {
    ...MCP_TOOL_TEMPLATE,
    name,
    mcpInfo: { serverName, toolName: sdkTool.name },
    description,
    inputJSONSchema: shown,
    inputSchema: jsonSchemaInput(schema),
    // A raised inline limit is applied by the tool itself (the runtime would clamp it to 50,000).
    maxResultSizeChars: metaMax !== undefined ? Number.POSITIVE_INFINITY : MCP_MAX_RESULT_SIZE_CHARS,
    alwaysLoad: meta['anthropic/alwaysLoad'] === true || options.serverAlwaysLoad === true,
    ...(searchHint !== undefined ? { searchHint } : {}),
    isReadOnly: () => readOnly,
    isConcurrencySafe: () => readOnly,
    isDestructive: () => destructive,
    isOpenWorld: () => openWorld,
    userFacingName: () => `${serverName} - ${annotations.title ?? sdkTool.title ?? sdkTool.name} (MCP)`,
    toAutoClassifierInput: (input: Record<string, unknown>) =>
      `${name} ${JSON.stringify(input).slice(0, 2000)}`,
    checkPermissions(_input, context) {
      const pins = options.pins;
      if (!pins || context.getAppState().permissionMode === 'bypassPermissions') return PASSTHROUGH;
      const question = pinQuestion(pins.check(fingerprint), name);
      return question ? Promise.resolve({ behavior: 'ask', reason: question }) : PASSTHROUGH;
    },
    async describeCall(input, context) {
      return describeMcpCall(describeInfo, input, describeWorldOf(context), roles);
    },
    async *call(input, context): AsyncGenerator<McpProgressEvent, { data: McpToolOutput }, void> {
      // The SDK leaves its abort listener on the signal it is given (and would send a cancellation
      // for a finished request when that signal aborts later): it gets a signal of this call alone.
      // In a one-call turn the turn's own request signal is that (no AbortSignal is made for it:
      // turn-controller.ts `RequestSignal`); otherwise a per-call one follows the turn's signal.
      let signal: AbortSignal;
      let unforward: (() => void) | undefined;
      if (callOwnsAbortSignal(context)) signal = requestSignalOf(context);
      else {
        const turnSignal = context.abortController.signal;
        const perCall = new AbortController();
        signal = perCall.signal;
        const forward = () => perCall.abort(turnSignal.reason);
        if (turnSignal.aborted) perCall.abort(turnSignal.reason);
        else {
          turnSignal.addEventListener('abort', forward, { once: true });
          unforward = () => turnSignal.removeEventListener('abort', forward);
        }
      }
      let result: CallToolResult;
      try {
        result = callProgressObserved(context)
          ? yield* callWithProgress(backend, sdkTool.name, input, signal)
          : // Nobody reads progress (no sink, no update stream): the request asks for none, so the
            // SDK registers no progress handler and the server sends no notifications.
            await backend.callTool(sdkTool.name, input, { signal });
      } catch (error) {
        if (context.abortController.signal.aborted) throw error;
        throw callFailure(error, serverName, sdkTool.name, backend.toolTimeoutMs);
      } finally {
        unforward?.();
      }
      const structured = isObj(result.structuredContent) ? result.structuredContent : undefined;
      if (result.isError === true) {
        const text = errorText(result);
        const failure = new ToolExecutionError(mark ? `${markUntrusted(text, serverName) as string}` : text);
        (failure as unknown as { data: McpToolOutput }).data = {
          content: text,
          ...(structured ? { structuredContent: structured } : {}),
        };
        throw failure;
      }
      // Text-only results under the caps (the usual case) are converted without touching the disk.
      const inline = inlineMcpContent(result, options.maxOutputTokens, metaMax);
      if (inline)
        return {
          data: structured ? { content: inline, structuredContent: structured } : { content: inline },
        };
      const sessionDir = context.getAppState().sessionDir;
      const { blocks, files } = await convertMcpContent(result, { serverName, sessionDir });
      const capped = await capMcpContent(blocks, {
        serverName,
        sessionDir,
        toolName: sdkTool.name,
        toolUseId: context.toolUseId ?? `call-${Date.now()}`,
        maxOutputTokens: options.maxOutputTokens,
        ...(metaMax !== undefined ? { metaMaxResultSizeChars: metaMax } : {}),
      });
      const allFiles = capped.file ? [...files, capped.file] : files;
      const data: McpToolOutput = {
        content: capped.content,
        ...(structured ? { structuredContent: structured } : {}),
        ...(allFiles.length ? { files: allFiles } : {}),
        ...(capped.overTokenCap ? { overTokenCap: true } : {}),
      };
      return { data };
    },
    mapToolResultToContent(output: McpToolOutput): ToolResultContent {
      return mark ? markUntrusted(output.content, serverName) : output.content;
    },
  };
  return tool;
}
