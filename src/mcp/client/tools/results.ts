/**
 * MCP `tools/call` results as the model gets them (docs/mcp-client.md "Results"; shapes observed
 * from Claude Code 2.1.x on the wire):
 *
 * | server block | model block(s) |
 * |---|---|
 * | `text` | `text` |
 * | `image` (png, jpeg, gif, webp) | the `image` block, then a text naming the file it was saved to |
 * | `image` (other types), `audio` | saved to a file; a text naming the type and the file |
 * | `resource_link` | `[Resource link: <name>] <uri>` |
 * | `resource` with text | `[Resource from <server> at <uri>] <text>` |
 * | `resource` with a blob | saved to a file; a text naming the URI, type and file |
 *
 * Files go to `<sessionDir>/tool-results/mcp-<server>-blob-<epoch ms>-<6 random chars>.<ext>`.
 *
 * Size caps, in order: (1) output over `MAX_MCP_OUTPUT_TOKENS` (default 25,000; tokens estimated at
 * 4 characters each, an image counting as 1,600) is saved whole through the runtime's spill path
 * and replaced by a note naming the file and how to read it; (2) a tool whose `_meta` raises the
 * inline limit (`anthropic/maxResultSizeChars`, at most 500,000) spills above that limit itself;
 * (3) everything else is capped by the runtime like any tool (100,000 declared, clamped to the
 * global 50,000), with the usual `<persisted-output>` block. Nothing is dropped in any case.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import {
  budgetChars,
  type ImageBlock,
  MEDIA_BLOCK_BUDGET_CHARS,
  type ToolResultContent,
  type ToolResultContentBlock,
} from '../../../core/content.js';
import {
  persistedOutputMessage,
  persistToolResult,
  serializeContent,
} from '../../../runtime/persist-result.js';

/** Default of `MAX_MCP_OUTPUT_TOKENS`. */
export const DEFAULT_MAX_MCP_OUTPUT_TOKENS = 25_000;
/** Upper bound of `_meta["anthropic/maxResultSizeChars"]`. */
export const MAX_META_RESULT_SIZE_CHARS = 500_000;
/** Characters per estimated token. */
export const CHARS_PER_TOKEN = 4;

/** What an MCP tool call returns as its `data` (hosts, hooks, transcripts) and renders from. */
export interface McpToolOutput {
  /** The model's content (after conversion and caps; before the untrusted-content notice). */
  content: ToolResultContent;
  /** The server's `structuredContent`, kept for hosts (not sent to the model). */
  structuredContent?: Record<string, unknown>;
  /** Files written for this result (media, blobs, the saved full output). */
  files?: string[];
  /** The output was over the token cap and replaced by a note (`files[0]` holds it). */
  overTokenCap?: boolean;
}

const MODEL_IMAGE_TYPES = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
  'image/svg+xml': 'svg',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/mpeg': 'mp3',
  'audio/ogg': 'ogg',
  'application/pdf': 'pdf',
  'application/json': 'json',
  'text/plain': 'txt',
};

function safePart(s: string): string {
  return s.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64) || 'x';
}

async function saveBlob(
  sessionDir: string,
  server: string,
  base64: string,
  mimeType: string,
): Promise<string> {
  const dir = path.join(sessionDir, 'tool-results');
  await mkdir(dir, { recursive: true });
  const ext = Object.hasOwn(EXTENSIONS, mimeType) ? EXTENSIONS[mimeType] : 'bin';
  const rand = randomBytes(4).toString('base64url').slice(0, 6);
  const file = path.join(dir, `mcp-${safePart(server)}-blob-${Date.now()}-${rand}.${ext}`);
  await writeFile(file, Buffer.from(base64, 'base64'), { flag: 'wx', mode: 0o600 });
  return file;
}

export interface ConvertContext {
  serverName: string;
  sessionDir: string;
}

/** Converts the server's content blocks (see the table in the module comment). */
export async function convertMcpContent(
  result: Pick<CallToolResult, 'content'>,
  ctx: ConvertContext,
): Promise<{ blocks: ToolResultContentBlock[]; files: string[] }> {
  const blocks: ToolResultContentBlock[] = [];
  const files: string[] = [];
  const text = (t: string): void => {
    blocks.push({ type: 'text', text: t });
  };
  for (const raw of result.content ?? []) {
    const b = raw as Record<string, unknown> & { type: string };
    switch (b.type) {
      case 'text':
        text(typeof b.text === 'string' ? b.text : '');
        break;
      case 'image':
      case 'audio': {
        const mime = typeof b.mimeType === 'string' ? b.mimeType : 'application/octet-stream';
        const data = typeof b.data === 'string' ? b.data : '';
        let file: string | undefined;
        try {
          file = await saveBlob(ctx.sessionDir, ctx.serverName, data, mime);
          files.push(file);
        } catch {
          file = undefined;
        }
        if (b.type === 'image' && MODEL_IMAGE_TYPES.has(mime)) {
          blocks.push({
            type: 'image',
            source: { type: 'base64', media_type: mime as ImageBlock['source']['media_type'], data },
          });
          if (file) text(`[Image: source: ${file}]`);
        } else {
          text(
            `[${b.type === 'image' ? 'Image' : 'Audio'} (${mime}) ${file ? `saved to: ${file}` : 'could not be saved'}]`,
          );
        }
        break;
      }
      case 'resource_link': {
        const name = typeof b.name === 'string' ? b.name : String(b.uri);
        text(`[Resource link: ${name}] ${String(b.uri)}`);
        break;
      }
      case 'resource': {
        const r = (b.resource ?? {}) as Record<string, unknown>;
        const uri = String(r.uri ?? '');
        if (typeof r.text === 'string') text(`[Resource from ${ctx.serverName} at ${uri}] ${r.text}`);
        else if (typeof r.blob === 'string') {
          const mime = typeof r.mimeType === 'string' ? r.mimeType : 'application/octet-stream';
          let file: string | undefined;
          try {
            file = await saveBlob(ctx.sessionDir, ctx.serverName, r.blob, mime);
            files.push(file);
          } catch {
            file = undefined;
          }
          text(
            `[Resource from ${ctx.serverName} at ${uri}: ${mime}, ${file ? `saved to: ${file}` : 'could not be saved'}]`,
          );
        } else text(`[Resource from ${ctx.serverName} at ${uri}]`);
        break;
      }
      default:
        text(`[Unsupported MCP content block of type ${JSON.stringify(b.type)}]`);
    }
  }
  return { blocks, files };
}

/**
 * The model's content for a result of text blocks only that no cap touches, computed without I/O;
 * undefined when a block needs a file (media, resources) or a cap applies (then
 * `convertMcpContent` + `capMcpContent` handle it). Same content as that path gives.
 */
export function inlineMcpContent(
  result: Pick<CallToolResult, 'content'>,
  maxOutputTokens: number,
  metaMaxResultSizeChars?: number,
): ToolResultContentBlock[] | undefined {
  const blocks: ToolResultContentBlock[] = [];
  let chars = 0;
  for (const raw of result.content ?? []) {
    const b = raw as { type: string; text?: unknown };
    if (b.type !== 'text') return undefined;
    const text = typeof b.text === 'string' ? b.text : '';
    chars += text.length;
    blocks.push({ type: 'text', text });
  }
  if (Math.ceil(chars / CHARS_PER_TOKEN) > maxOutputTokens) return undefined;
  if (metaMaxResultSizeChars !== undefined && budgetChars(blocks) > metaMaxResultSizeChars) return undefined;
  return blocks;
}

/** Estimated tokens of a content value: text at 4 characters a token, media at a fixed cost. */
export function estimateContentTokens(content: ToolResultContent): number {
  if (typeof content === 'string') return Math.ceil(content.length / CHARS_PER_TOKEN);
  let chars = 0;
  for (const b of content)
    chars +=
      b.type === 'text'
        ? b.text.length
        : b.type === 'tool_reference'
          ? b.tool_name.length
          : MEDIA_BLOCK_BUDGET_CHARS;
  return Math.ceil(chars / CHARS_PER_TOKEN);
}

/** `MAX_MCP_OUTPUT_TOKENS` from the environment: a positive integer, else the default. */
export function maxMcpOutputTokens(env: Readonly<Record<string, string | undefined>> = process.env): number {
  const raw = env.MAX_MCP_OUTPUT_TOKENS?.trim();
  if (raw && /^\d+$/.test(raw) && Number(raw) > 0) return Number(raw);
  return DEFAULT_MAX_MCP_OUTPUT_TOKENS;
}

export interface CapContext extends ConvertContext {
  toolName: string;
  toolUseId: string;
  maxOutputTokens: number;
  /** The tool's raised inline limit (`_meta["anthropic/maxResultSizeChars"]`), when it has one. */
  metaMaxResultSizeChars?: number;
}

/** The model's content for `blocks` under the caps (see the module comment). */
export async function capMcpContent(
  blocks: ToolResultContentBlock[],
  ctx: CapContext,
): Promise<{ content: ToolResultContent; file?: string; overTokenCap: boolean }> {
  // A single text block is sent as an array of one, as Claude Code does.
  const content: ToolResultContent = blocks;
  const tokens = estimateContentTokens(content);
  if (tokens > ctx.maxOutputTokens) {
    const stem = `mcp-${safePart(ctx.serverName)}-${safePart(ctx.toolName)}-${ctx.toolUseId}`;
    const saved = await persistToolResult({ sessionDir: ctx.sessionDir, toolUseId: stem, content });
    const { text } = serializeContent(content);
    const lines = text.split('\n').length;
    return {
      content: [
        `Error: the result (${text.length.toLocaleString('en-US')} characters across ${lines.toLocaleString('en-US')} lines) is larger than the ${ctx.maxOutputTokens.toLocaleString('en-US')}-token limit for MCP tool output (MAX_MCP_OUTPUT_TOKENS), so it was not put in the conversation. The whole output was saved to ${saved.filePath}.`,
        `Format: ${saved.isJson ? 'JSON (the content blocks as an array)' : 'Plain text'}`,
        `Read it in parts with the Read tool (offset and limit) or search it with Grep${saved.isJson ? ' (or jq through Bash)' : ''}. If the tool accepts a filter, a page or a limit, calling it again with a narrower request is usually better.`,
      ].join('\n'),
      file: saved.filePath,
      overTokenCap: true,
    };
  }
  const limit = ctx.metaMaxResultSizeChars;
  if (limit !== undefined && budgetChars(content) > limit) {
    const saved = await persistToolResult({ sessionDir: ctx.sessionDir, toolUseId: ctx.toolUseId, content });
    return { content: persistedOutputMessage(saved), file: saved.filePath, overTokenCap: false };
  }
  return { content, overTokenCap: false };
}

export { markUntrusted, untrustedNotice } from '../../../core/untrusted-content.js';
