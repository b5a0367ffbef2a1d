/**
 * `ModelRequest` → an OpenAI Responses API request body (`api: 'responses'`), stateless
 * (`store: false`, the whole conversation in `input` every turn, as with Chat Completions).
 *
 * - `system` blocks → `instructions` (texts joined by a blank line).
 * - user text → `input_text`, images → `input_image` (data URL), PDFs → `input_file`; a user
 *   message of one string stays a string.
 * - `tool_result` → a `function_call_output` item (`call_id`, text output), placed before the
 *   user's other blocks; images a tool returned follow in a user message.
 * - assistant text → an assistant message item; `tool_use` → a `function_call` item (`call_id`,
 *   `name`, `arguments` as JSON or the raw text that did not parse); thinking is not sent.
 * - tools → `{type: "function", name, description, parameters, strict: false}`.
 * - `max_output_tokens`; `extra.openai` spread into the body.
 */
import type { ToolResultContent } from '../../core/content.js';
import type { Message, UserContentBlock } from '../../core/messages.js';
import type { ModelRequest } from '../../core/model-client.js';
import { openaiExtras, systemPromptText } from './chat-request.js';

type InputPart =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' }
  | { type: 'input_file'; filename: string; file_data: string };

export type ResponsesInputItem =
  | { role: 'user'; content: string | InputPart[] }
  | { role: 'assistant'; content: string }
  | { type: 'function_call'; call_id: string; name: string; arguments: string }
  | { type: 'function_call_output'; call_id: string; output: string };

function partOf(block: UserContentBlock): InputPart | undefined {
  switch (block.type) {
    case 'text':
      return { type: 'input_text', text: block.text };
    case 'image':
      return {
        type: 'input_image',
        image_url: `data:${block.source.media_type};base64,${block.source.data}`,
        detail: 'auto',
      };
    case 'document':
      return {
        type: 'input_file',
        filename: 'document.pdf',
        file_data: `data:${block.source.media_type};base64,${block.source.data}`,
      };
    default:
      return undefined;
  }
}

function toolOutput(content: ToolResultContent): { text: string; media: InputPart[] } {
  if (typeof content === 'string') return { text: content, media: [] };
  const texts: string[] = [];
  const media: InputPart[] = [];
  for (const b of content) {
    if (b.type === 'text') texts.push(b.text);
    // A tool-search result: OpenAI-compatible APIs have no tool references; the loaded tool's
    // definition is in the request's tools, and the model is told by name.
    else if (b.type === 'tool_reference') texts.push(`Tool loaded: ${b.tool_name}`);
    else {
      const p = partOf(b);
      if (p) media.push(p);
    }
  }
  if (media.length > 0) texts.push(`[${media.length} attachment(s) follow in the next user message]`);
  return { text: texts.join('\n'), media };
}

export function toResponsesInput(messages: readonly Message[]): ResponsesInputItem[] {
  const out: ResponsesInputItem[] = [];
  for (const m of messages) {
    if (m.role === 'user') {
      if (typeof m.content === 'string') {
        out.push({ role: 'user', content: m.content });
        continue;
      }
      const parts: InputPart[] = [];
      const media: InputPart[] = [];
      for (const b of m.content) {
        if (b.type === 'tool_result') {
          const r = toolOutput(b.content);
          out.push({ type: 'function_call_output', call_id: b.tool_use_id, output: r.text });
          if (r.media.length > 0) {
            media.push(
              { type: 'input_text', text: `Attachments of tool call ${b.tool_use_id}:` },
              ...r.media,
            );
          }
          continue;
        }
        const p = partOf(b);
        if (p) parts.push(p);
      }
      const all = [...media, ...parts];
      if (all.length > 0) out.push({ role: 'user', content: all });
      continue;
    }
    let text = '';
    const flushText = () => {
      if (text) out.push({ role: 'assistant', content: text });
      text = '';
    };
    for (const b of m.content) {
      if (b.type === 'text') text += b.text;
      else if (b.type === 'tool_use') {
        flushText();
        out.push({
          type: 'function_call',
          call_id: b.id,
          name: b.name,
          arguments: typeof b.input === 'string' ? b.input : JSON.stringify(b.input ?? {}),
        });
      }
    }
    flushText();
  }
  return out;
}

export function buildResponsesRequest(request: ModelRequest): Record<string, unknown> {
  const body: Record<string, unknown> = { model: request.model };
  const instructions = systemPromptText(request.system);
  if (instructions) body.instructions = instructions;
  body.input = toResponsesInput(request.messages);
  if (request.tools.length > 0) {
    body.tools = request.tools.map((t) => ({
      type: 'function',
      name: t.name,
      description: t.description,
      parameters: t.input_schema,
      strict: false,
    }));
  }
  body.max_output_tokens = request.maxTokens;
  body.store = false;
  Object.assign(body, openaiExtras(request));
  body.stream = true;
  return body;
}
