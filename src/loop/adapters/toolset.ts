/**
 * `createGantryToolset`: Gantry's tools and permission engine for another agent framework (the
 * Vercel AI SDK, the OpenAI Agents SDK; docs/adapters.md). The framework owns the model and the
 * loop; Gantry owns what a call may do and how it runs:
 *
 * - `decide(name, input, callId)` is the engine's verdict for a call without running it
 *   (`allow` / `ask` / `deny`, with the reason): what the framework's approval hook asks;
 * - `run(name, input, {callId, approved})` runs the call through the runtime (input validation,
 *   the permission engine again, the tool, result budgets), so a deny rule, a protected path or
 *   the destructive floor still hold even when the framework skipped its approval step. An `ask`
 *   at run time runs only when `approved` is true (the framework's person said yes); otherwise it
 *   is refused (fail closed).
 *
 * The verdict is decided on the parsed input with the tool's own checks and description, the same
 * request the runtime builds (core/permission-request.ts). Invalid input needs no approval: it
 * never runs, and `run` returns the validation error.
 */
import { homedir } from 'node:os';
import path from 'node:path';
import {
  type AnyTool,
  errorMessage,
  type PermissionDecision,
  type PermissionMode,
} from '../../core/index.js';
import { buildPermissionRequest } from '../../core/permission-request.js';
import { fsPathResolver } from '../../core/paths.js';
import { createPermissionEngine, type PermissionEngine } from '../../permissions/engine.js';
import { loadSettings } from '../../permissions/settings/load.js';
import { createToolRuntime, type ToolRuntime, toolDefinition } from '../../runtime/index.js';
import { toolDescriberFor } from '../../tools/describers.js';
import { getAllBaseTools } from '../../tools/index.js';

export interface GantryToolsetOptions {
  /** Absolute working directory (the project root for settings and rules). */
  cwd: string;
  /** `$HOME` for user settings (default: the OS's). */
  home?: string;
  /** Offer only these tools (names); default every built-in tool. */
  toolNames?: readonly string[];
  /** Tool objects to offer instead of the built-in set. */
  tools?: readonly AnyTool[];
  /** A ready permission engine; default one over the settings files of `cwd` and `home`. */
  engine?: PermissionEngine;
  /** Extra settings files (when the engine is built here). */
  settingsFiles?: readonly string[];
  /** Managed settings files (default the system's; tests pass `[]`). */
  managedFiles?: readonly string[];
  /** Default `default`. */
  permissionMode?: PermissionMode;
  /** Where spilled results go (default `~/.gantry/sessions/<sessionId>`). */
  sessionDir?: string;
  sessionId?: string;
}

export interface ToolsetDecision {
  behavior: 'allow' | 'ask' | 'deny';
  /** The decision's sentence (rule and file, or the check that decided). */
  reason: string;
  /** The decision reason's type (`rule`, `mode`, `read-only`, `check`, …). */
  reasonType: string;
}

export interface ToolsetRunResult {
  /** The text the model gets (the `tool_result` content as text). */
  text: string;
  isError: boolean;
  /** The tool's structured output (Claude Code's `toolUseResult`). */
  data?: unknown;
  /** How the permission step ended (`host` when an approval decided). */
  decision?: { behavior: 'allow' | 'deny'; source: string };
}

export interface ToolsetTool {
  name: string;
  description: string;
  /** JSON Schema of the input (draft 2020-12 subset, as the model sees it). */
  inputSchema: Record<string, unknown>;
}

export interface GantryToolset {
  readonly tools: readonly ToolsetTool[];
  readonly engine: PermissionEngine;
  decide(name: string, input: unknown, callId: string): Promise<ToolsetDecision>;
  run(
    name: string,
    input: unknown,
    options: { callId: string; approved?: boolean; signal?: AbortSignal },
  ): Promise<ToolsetRunResult>;
  /** Ends background work and services of the runtime. */
  dispose(): Promise<void>;
}

function blockText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b) => {
      const block = b as { type?: string; text?: string };
      return block.type === 'text' && typeof block.text === 'string' ? block.text : `[${String(block.type)}]`;
    })
    .join('\n');
}

export async function createGantryToolset(options: GantryToolsetOptions): Promise<GantryToolset> {
  const cwd = path.resolve(options.cwd);
  const home = options.home ?? homedir();
  const engine =
    options.engine ??
    createPermissionEngine({
      settings: loadSettings({
        projectRoot: cwd,
        home,
        ...(options.permissionMode ? { cli: { permissionMode: options.permissionMode } } : {}),
        ...(options.settingsFiles ? { settingsFiles: [...options.settingsFiles] } : {}),
        ...(options.managedFiles ? { managedFiles: options.managedFiles } : {}),
      }),
      describe: async (toolName, input, request) => {
        const describer = toolDescriberFor(toolName);
        if (!describer) throw new Error(`no describer for ${toolName}`);
        return describer.describe(input, { cwd: request.cwd, home, resolver: fsPathResolver });
      },
    });
  let all = options.tools ?? (await getAllBaseTools());
  if (options.toolNames) {
    const wanted = new Set(options.toolNames);
    const unknown = [...wanted].filter((n) => !all.some((t) => t.name === n));
    if (unknown.length) throw new Error(`createGantryToolset: no tool named ${unknown.join(', ')}`);
    all = all.filter((t) => wanted.has(t.name));
  }
  const byName = new Map(all.map((t) => [t.name, t]));
  /** Call ids whose `ask` the framework's person approved, for the run in progress. */
  const approved = new Set<string>();
  const runtime: ToolRuntime = createToolRuntime({
    tools: all,
    cwd,
    permissionMode: options.permissionMode ?? engine.settings.defaultMode,
    decide: engine.decider,
    canUseTool: async (tool, _input, decision, context) =>
      context.toolUseId !== undefined && approved.has(context.toolUseId)
        ? { behavior: 'allow' }
        : {
            behavior: 'deny',
            message: `${tool.name} needs approval (${decision.reason.message}) and it was not approved`,
          },
    ...(options.sessionDir ? { sessionDir: options.sessionDir } : {}),
    ...(options.sessionId ? { sessionId: options.sessionId } : {}),
  });

  const tools: ToolsetTool[] = all.map((t) => {
    const d = toolDefinition(t);
    return {
      name: d.name,
      description: d.description,
      inputSchema: d.input_schema as Record<string, unknown>,
    };
  });

  const decide = async (name: string, input: unknown, callId: string): Promise<ToolsetDecision> => {
    const tool = byName.get(name);
    if (!tool) return { behavior: 'deny', reason: `no tool named ${name}`, reasonType: 'tool' };
    const parsed = tool.inputSchema.safeParse(input);
    if (!parsed.success)
      return {
        behavior: 'allow',
        reason: 'the input is invalid: the call will not run',
        reasonType: 'input',
      };
    const context = runtime.context;
    let decision: PermissionDecision;
    try {
      const value = parsed.data as Record<string, unknown>;
      const toolResult = await tool.checkPermissions(value, context);
      const description = await tool.describeCall(value, context);
      decision = await engine.decider(
        buildPermissionRequest({
          tool,
          input: value,
          description,
          toolResult,
          toolUseId: callId,
          session: context.getAppState(),
          context,
        }),
      );
    } catch (e) {
      return {
        behavior: 'ask',
        reason: `the permission check failed (${errorMessage(e)})`,
        reasonType: 'error',
      };
    }
    return { behavior: decision.behavior, reason: decision.reason.message, reasonType: decision.reason.type };
  };

  return {
    tools,
    engine,
    decide,
    async run(name, input, o) {
      if (o.approved) approved.add(o.callId);
      try {
        const turn = await runtime.runToolsToCompletion(
          [{ type: 'tool_use', id: o.callId, name, input: input as Record<string, unknown> }],
          o.signal ? { signal: o.signal } : {},
        );
        const block = turn.results[0];
        const call = turn.calls[0];
        return {
          text: blockText(block?.content),
          isError: block?.is_error === true,
          ...(call?.data !== undefined ? { data: call.data } : {}),
          ...(call?.decision ? { decision: call.decision } : {}),
        };
      } finally {
        approved.delete(o.callId);
      }
    },
    dispose: () => runtime.services.dispose().then(() => undefined),
  };
}
