/**
 * `ModelRequest` → the Messages API request body Gantry sends (docs/agent-wire.md, "Request").
 *
 * Body keys, in this order: `model`, `messages`, `system`, `tools`, `metadata`, `max_tokens`,
 * `thinking`, then the remaining `extra` keys, then `stream: true`. Empty `system`/`tools` are
 * left out. The betas (`anthropic-beta` header) are the client's configured list followed by
 * `extra.betas`, duplicates dropped.
 *
 * `extra` handling: `metadata` goes to its slot; `betas` becomes the header; `anthropic` is an
 * object spread into the body (provider-scoped extras); `openai` is ignored (the other provider's
 * extras); every other key is copied into the body as given.
 *
 * History sanitising (the API rejects these, so they never reach it):
 * - a `thinking` block with an empty signature (thinking an OpenAI-compatible endpoint returned)
 *   is left out;
 * - a `tool_use` whose input is not a JSON object (its streamed JSON did not parse) is sent with
 *   input `{}`; its tool_result already tells the model the call was not run.
 */
import type { AssistantContentBlock, Message } from '../../core/messages.js';
import type { ModelRequest } from '../../core/model-client.js';
import { type CacheBreakpointPath, placeCacheBreakpoints } from '../cache-breakpoints.js';
import { resolveModelAlias } from '../models.js';

export interface AnthropicBodyOptions {
  /** Betas configured on the client (sent before the request's own). */
  betas?: readonly string[];
  /** Place `cache_control` breakpoints (default true). */
  promptCaching?: boolean;
}

export interface AnthropicWireRequest {
  /** The JSON body without `betas` (the SDK turns `betas` into the `anthropic-beta` header). */
  body: Record<string, unknown>;
  betas: string[];
  breakpoints: CacheBreakpointPath[];
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function sanitiseAssistantBlocks(
  content: readonly AssistantContentBlock[],
): AssistantContentBlock[] | undefined {
  let changed = false;
  const out: AssistantContentBlock[] = [];
  for (const block of content) {
    if (block.type === 'thinking' && !block.signature) {
      changed = true;
      continue;
    }
    if (block.type === 'tool_use' && !isPlainObject(block.input)) {
      changed = true;
      out.push({ ...block, input: {} });
      continue;
    }
    out.push(block);
  }
  return changed ? out : undefined;
}

/** The history with the blocks the API would reject fixed (see the module comment). */
export function sanitiseHistory(messages: readonly Message[]): readonly Message[] {
  let out: Message[] | undefined;
  messages.forEach((m, i) => {
    if (m.role !== 'assistant') return;
    const fixed = sanitiseAssistantBlocks(m.content);
    if (!fixed) return;
    out ??= messages.slice();
    out[i] = { role: 'assistant', content: fixed };
  });
  return out ?? messages;
}

function mergeBetas(configured: readonly string[] | undefined, extra: unknown): string[] {
  const list = [...(configured ?? [])];
  if (Array.isArray(extra)) for (const b of extra) if (typeof b === 'string') list.push(b);
  return [...new Set(list.map((b) => b.trim()).filter((b) => b.length > 0))];
}

function thinkingParam(request: ModelRequest): Record<string, unknown> | undefined {
  const t = request.thinking;
  if (!t || t.type === 'disabled') return undefined;
  if (t.type === 'enabled') return { type: 'enabled', budget_tokens: t.budgetTokens };
  return { type: 'adaptive' };
}

/** Builds the wire request for `messages.create` (streaming). */
export function buildAnthropicRequest(
  request: ModelRequest,
  options: AnthropicBodyOptions = {},
): AnthropicWireRequest {
  const extra = request.extra ?? {};
  const placement = placeCacheBreakpoints(request.system, sanitiseHistory(request.messages), {
    enabled: options.promptCaching ?? true,
    ...(request.sharedPrefixEnd ? { sharedPrefixEnd: request.sharedPrefixEnd } : {}),
  });
  const body: Record<string, unknown> = {
    model: resolveModelAlias('anthropic', request.model),
    messages: placement.messages,
  };
  if (placement.system.length > 0) body.system = placement.system;
  if (request.tools.length > 0) body.tools = request.tools;
  if (extra.metadata !== undefined) body.metadata = extra.metadata;
  body.max_tokens = request.maxTokens;
  const thinking = thinkingParam(request);
  if (thinking) body.thinking = thinking;
  for (const [key, value] of Object.entries(extra)) {
    if (key === 'metadata' || key === 'betas' || key === 'openai' || key === 'stream') continue;
    if (key === 'anthropic') {
      if (isPlainObject(value)) Object.assign(body, value);
      continue;
    }
    body[key] = value;
  }
  body.stream = true;
  return { body, betas: mergeBetas(options.betas, extra.betas), breakpoints: placement.breakpoints };
}

/** The body for `messages.countTokens`: the same content without markers, `max_tokens` or `stream`. */
export function buildAnthropicCountRequest(
  request: ModelRequest,
  options: AnthropicBodyOptions = {},
): { body: Record<string, unknown>; betas: string[] } {
  const { body, betas } = buildAnthropicRequest(request, { ...options, promptCaching: false });
  const count: Record<string, unknown> = { model: body.model, messages: body.messages };
  if (body.system) count.system = body.system;
  if (body.tools) count.tools = body.tools;
  if (body.thinking) count.thinking = body.thinking;
  return { body: count, betas };
}
