/**
 * Control requests from the host (SDK → CLI) and their answers (docs/cli-print.md "Control
 * protocol"). Every request gets exactly one `control_response`:
 *
 * | subtype | answer |
 * |---|---|
 * | `initialize` | success: commands, agents, output styles, the model, account, pid, version, mode, `hook_on_failure_supported: true`, `hooks_applied` when hooks came |
 * | `interrupt` | success `{still_queued: []}`; the running turn ends with an error result |
 * | `set_permission_mode` | success `{mode}`; error for an unknown mode, or bypassPermissions not enabled at launch |
 * | `set_model` | success `{}` (`default` or no model: back to the session's model) |
 * | `mcp_status` | success `{mcpServers: [{name, status, error}]}`: each configured server as it is now |
 * | `mcp_set_servers` | success `{added, removed, errors}` (sdk-mcp-servers.ts) |
 * | `get_context_usage`, `rewind_files`, … | error naming what Gantry does not support |
 *
 * In-process SDK MCP servers (`initialize.sdkMcpServers`) are connected over the same channel in
 * the other direction (sdk-mcp-servers.ts); the session's first turn waits for their handshake.
 *
 * Before the session starts (no user message yet) mode and model changes are kept and applied
 * when it starts; an interrupt has nothing to stop and succeeds.
 */
import { GANTRY_VERSION } from '../../loop/version.js';
import type { PermissionMode, Query } from '../../loop/types.js';
import { parsePermissionMode } from '../../permissions/index.js';
import type { AgentSetup } from '../session/agent-setup.js';
import type { SessionTarget } from '../session/session-target.js';
import type { PrintArgs } from './args.js';
import type { ControlChannel } from './control-channel.js';
import type { PendingFeatures } from './pending-features.js';
import { type HostHooks, hookCallbacksFrom } from './sdk-bridge.js';
import { SdkMcpServers } from './sdk-mcp-servers.js';
import { OutputSchemaError, parseOutputSchema, StructuredOutput } from './structured-output.js';

export interface HostState {
  query: Query | undefined;
  hostHooks: HostHooks | undefined;
  modelOverride?: string;
  modeOverride?: PermissionMode;
}

export interface InitializeFacts {
  systemPrompt?: string;
  appendSystemPrompt?: string;
  /** `initialize.jsonSchema` (the SDK's `outputFormat`), used when the command line has no `--json-schema`. */
  structured?: StructuredOutput;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Subtypes the SDK may send that Gantry answers with an error, and why. */
const UNSUPPORTED: Readonly<Record<string, string>> = {
  set_max_thinking_tokens: 'changing the thinking budget during a session is not supported',
  get_context_usage: 'context usage reports are not supported',
  mcp_message: 'the host sends mcp_message requests to in-process servers; Gantry has none to offer',
  mcp_reconnect:
    'reconnecting an MCP server on request is not supported (remote servers reconnect by themselves)',
  mcp_toggle: 'turning MCP servers on or off during a session is not supported',
  rewind_files: 'file checkpoints are not supported',
  stop_task: 'background tasks cannot be stopped through the control protocol yet',
  background_tasks: 'background task listings are not supported',
  apply_flag_settings: 'settings cannot be changed during a session',
  update_settings: 'settings cannot be changed during a session',
  seed_read_state: 'not supported',
  read_file: 'not supported',
  reload_plugins: 'plugins are not supported',
  claim_session: 'pre-warmed processes are not supported',
};

export interface HostRequestsDeps {
  channel: ControlChannel;
  setup: AgentSetup;
  target: SessionTarget;
  pending: PendingFeatures;
  state: HostState;
  args: PrintArgs;
  note: (text: string) => Promise<void>;
}

export class HostRequests {
  private facts: InitializeFacts = {};
  private initialized = false;
  private readonly sdk: SdkMcpServers;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(private readonly d: HostRequestsDeps) {
    this.sdk = new SdkMcpServers({
      channel: d.channel,
      mcp: d.setup.mcp,
      cwd: d.setup.cwd,
      env: process.env,
    });
  }

  /** What the first `initialize` said about the system prompt. */
  initializeFacts(): InitializeFacts {
    return this.facts;
  }

  /** MCP servers as `system/init` and `mcp_status` list them. */
  mcpServers(): { name: string; status: string; source: string; error?: string }[] {
    const live = this.d.setup.mcp.reports();
    const listed = live.length ? live : this.d.pending.mcpServers;
    return [...listed, ...this.sdk.failed].map(({ name, status, source }) => ({ name, status, source }));
  }

  /** Resolves once the host's in-process MCP servers connected (or failed). Never rejects. */
  sdkServersReady(): Promise<void> {
    return this.sdk.ready();
  }

  /** Resolves when every request handled so far has been answered. */
  async settled(): Promise<void> {
    await Promise.all([...this.inFlight]);
  }

  /** Answers one `control_request` line. */
  handle(line: Record<string, unknown>): Promise<void> {
    const p = this.answer(line).finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
    return p;
  }

  private async answer(line: Record<string, unknown>): Promise<void> {
    const { channel } = this.d;
    const requestId = typeof line.request_id === 'string' ? line.request_id : undefined;
    const request = isObj(line.request) ? line.request : undefined;
    if (!requestId) {
      await this.d.note('control_request without a request_id ignored');
      return;
    }
    const subtype = request && typeof request.subtype === 'string' ? request.subtype : undefined;
    if (!request || !subtype) {
      await channel.respondError(requestId, 'control_request needs a request object with a subtype');
      return;
    }
    try {
      const response = await this.dispatch(subtype, request);
      if (typeof response === 'string') await channel.respondError(requestId, response);
      else await channel.respond(requestId, response);
    } catch (e) {
      await channel.respondError(requestId, `${subtype} failed: ${(e as Error).message}`);
    }
  }

  /** The success payload, or an error text. */
  private async dispatch(
    subtype: string,
    request: Record<string, unknown>,
  ): Promise<Record<string, unknown> | string> {
    const { state, setup } = this.d;
    switch (subtype) {
      case 'initialize':
        return this.initialize(request);
      case 'interrupt':
        await state.query?.interrupt();
        return { still_queued: [] };
      case 'set_permission_mode': {
        const raw = typeof request.mode === 'string' ? request.mode : '';
        const mode = parsePermissionMode(raw);
        if (!mode) return `unknown permission mode "${raw}"`;
        if (mode === 'bypassPermissions' && !setup.bypassAvailable)
          return 'bypassPermissions was not enabled when the session started (start with --allow-dangerously-skip-permissions or --permission-mode bypassPermissions)';
        if (state.query) await state.query.setPermissionMode(mode);
        else state.modeOverride = mode;
        return { mode };
      }
      case 'set_model': {
        const raw = typeof request.model === 'string' ? request.model.trim() : '';
        const model = raw === '' || raw === 'default' ? undefined : raw;
        if (state.query) await state.query.setModel(model);
        else state.modelOverride = model;
        return {};
      }
      case 'mcp_status': {
        // Live: a stdio server that exited since the start shows as failed, with the reason.
        const live = this.d.setup.mcp.reports();
        const listed = live.length ? live : this.d.pending.mcpServers;
        return {
          mcpServers: [...listed, ...this.sdk.failed].map((s) => ({
            name: s.name,
            status: s.status,
            error: s.error,
          })),
        };
      }
      case 'mcp_set_servers': {
        const r = await this.sdk.set(request.servers);
        return typeof r === 'string' ? r : { ...r };
      }
      default:
        if (Object.hasOwn(UNSUPPORTED, subtype)) return `${subtype}: ${UNSUPPORTED[subtype]}`;
        return `Unsupported control request subtype: ${subtype}`;
    }
  }

  private async initialize(request: Record<string, unknown>): Promise<Record<string, unknown>> {
    const { setup, state, note, channel } = this.d;
    const hooksGiven = isObj(request.hooks) && Object.keys(request.hooks).length > 0;
    let hooksApplied = false;
    if (!this.initialized && !state.query) {
      this.initialized = true;
      if (Array.isArray(request.systemPrompt))
        this.facts.systemPrompt = request.systemPrompt.filter((s) => typeof s === 'string').join('\n\n');
      else if (typeof request.systemPrompt === 'string') this.facts.systemPrompt = request.systemPrompt;
      if (typeof request.appendSystemPrompt === 'string' && request.appendSystemPrompt)
        this.facts.appendSystemPrompt = request.appendSystemPrompt;
      if (hooksGiven) {
        state.hostHooks = hookCallbacksFrom(request.hooks, channel);
        hooksApplied = true;
        if (state.hostHooks.unsupportedEvents.length)
          await note(
            `host hooks for ${state.hostHooks.unsupportedEvents.join(', ')} are never called (Gantry does not fire those events)`,
          );
      }
      if (Array.isArray(request.sdkMcpServers)) this.sdk.connectInProcess(request.sdkMcpServers);
      if (isObj(request.agents) && Object.keys(request.agents).length)
        await note('warning: initialize.agents ignored: sub-agents are not available in this version');
      if (request.jsonSchema !== undefined && this.d.args.jsonSchema === undefined) {
        try {
          this.facts.structured = new StructuredOutput(parseOutputSchema(request.jsonSchema));
        } catch (e) {
          if (!(e instanceof OutputSchemaError)) throw e;
          throw new Error(`jsonSchema: ${e.message}`);
        }
      }
    } else if (hooksGiven) {
      await note('warning: a later initialize cannot change the hooks of a running session');
    }
    const mode = state.modeOverride ?? setup.permissionMode;
    return {
      commands: [],
      agents: [],
      output_style: 'default',
      available_output_styles: ['default'],
      models: [
        {
          value: state.modelOverride ?? setup.model,
          displayName: state.modelOverride ?? setup.model,
          description: `${setup.provider} model configured for this session`,
        },
      ],
      account: {
        apiKeySource: setup.apiKeySource,
        apiProvider: setup.provider === 'anthropic' ? 'firstParty' : 'openai-compatible',
      },
      pid: process.pid,
      claude_code_version: GANTRY_VERSION,
      current_permission_mode: mode,
      ...(hooksGiven ? { hooks_applied: hooksApplied } : {}),
      hook_on_failure_supported: true,
    };
  }
}
