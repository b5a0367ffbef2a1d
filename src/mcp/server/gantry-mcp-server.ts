/**
 * `gantry mcp`: Gantry's built-in tools served over MCP, with the permission engine in front
 * (docs/runtime.md). One MCP session = one tool runtime (its own cwd, read-file state and
 * background tasks, stopped when the session closes).
 *
 * - tools/list: names and JSON Schemas exactly as the model would see them (model/tool-definitions),
 *   annotations from the tools' flags (annotations.ts).
 * - tools/call: each request is a turn of one call on the session's runtime, so concurrent
 *   requests go through the session's admission gate like a model turn's calls (concurrency-safe
 *   calls together, others one at a time, in arrival order), and cancelling a request aborts only
 *   its own call. `allow` runs, `deny` returns `isError` with the reason, `ask` is put to the user
 *   with MCP elicitation when the client supports it, otherwise answered by `onAsk` (default deny).
 * - roots: when the client exposes roots, their `file://` directories become additional working
 *   directories (re-read on `notifications/roots/list_changed`).
 */
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ListToolsRequestSchema,
  RootsListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type {
  AnyTool,
  HostPermissionAnswer,
  PermissionDecider,
  PermissionMode,
  ToolResultContent,
} from '../../core/index.js';
import { findToolByName } from '../../core/index.js';
import { type CanUseTool, createToolRuntime, type ToolRuntime, toolDefinition } from '../../runtime/index.js';
import { annotationsFor } from './annotations.js';

export interface GantryMcpServerOptions {
  tools: readonly AnyTool[];
  /** Project root and initial cwd (absolute). */
  cwd: string;
  additionalDirectories?: string[];
  mode?: PermissionMode;
  /** The permission engine (a `PermissionDecider`). */
  decide: PermissionDecider;
  /** What to do with `ask` when the client cannot elicit: `deny` (default) or `allow`. */
  onAsk?: 'deny' | 'allow';
  sessionDir?: string;
  /** Server name/version reported in `initialize`. */
  name?: string;
  version?: string;
}

/** MCP content of a Gantry tool result. */
export function toMcpContent(content: ToolResultContent): CallToolResult['content'] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((b) => {
    if (b.type === 'text') return { type: 'text' as const, text: b.text };
    if (b.type === 'image')
      return { type: 'image' as const, data: b.source.data, mimeType: b.source.media_type };
    if (b.type === 'tool_reference') return { type: 'text' as const, text: `[Tool loaded: ${b.tool_name}]` };
    return {
      type: 'resource' as const,
      resource: { uri: 'gantry:document.pdf', mimeType: b.source.media_type, blob: b.source.data },
    };
  });
}

/** How long an elicitation (a person answering a permission prompt) may take. */
const ELICITATION_TIMEOUT_MS = 10 * 60_000;
/** How long the client may take to answer roots/list before calls go ahead without its roots. */
const ROOTS_TIMEOUT_MS = 5_000;

/** The runtime appends its own full stop to a host's refusal message. */
function withoutFinalStop(message: string): string {
  return message.replace(/\.+\s*$/, '');
}

/** Builds an MCP `Server` (not yet connected) and the runtime behind it. */
export function createGantryMcpServer(options: GantryMcpServerOptions): {
  server: Server;
  runtime: ToolRuntime;
} {
  const server = new Server(
    { name: options.name ?? 'gantry', version: options.version ?? '0.0.0' },
    { capabilities: { tools: { listChanged: false } } },
  );
  const onAsk = options.onAsk ?? 'deny';

  const canUseTool: CanUseTool = async (tool, input, decision, context): Promise<HostPermissionAnswer> => {
    const reason = withoutFinalStop(decision.reason.message);
    // Form-mode elicitation only: a client that declares URL mode alone cannot show our prompt.
    if (server.getClientCapabilities()?.elicitation?.form) {
      const summary = JSON.stringify(input).slice(0, 500);
      const answer = await server.elicitInput(
        {
          message: `Gantry asks before running ${tool.name} ${summary}\nReason: ${decision.reason.message}`,
          requestedSchema: {
            type: 'object',
            properties: {
              decision: { type: 'string', title: 'Allow this call?', enum: ['allow', 'deny'] },
            },
            required: ['decision'],
          },
        },
        // A person answers this: wait longer than the SDK's 60 s default; the call's abort cancels it.
        { signal: context.abortController.signal, timeout: ELICITATION_TIMEOUT_MS },
      );
      if (answer.action === 'accept' && answer.content?.decision === 'allow') return { behavior: 'allow' };
      const how =
        answer.action === 'accept'
          ? 'answered deny'
          : answer.action === 'decline'
            ? 'declined'
            : 'dismissed the prompt';
      return {
        behavior: 'deny',
        message: `asked through MCP elicitation, the user ${how}; the call needed approval because: ${reason}`,
      };
    }
    // `forceConfirmation` asks (broken settings, HIGH risk) need a person: `--on-ask allow` never accepts them.
    if (onAsk === 'allow' && !('forceConfirmation' in decision && decision.forceConfirmation))
      return { behavior: 'allow' };
    if (onAsk === 'allow')
      return {
        behavior: 'deny',
        message: `this call needs a person's explicit approval, which --on-ask allow does not give and this MCP client cannot be asked: ${reason}`,
      };
    return {
      behavior: 'deny',
      message: `this MCP client cannot be asked (it does not support elicitation) and gantry mcp runs with --on-ask deny; the call needs approval because: ${reason}`,
    };
  };

  const runtime = createToolRuntime({
    tools: options.tools,
    cwd: options.cwd,
    additionalDirectories: options.additionalDirectories ?? [],
    permissionMode: options.mode ?? 'default',
    decide: options.decide,
    canUseTool,
    ...(options.sessionDir ? { sessionDir: options.sessionDir } : {}),
  });
  // The session ends with its transport: its services go with it (background commands stopped).
  server.onclose = () => {
    void runtime.services.dispose();
  };
  const baseDirectories = runtime.getAppState().additionalDirectories;
  let rootsReady: Promise<void> = Promise.resolve();

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: options.tools.map((tool) => {
      const def = toolDefinition(tool);
      return {
        name: def.name,
        description: def.description,
        inputSchema: def.input_schema as { type: 'object'; [k: string]: unknown },
        annotations: annotationsFor(tool),
      };
    }),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    const { name, arguments: args } = request.params;
    await rootsReady;
    if (!findToolByName(options.tools, name)) {
      return { content: [{ type: 'text', text: `No such tool available: ${name}` }], isError: true };
    }
    const id = `mcp_${randomUUID()}`;
    const turn = await runtime.runToolsToCompletion([{ type: 'tool_use', id, name, input: args ?? {} }], {
      signal: extra.signal,
    });
    const block = turn.results[0];
    if (!block)
      return { content: [{ type: 'text', text: 'No result (the call was cancelled)' }], isError: true };
    return { content: toMcpContent(block.content), isError: block.is_error === true };
  });

  const refreshRoots = async (): Promise<void> => {
    if (!server.getClientCapabilities()?.roots) return;
    const { roots } = await server.listRoots(undefined, { timeout: ROOTS_TIMEOUT_MS });
    const dirs = roots
      .filter((r) => r.uri.startsWith('file://'))
      .map((r) => fileURLToPath(r.uri))
      .filter((d) => d !== options.cwd);
    runtime.context.setAppState((s) => ({
      ...s,
      additionalDirectories: [...new Set([...baseDirectories, ...dirs])],
    }));
  };
  // Calls wait for the latest roots/list answer, so the client's roots apply from its first call
  // (roots/list is only sent after `initialized`, when the client may already be calling tools).
  // A failed or late answer leaves the directories as they were (fail closed: fewer directories).
  server.oninitialized = () => {
    rootsReady = refreshRoots().catch(() => undefined);
  };
  server.setNotificationHandler(RootsListChangedNotificationSchema, async () => {
    rootsReady = refreshRoots().catch(() => undefined);
    await rootsReady;
  });

  return { server, runtime };
}
