/**
 * Builders for the events `query` yields (shapes in types.ts): every event gets the session id and
 * a fresh uuid; sub-agent labels are added when the loop runs for one. `partialEvent` turns the
 * provider-neutral stream events back into the Anthropic streaming events the Agent SDK's
 * `stream_event` messages carry.
 */
import { randomUUID } from 'node:crypto';
import type { ToolResultBlock } from '../core/content.js';
import type { AssistantContentBlock, StopReason, Usage, UserContentBlock } from '../core/messages.js';
import type { ModelStreamEvent } from '../core/model-client.js';
import type {
  ApiRetryEvent,
  AssistantEvent,
  CompactBoundaryEvent,
  InformationalEvent,
  PermissionDeniedEvent,
  StreamEvent,
  ToolProgressMessage,
  ToolResultMeta,
  UserEvent,
} from './types.js';

export interface EventLabels {
  sessionId: string;
  parentToolUseId: string | null;
  agentId?: string;
  agentType?: string;
}

export class EventFactory {
  constructor(
    private readonly labels: EventLabels,
    private readonly now: () => Date = () => new Date(),
  ) {}

  private base() {
    return { session_id: this.labels.sessionId, uuid: randomUUID() };
  }

  private agent() {
    return {
      parent_tool_use_id: this.labels.parentToolUseId,
      ...(this.labels.agentId ? { agent_id: this.labels.agentId } : {}),
      ...(this.labels.agentType ? { subagent_type: this.labels.agentType } : {}),
    };
  }

  assistant(
    block: AssistantContentBlock,
    message: { id: string; model: string; usage: Usage },
    error?: string,
  ): AssistantEvent {
    return {
      type: 'assistant',
      message: {
        id: message.id,
        type: 'message',
        role: 'assistant',
        model: message.model,
        content: [block],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...message.usage },
        context_management: null,
      },
      ...this.agent(),
      ...this.base(),
      timestamp: this.now().toISOString(),
      ...(error ? { error } : {}),
    };
  }

  toolResult(block: ToolResultBlock, toolUseResult: unknown, meta: ToolResultMeta): UserEvent {
    return {
      type: 'user',
      message: { role: 'user', content: [block] },
      ...this.agent(),
      ...this.base(),
      timestamp: this.now().toISOString(),
      tool_use_result: toolUseResult,
      tool_result_meta: [meta],
    };
  }

  userText(content: string | UserContentBlock[], synthetic: boolean): UserEvent {
    return {
      type: 'user',
      message: { role: 'user', content },
      ...this.agent(),
      ...this.base(),
      timestamp: this.now().toISOString(),
      ...(synthetic ? { isSynthetic: true } : {}),
    };
  }

  apiRetry(e: Extract<ModelStreamEvent, { type: 'retry' }>): ApiRetryEvent {
    return {
      type: 'system',
      subtype: 'api_retry',
      attempt: e.attempt,
      max_retries: e.maxRetries,
      retry_delay_ms: e.delayMs,
      error_status: e.status ?? null,
      error: e.kind ?? 'unknown',
      message: e.message,
      ...this.base(),
    };
  }

  compactBoundary(trigger: 'manual' | 'auto', preTokens: number, postTokens: number): CompactBoundaryEvent {
    return {
      type: 'system',
      subtype: 'compact_boundary',
      compact_metadata: { trigger, pre_tokens: preTokens, post_tokens: postTokens },
      ...this.base(),
    };
  }

  permissionDenied(
    toolName: string,
    toolUseId: string,
    message: string,
    reasonType?: string,
  ): PermissionDeniedEvent {
    return {
      type: 'system',
      subtype: 'permission_denied',
      tool_name: toolName,
      tool_use_id: toolUseId,
      message,
      ...(reasonType ? { decision_reason_type: reasonType } : {}),
      ...(this.labels.agentId ? { agent_id: this.labels.agentId } : {}),
      ...this.base(),
    };
  }

  informational(content: string, level: 'info' | 'warning' = 'info'): InformationalEvent {
    return { type: 'system', subtype: 'informational', content, level, ...this.base() };
  }

  toolProgress(
    toolUseId: string,
    toolName: string,
    elapsedSeconds: number,
    data: unknown,
  ): ToolProgressMessage {
    return {
      type: 'tool_progress',
      tool_use_id: toolUseId,
      tool_name: toolName,
      parent_tool_use_id: this.labels.parentToolUseId,
      elapsed_time_seconds: Math.round(elapsedSeconds * 10) / 10,
      ...(data !== undefined ? { data } : {}),
      ...this.base(),
    };
  }

  stream(event: Record<string, unknown> & { type: string }): StreamEvent {
    return { type: 'stream_event', event, ...this.agent(), ...this.base() };
  }
}

function emptyBlock(e: Extract<ModelStreamEvent, { type: 'content_block_start' }>): Record<string, unknown> {
  switch (e.blockType) {
    case 'text':
      return { type: 'text', text: '' };
    case 'thinking':
      return { type: 'thinking', thinking: '', signature: '' };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', data: '' };
    case 'tool_use':
      return { type: 'tool_use', id: e.toolUse?.id ?? '', name: e.toolUse?.name ?? '', input: {} };
  }
}

/** The Anthropic streaming event for one provider-neutral event (undefined for `retry`). */
export function partialEvent(
  e: ModelStreamEvent,
  stopReason: StopReason | null,
): (Record<string, unknown> & { type: string }) | undefined {
  switch (e.type) {
    case 'message_start':
      return {
        type: 'message_start',
        message: {
          id: e.id,
          type: 'message',
          role: 'assistant',
          model: e.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { ...e.usage },
        },
      };
    case 'content_block_start':
      return { type: 'content_block_start', index: e.index, content_block: emptyBlock(e) };
    case 'text_delta':
      return { type: 'content_block_delta', index: e.index, delta: { type: 'text_delta', text: e.text } };
    case 'thinking_delta':
      return {
        type: 'content_block_delta',
        index: e.index,
        delta: { type: 'thinking_delta', thinking: e.thinking },
      };
    case 'input_json_delta':
      return {
        type: 'content_block_delta',
        index: e.index,
        delta: { type: 'input_json_delta', partial_json: e.partialJson },
      };
    case 'content_block_stop':
      return { type: 'content_block_stop', index: e.index };
    case 'message_delta':
      return {
        type: 'message_delta',
        delta: { stop_reason: e.stopReason ?? stopReason, stop_sequence: null },
        usage: { ...e.usage },
      };
    case 'message_stop':
      return { type: 'message_stop' };
    case 'retry':
      return undefined;
  }
}
