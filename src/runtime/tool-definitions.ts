/**
 * Tool definitions as the model sees them (`{name, description, input_schema}`; Anthropic Messages
 * `tools[]`), rendered once per tool and cached: the definitions are part of the request prefix,
 * which must stay byte-identical for the prompt cache to hit.
 *
 * - `input_schema` is the tool's `inputJSONSchema` when it has one (MCP tools), else the schema of
 *   a JSON-Schema input (`JsonSchemaInput.jsonSchema`), else `z.toJSONSchema(inputSchema,
 *   { io: 'input' })` (input mode keeps defaulted fields optional) without its `$schema` key and
 *   without zod's stand-in bounds of `.int()` (±(2^53 − 1), `withoutSafeIntegerBounds`). zod's
 *   output is deterministic (declaration order), so the bytes are the same across calls and process
 *   restarts; a test pins this.
 * - A deferred tool the model has loaded is sent in full with `defer_loading: true`
 *   (`deferredToolDefinition`), as Claude Code does after ToolSearch.
 * - The cached definition is deep-frozen: no caller can change what later requests send.
 * - Throws TypeError when a schema does not render to a JSON object schema (tool inputs are objects).
 */
import { z } from 'zod';
import type { AnyTool, JSONSchemaObject, ModelToolDefinition } from '../core/index.js';

/** One entry of the request's `tools` array. */
export type ToolDefinition = ModelToolDefinition;

const cache = new WeakMap<AnyTool, ToolDefinition>();
const deferredCache = new WeakMap<AnyTool, ToolDefinition>();

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * zod writes `.int()` as bounded by ±(2^53 − 1) (`"maximum": 9007199254740991`): no limit a model
 * can reach, 27 bytes each in every request. Those two bounds are dropped from the rendered schema
 * (the zod schema still validates them); every other bound stays.
 */
function withoutSafeIntegerBounds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutSafeIntegerBounds);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) continue;
    if (key === 'minimum' && value === Number.MIN_SAFE_INTEGER) continue;
    out[key] = withoutSafeIntegerBounds(value);
  }
  return out;
}

function renderInputSchema(tool: AnyTool): JSONSchemaObject {
  if (tool.inputJSONSchema) {
    // A structured copy, so later changes to the tool's object cannot reach the cached bytes.
    return structuredClone(tool.inputJSONSchema);
  }
  if ('kind' in tool.inputSchema && tool.inputSchema.kind === 'json-schema') {
    return structuredClone(tool.inputSchema.jsonSchema);
  }
  const { $schema: _ignored, ...schema } = withoutSafeIntegerBounds(
    z.toJSONSchema(tool.inputSchema as z.ZodType, { io: 'input' }),
  ) as Record<string, unknown>;
  if (schema.type !== 'object') {
    throw new TypeError(
      `Tool ${tool.name}: the input schema must be an object schema (got ${String(schema.type)})`,
    );
  }
  return schema as JSONSchemaObject;
}

/** The definition of `tool`, rendered on first use and cached for the life of the tool object. */
export function toolDefinition(tool: AnyTool): ToolDefinition {
  let definition = cache.get(tool);
  if (!definition) {
    definition = deepFreeze({
      name: tool.name,
      description: tool.description,
      input_schema: renderInputSchema(tool),
    });
    cache.set(tool, definition);
  }
  return definition;
}

/** The full definition of a deferred tool the model has loaded: `toolDefinition(tool)` plus `defer_loading: true`. Cached. */
export function deferredToolDefinition(tool: AnyTool): ToolDefinition {
  let definition = deferredCache.get(tool);
  if (!definition) {
    definition = Object.freeze({ ...toolDefinition(tool), defer_loading: true });
    deferredCache.set(tool, definition);
  }
  return definition;
}

/** Definitions of `tools`, in the given order (the order is part of the prompt-cache prefix). */
export function toolDefinitions(tools: readonly AnyTool[]): ToolDefinition[] {
  return tools.map(toolDefinition);
}

/** The definitions serialised as JSON (2-space indent): the exact bytes a request carries, for hashing and snapshots. */
export function renderToolDefinitionsJson(tools: readonly AnyTool[]): string {
  return JSON.stringify(toolDefinitions(tools), null, 2);
}
