/**
 * Token estimates where a provider has no count: ceil(characters / 4), a rule of thumb that
 * stays within a few percent of real tokenizers on code and English prose (docs/agent-wire.md,
 * "Token counts"). The API's reported usage corrects it after each turn.
 */
import type { ModelRequest } from '../core/model-client.js';

/** ceil(chars / 4). */
export function estimateTokens(chars: number): number {
  return Math.ceil(Math.max(0, chars) / 4);
}

/** Estimated input tokens of `request`: system texts, messages and tool definitions as JSON. */
export function estimateRequestTokens(request: ModelRequest): number {
  let chars = 0;
  for (const b of request.system) chars += b.text.length;
  chars += JSON.stringify(request.messages).length;
  if (request.tools.length > 0) chars += JSON.stringify(request.tools).length;
  return estimateTokens(chars);
}
