/**
 * Token estimates for context management (docs/loop.md, "Context management"): ceil(chars / 4) of
 * the request's JSON, scaled by a correction factor learned from the usage the API reports
 * (input + cache reads + cache writes = the request's real input size). The factor starts at 1, is
 * clamped to [0.25, 4], and moves halfway to each new observation so one odd response does not
 * swing it.
 *
 * Cost: each message's character count is computed once per message object (WeakMap) and the
 * system and tools once per session, so estimating a request is a sum over the messages, not a
 * serialisation of the conversation.
 */
import type { Message, SystemBlock, Usage } from '../../core/messages.js';
import type { ModelToolDefinition } from '../../core/model-client.js';

export class TokenEstimator {
  private factor = 1;
  private readonly messageChars = new WeakMap<Message, number>();
  private fixedChars = 0;

  /** Sets the parts that do not change within the session (system blocks, tool definitions). */
  setFixed(system: readonly SystemBlock[], tools: readonly ModelToolDefinition[]): void {
    let chars = 0;
    for (const b of system) chars += b.text.length;
    if (tools.length) chars += JSON.stringify(tools).length;
    this.fixedChars = chars;
  }

  /** Characters of one message's JSON (cached per message object). */
  charsOf(message: Message): number {
    let n = this.messageChars.get(message);
    if (n === undefined) {
      n = JSON.stringify(message).length;
      this.messageChars.set(message, n);
    }
    return n;
  }

  /** Uncorrected estimate of a request with `messages`: ceil(chars / 4). */
  rawTokens(messages: readonly Message[]): number {
    let chars = this.fixedChars;
    for (const m of messages) chars += this.charsOf(m);
    return Math.ceil(chars / 4);
  }

  /** Corrected estimate of a request with `messages`. */
  estimate(messages: readonly Message[]): number {
    return Math.ceil(this.rawTokens(messages) * this.factor);
  }

  /** Corrected estimate of one message alone. */
  estimateMessage(message: Message): number {
    return Math.ceil((this.charsOf(message) / 4) * this.factor);
  }

  /** Learns from a response: `rawTokens` was the uncorrected estimate of the request that got `usage`. */
  observe(rawTokens: number, usage: Usage): void {
    const actual = usage.input_tokens + usage.cache_read_input_tokens + usage.cache_creation_input_tokens;
    if (rawTokens <= 0 || actual <= 0) return;
    const ratio = Math.min(4, Math.max(0.25, actual / rawTokens));
    this.factor = (this.factor + ratio) / 2;
  }

  get correction(): number {
    return this.factor;
  }
}
