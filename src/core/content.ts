/**
 * Anthropic Messages API content blocks that tools exchange with the model
 * (the `tool_result` envelope, and the blocks Claude Code's transcripts record).
 */

export interface TextBlock {
  type: 'text';
  text: string;
}

export interface ImageBlock {
  type: 'image';
  source: {
    type: 'base64';
    media_type: 'image/png' | 'image/jpeg' | 'image/gif' | 'image/webp';
    data: string;
  };
}

export interface DocumentBlock {
  type: 'document';
  source: { type: 'base64'; media_type: 'application/pdf'; data: string };
}

/**
 * A reference to a deferred tool, returned inside a `tool_result` by a tool-search tool: it tells
 * the model the tool is now loaded (Messages API tool search; `tool_name` is the tool's name).
 */
export interface ToolReferenceBlock {
  type: 'tool_reference';
  tool_name: string;
}

/** A block allowed inside `tool_result.content`. */
export type ToolResultContentBlock = TextBlock | ImageBlock | DocumentBlock | ToolReferenceBlock;

/** `tool_result.content`: a string or an array of blocks. */
export type ToolResultContent = string | ToolResultContentBlock[];

/** The model's request to run a tool (`tool_use` block). */
export interface ToolUseBlock {
  type: 'tool_use';
  id: string;
  name: string;
  input: unknown;
}

/** The answer to one `tool_use` (`tool_result` block). */
export interface ToolResultBlock {
  type: 'tool_result';
  tool_use_id: string;
  content: ToolResultContent;
  is_error?: boolean;
}

/** Number of characters a content value counts for in result budgets (images count by base64 length). */
export function contentLength(content: ToolResultContent): number {
  if (typeof content === 'string') return content.length;
  let n = 0;
  for (const b of content) {
    if (b.type === 'text') n += b.text.length;
    else if (b.type === 'tool_reference') n += b.tool_name.length;
    else n += b.source.data.length;
  }
  return n;
}

/** Concatenated text of a content value (images and documents omitted). */
export function contentText(content: ToolResultContent): string {
  if (typeof content === 'string') return content;
  return content
    .filter((b): b is TextBlock => b.type === 'text')
    .map((b) => b.text)
    .join('\n');
}

/**
 * Characters a media block (image or PDF document) counts for in result budgets. Media reach the
 * model as pixels/pages, not as base64 text: a downscaled image costs at most ~1,600 tokens
 * (Messages API vision pricing, ≤1.15 megapixels), i.e. ~6,400 characters at 4 characters a token.
 * Counting base64 length instead would spill every screenshot.
 */
export const MEDIA_BLOCK_BUDGET_CHARS = 6_400;

/**
 * Size of a content value for result budgets: text length, media at a fixed cost, a tool reference
 * by its name's length.
 */
export function budgetChars(content: ToolResultContent): number {
  if (typeof content === 'string') return content.length;
  let n = 0;
  for (const b of content) {
    if (b.type === 'text') n += b.text.length;
    else if (b.type === 'tool_reference') n += b.tool_name.length;
    else n += MEDIA_BLOCK_BUDGET_CHARS;
  }
  return n;
}
