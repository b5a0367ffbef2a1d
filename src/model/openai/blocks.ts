/**
 * Builds Anthropic-shaped content blocks (and their stream events) from OpenAI-style deltas, for
 * both the Chat Completions and the Responses streams.
 *
 * - Blocks get indices in the order they open. Text and reasoning are one open block each; a
 *   delta of the other kind, or a tool call starting, closes it.
 * - Reasoning becomes a `thinking` block with an empty signature (these endpoints sign nothing;
 *   the Anthropic provider leaves such blocks out of later requests).
 * - Tool calls are keyed by the API's own index or item id. A call is closed — and its
 *   `content_block_stop` emitted, so the loop may start it — when the API says it is done, at the
 *   end of the response, or early when a later call starts and its arguments already parse as a
 *   whole JSON object (no continuation of a complete object is valid JSON, so nothing more can
 *   belong to it).
 *   Arguments arriving for a closed call are a malformed stream.
 */
import type { AssistantContentBlock } from '../../core/messages.js';
import type { ModelStreamEvent } from '../../core/model-client.js';
import { malformed } from '../errors.js';

interface ToolState {
  index: number;
  id: string;
  name: string;
  args: string;
  closed: boolean;
}

/** True when `json` is a whole JSON object: no continuation of it can be valid JSON. */
function completeObject(json: string): boolean {
  const t = json.trim();
  if (!t.startsWith('{') || !t.endsWith('}')) return false;
  try {
    JSON.parse(t);
    return true;
  } catch {
    return false;
  }
}

export class BlockAssembler {
  private nextIndex = 0;
  private textBlock: { index: number; text: string } | undefined;
  private thinkingBlock: { index: number; thinking: string } | undefined;
  private readonly tools = new Map<string, ToolState>();
  private readonly done: { index: number; block: AssistantContentBlock }[] = [];
  /** Characters of content produced (for an output estimate when the API reports no usage). */
  outputChars = 0;

  get hasToolUse(): boolean {
    return this.tools.size > 0;
  }

  text(delta: string): ModelStreamEvent[] {
    if (!delta) return [];
    const events = this.closeThinking();
    if (!this.textBlock) {
      this.textBlock = { index: this.nextIndex++, text: '' };
      events.push({ type: 'content_block_start', index: this.textBlock.index, blockType: 'text' });
    }
    this.textBlock.text += delta;
    this.outputChars += delta.length;
    events.push({ type: 'text_delta', index: this.textBlock.index, text: delta });
    return events;
  }

  thinking(delta: string): ModelStreamEvent[] {
    if (!delta) return [];
    const events = this.closeText();
    if (!this.thinkingBlock) {
      this.thinkingBlock = { index: this.nextIndex++, thinking: '' };
      events.push({ type: 'content_block_start', index: this.thinkingBlock.index, blockType: 'thinking' });
    }
    this.thinkingBlock.thinking += delta;
    this.outputChars += delta.length;
    events.push({ type: 'thinking_delta', index: this.thinkingBlock.index, thinking: delta });
    return events;
  }

  /** Whether a tool call with this key was seen. */
  hasTool(key: string): boolean {
    return this.tools.has(key);
  }

  toolStart(key: string, id: string, name: string): ModelStreamEvent[] {
    const events = [...this.closeText(), ...this.closeThinking()];
    for (const [k, t] of this.tools) {
      if (k !== key && !t.closed && completeObject(t.args)) events.push(this.finishTool(t));
    }
    const state: ToolState = { index: this.nextIndex++, id, name, args: '', closed: false };
    this.tools.set(key, state);
    events.push({
      type: 'content_block_start',
      index: state.index,
      blockType: 'tool_use',
      toolUse: { id, name },
    });
    return events;
  }

  toolName(key: string, name: string): void {
    const t = this.tools.get(key);
    if (t && !t.name) t.name = name;
  }

  toolArgs(key: string, delta: string): ModelStreamEvent[] {
    if (!delta) return [];
    const t = this.tools.get(key);
    if (!t) throw malformed(`arguments arrived for tool call ${key}, which never started`);
    if (t.closed) throw malformed(`arguments arrived for tool call ${key} after it was complete`);
    t.args += delta;
    this.outputChars += delta.length;
    return [{ type: 'input_json_delta', index: t.index, partialJson: delta }];
  }

  /** Closes one call; `finalArgs` (the API's complete arguments) replaces the streamed text when given. */
  toolDone(key: string, finalArgs?: string): ModelStreamEvent[] {
    const t = this.tools.get(key);
    if (!t || t.closed) return [];
    if (finalArgs !== undefined) t.args = finalArgs;
    return [this.finishTool(t)];
  }

  /** Closes every open block in index order. */
  closeAll(): ModelStreamEvent[] {
    const events = [...this.closeText(), ...this.closeThinking()];
    for (const t of [...this.tools.values()].sort((a, b) => a.index - b.index)) {
      if (!t.closed) events.push(this.finishTool(t));
    }
    return events;
  }

  /** The blocks closed so far, in index order. */
  content(): AssistantContentBlock[] {
    return [...this.done].sort((a, b) => a.index - b.index).map((d) => d.block);
  }

  private closeText(): ModelStreamEvent[] {
    const b = this.textBlock;
    if (!b) return [];
    this.textBlock = undefined;
    const block: AssistantContentBlock = { type: 'text', text: b.text };
    this.done.push({ index: b.index, block });
    return [{ type: 'content_block_stop', index: b.index, block }];
  }

  private closeThinking(): ModelStreamEvent[] {
    const b = this.thinkingBlock;
    if (!b) return [];
    this.thinkingBlock = undefined;
    const block: AssistantContentBlock = { type: 'thinking', thinking: b.thinking, signature: '' };
    this.done.push({ index: b.index, block });
    return [{ type: 'content_block_stop', index: b.index, block }];
  }

  private finishTool(t: ToolState): ModelStreamEvent {
    t.closed = true;
    if (!t.name) throw malformed(`tool call ${t.id} has no function name`);
    let input: unknown = {};
    let inputError: string | undefined;
    if (t.args.trim() !== '') {
      try {
        input = JSON.parse(t.args);
      } catch (error) {
        input = t.args;
        inputError = `The input of tool call ${t.id} (${t.name}) is not valid JSON: ${(error as Error).message}`;
      }
    }
    const block: AssistantContentBlock = { type: 'tool_use', id: t.id, name: t.name, input };
    this.done.push({ index: t.index, block });
    return inputError === undefined
      ? { type: 'content_block_stop', index: t.index, block }
      : { type: 'content_block_stop', index: t.index, block, inputError };
  }
}
