/**
 * The shape of a `tools/call` result, checked by Gantry (docs/mcp-client.md "Results"). The
 * connection asks the SDK to parse a result only as a JSON-RPC result object (the SDK still checks
 * `structuredContent` against the tool's output schema) and checks the rest here, once, where every
 * result arrives (connection.ts): what the model and the hosts read of it.
 *
 * A result is well formed when (MCP specification, `CallToolResult` and `ContentBlock`):
 * - `content` is absent (read as no blocks, as the SDK does) or an array of content blocks:
 *   `text` {text: string}; `image` and `audio` {data: base64 string, mimeType: string};
 *   `resource_link` {uri: string, name: string}; `resource` {resource: {uri: string, and text:
 *   string or blob: base64 string}};
 * - `isError`, when present, is a boolean; `structuredContent`, when present, is an object.
 * Members Gantry does not read (`annotations`, `_meta`, a block's optional fields) are not checked.
 * Anything else is a malformed result: the call fails with `McpMalformedResultError`, which names
 * the first thing wrong; nothing of the result is passed on, and nothing is dropped silently.
 */

/** The content block types of the MCP specification. */
export const MCP_CONTENT_BLOCK_TYPES = ['text', 'image', 'audio', 'resource_link', 'resource'] as const;

/** A `tools/call` result that is not a well-formed `CallToolResult` (see the module comment). */
export class McpMalformedResultError extends Error {
  override readonly name = 'McpMalformedResultError';
  constructor(readonly problem: string) {
    super(`malformed tools/call result: ${problem}`);
  }
}

/** How a value is named in a problem: `a number`, `null`, `an array`, `missing`. */
function kindOf(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * True for what `atob` accepts (the SDK's own check of base64 members): the base64 alphabet with
 * ASCII whitespace anywhere, at most two `=` of padding at the end of a whole group, and no group
 * of one character.
 */
export function isBase64(value: string): boolean {
  const s = /[\t\n\f\r ]/.test(value) ? value.replace(/[\t\n\f\r ]/g, '') : value;
  const body = s.length % 4 === 0 ? s.replace(/={1,2}$/, '') : s;
  return body.length % 4 !== 1 && /^[A-Za-z0-9+/]*$/.test(body);
}

/** The problem of member `key` of `block` unless it is a string (a base64 one when `base64`). */
function stringProblem(block: Record<string, unknown>, key: string, base64 = false): string | undefined {
  const value = block[key];
  if (typeof value !== 'string') return `"${key}" is ${kindOf(value)}, not a string`;
  if (base64 && !isBase64(value)) return `"${key}" is not base64`;
  return undefined;
}

/** What is wrong with one content block, or undefined when it is well formed. */
function blockProblem(block: unknown): string | undefined {
  if (!isRecord(block)) return `is ${kindOf(block)}, not a content block object`;
  const type = block.type;
  if (typeof type !== 'string') return `has a "type" that is ${kindOf(type)}, not a string`;
  let problem: string | undefined;
  switch (type) {
    case 'text':
      problem = stringProblem(block, 'text');
      break;
    case 'image':
    case 'audio':
      problem = stringProblem(block, 'data', true) ?? stringProblem(block, 'mimeType');
      break;
    case 'resource_link':
      problem = stringProblem(block, 'uri') ?? stringProblem(block, 'name');
      break;
    case 'resource': {
      const resource = block.resource;
      if (!isRecord(resource))
        return `(resource) has a "resource" that is ${kindOf(resource)}, not an object`;
      problem =
        stringProblem(resource, 'uri') ??
        (typeof resource.text === 'string'
          ? undefined
          : resource.blob === undefined
            ? 'has neither "text" nor "blob"'
            : stringProblem(resource, 'blob', true));
      if (problem) return `(resource) resource ${problem}`;
      return undefined;
    }
    default:
      return `has type ${JSON.stringify(type.slice(0, 100))}, which is not an MCP content block type (${MCP_CONTENT_BLOCK_TYPES.join(', ')})`;
  }
  return problem ? `(${type}) ${problem}` : undefined;
}

/**
 * What is wrong with `result` as a `CallToolResult` (see the module comment), or undefined when it
 * is well formed. Reads `result` only.
 */
export function mcpResultProblem(result: unknown): string | undefined {
  if (!isRecord(result)) return `the result is ${kindOf(result)}, not an object`;
  const content = result.content;
  if (content !== undefined) {
    if (!Array.isArray(content)) return `"content" is ${kindOf(content)}, not an array of content blocks`;
    for (let i = 0; i < content.length; i++) {
      const problem = blockProblem(content[i]);
      if (problem) return `content[${i}] ${problem}`;
    }
  }
  if (result.isError !== undefined && typeof result.isError !== 'boolean')
    return `"isError" is ${kindOf(result.isError)}, not a boolean`;
  if (result.structuredContent !== undefined && !isRecord(result.structuredContent))
    return `"structuredContent" is ${kindOf(result.structuredContent)}, not an object`;
  return undefined;
}
