/**
 * WebFetch's model step (README.md "The prompt"): the page text and the call's `prompt` go to a
 * small, fast model through the session's `ModelClient`; its answer is the tool's result. The
 * provider retries overload, rate limits and connection failures with backoff (docs/agent-wire.md
 * "Retries and errors"); a failure after that is the call's error.
 *
 * Which model: the configured one (settings `webFetch.model`, env `GANTRY_WEBFETCH_MODEL`); with
 * none configured, `haiku` on the Anthropic provider, and no model step at all on other providers
 * (their model names are the user's to choose) — the tool then returns the page text itself. The
 * value `none` turns the step off everywhere.
 */
import { errorMessage, isAbortError, AbortError, ToolExecutionError } from '../../core/errors.js';
import type { ModelClient } from '../../core/model-client.js';

/** Output budget of the answer, in tokens. */
export const ANSWER_MAX_TOKENS = 4096;

/** The model the step uses with `client`, or undefined when there is no step. */
export function answerModel(
  client: ModelClient | undefined,
  configured: string | undefined,
): string | undefined {
  if (!client) return undefined;
  const name = configured?.trim();
  if (name === 'none') return undefined;
  if (name) return name;
  return client.provider === 'anthropic' ? 'haiku' : undefined;
}

const SYSTEM = [
  'You read one web page for a coding agent and answer its request about that page.',
  'Work only from the page content you are given; never add facts from memory.',
  'Be brief and concrete. Copy code, commands, version numbers, option names and quoted text exactly.',
  'When the page does not hold what is asked, say so in one sentence and name what the page covers instead.',
].join(' ');

/** Asks the model `prompt` about `text` (the page at `url`); returns its answer text. */
export async function answerPrompt(options: {
  client: ModelClient;
  model: string;
  url: string;
  text: string;
  prompt: string;
  /** A note about the window of the page sent (`characters 0–100000 of 250000`). */
  windowNote?: string;
  signal: AbortSignal;
}): Promise<string> {
  const note = options.windowNote ? `\n(${options.windowNote})` : '';
  const user = `Page: ${options.url}${note}\n\n<page>\n${options.text}\n</page>\n\nRequest: ${options.prompt}`;
  let answer = '';
  try {
    for await (const event of options.client.stream(
      {
        model: options.model,
        system: [{ type: 'text', text: SYSTEM }],
        messages: [{ role: 'user', content: user }],
        tools: [],
        maxTokens: ANSWER_MAX_TOKENS,
      },
      { signal: options.signal },
    )) {
      if (event.type === 'message_stop') {
        answer = event.message.content
          .filter((b) => b.type === 'text')
          .map((b) => (b as { text: string }).text)
          .join('\n')
          .trim();
      }
    }
  } catch (error) {
    if (options.signal.aborted || isAbortError(error) || (error as { kind?: string }).kind === 'aborted')
      throw new AbortError('The fetch was interrupted.');
    throw new ToolExecutionError(
      `The page was fetched, but the model answering the prompt (${options.model}) failed: ${errorMessage(error)}`,
    );
  }
  if (answer === '')
    throw new ToolExecutionError(
      `The page was fetched, but the model answering the prompt (${options.model}) returned no text.`,
    );
  return answer;
}
