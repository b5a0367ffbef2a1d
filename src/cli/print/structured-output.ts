/**
 * Structured output of `gantry -p --json-schema <schema>` (the Agent SDK's `outputFormat:
 * {type: "json_schema", schema}`; docs/cli-print.md "Structured output"):
 *
 * - The session gets one more tool, `StructuredOutput`, whose input schema is the given schema. The
 *   model hands its final answer in by calling it; the runtime validates the input against the
 *   schema (Ajv, the same validator as MCP tools' inputs), so a mismatch comes back to the model as
 *   an `InputValidationError` naming each field, and it tries again.
 * - When the model ends its turn without a valid call, a Stop callback sends it back with a
 *   reminder. Each invalid call and each reminder is one attempt; after `maxAttempts` (default 5)
 *   the turn ends (interrupted if the model is still calling tools).
 * - Each prompt's `result` then carries `structured_output` (the last valid input), or, when the
 *   attempts ran out, becomes `subtype: "error_max_structured_output_retries"` with `is_error:
 *   true` and the reason in `errors`. A result that failed for another reason (max turns, a model
 *   error, an interrupt by the host) is left as it is.
 *
 * `parseOutputSchema` checks the flag's value at start-up: JSON, an object schema (`type:
 * "object"`, as tool inputs must be), and a schema Ajv compiles and accepts against its
 * meta-schema (draft-07, or 2020-12 when `$schema` names it; a `$schema` naming another dialect is
 * refused rather than half-checked). Anything else throws `OutputSchemaError` with the reason.
 */
import { buildTool } from '../../core/build-tool.js';
import type { ToolResultBlock } from '../../core/content.js';
import type { AnyTool, JSONSchemaObject } from '../../core/tool.js';
import type {
  HookCallbackMatcher,
  HookJSONOutput,
  QueryEvent,
  QueryOptions,
  ResultEvent,
  ToolPoolLike,
} from '../../loop/types.js';
import { ajvLibrary, jsonSchemaInput } from '../../runtime/json-schema-input.js';
import { toolDefinition } from '../../runtime/tool-definitions.js';

export const STRUCTURED_OUTPUT_TOOL = 'StructuredOutput';
/** Attempts (invalid calls plus reminders) per prompt before the result is an error. */
export const MAX_STRUCTURED_OUTPUT_ATTEMPTS = 5;

export class OutputSchemaError extends Error {
  override readonly name = 'OutputSchemaError';
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** The schema of `--json-schema` (text) or `initialize.jsonSchema` (an object); see the module comment. */
export function parseOutputSchema(value: unknown): JSONSchemaObject {
  let schema: unknown = value;
  if (typeof value === 'string') {
    try {
      schema = JSON.parse(value) as unknown;
    } catch (e) {
      throw new OutputSchemaError(`not valid JSON (${(e as Error).message})`);
    }
  }
  if (!isObj(schema)) throw new OutputSchemaError('expected a JSON Schema object, like {"type":"object",…}');
  if (schema.type !== 'object')
    throw new OutputSchemaError(
      `the schema must describe an object ("type": "object"), since the answer is a tool's input; got ${JSON.stringify(schema.type ?? null)}`,
    );
  const dialect = schema.$schema;
  if (dialect !== undefined && (typeof dialect !== 'string' || !/draft-07|2020-12/.test(dialect)))
    throw new OutputSchemaError(
      `"$schema" names a dialect that is not checked here (${JSON.stringify(dialect)}); use draft-07 or 2020-12, or leave "$schema" out`,
    );
  const options = { strict: false, allErrors: true, validateSchema: true } as const;
  // Ajv is loaded here, not with this module: a session without --json-schema never loads it.
  const { Ajv, Ajv2020, addFormats } = ajvLibrary();
  const ajv =
    typeof dialect === 'string' && dialect.includes('2020-12')
      ? addFormats(new Ajv2020(options))
      : addFormats(new Ajv(options));
  try {
    ajv.compile(schema);
  } catch (e) {
    throw new OutputSchemaError(`the schema is not valid JSON Schema (${(e as Error).message})`);
  }
  return schema as JSONSchemaObject;
}

const DESCRIPTION =
  'Hand in your final answer as structured data. Call this tool once, when the work is done, with an ' +
  'input that matches its schema: that input is what the person who started this session receives. ' +
  'If the call is rejected, correct the fields the error names and call it again.';

/** Added to the system prompt so the model knows from the start how the answer must arrive. */
export const STRUCTURED_OUTPUT_INSTRUCTION =
  `This session expects its answer as structured data. When you have finished, call the ${STRUCTURED_OUTPUT_TOOL} ` +
  'tool with an input that matches its schema; a reply in plain text alone is not accepted as the answer.';

const REMINDER =
  `You ended your turn without a valid ${STRUCTURED_OUTPUT_TOOL} call. The answer must arrive through the ` +
  `${STRUCTURED_OUTPUT_TOOL} tool, with an input matching its schema. Call it now.`;

function structuredOutputTool(
  schema: JSONSchemaObject,
  onValue: (value: Record<string, unknown>) => void,
): AnyTool {
  return buildTool({
    name: STRUCTURED_OUTPUT_TOOL,
    description: DESCRIPTION,
    inputSchema: jsonSchemaInput(schema),
    maxResultSizeChars: 1_000,
    isReadOnly: () => true,
    isConcurrencySafe: () => true,
    userFacingName: () => STRUCTURED_OUTPUT_TOOL,
    toAutoClassifierInput: () => STRUCTURED_OUTPUT_TOOL,
    async describeCall() {
      return { ruleContents: [], effects: [], findings: [], readOnly: true, summary: STRUCTURED_OUTPUT_TOOL };
    },
    // biome-ignore lint/correctness/useYield: the tool reports no progress.
    async *call(input: Record<string, unknown>) {
      onValue(input);
      return { data: input };
    },
    mapToolResultToContent: () =>
      'The structured answer was recorded. End your turn now (a one-line closing remark at most).',
  });
}

/** `pool` plus one tool that is always loaded (never deferred behind tool search). */
function poolWith(pool: ToolPoolLike, tool: AnyTool): ToolPoolLike {
  const definition = toolDefinition(tool);
  const out: ToolPoolLike = {
    get callable() {
      return [...pool.callable, tool];
    },
    definitions: () => [...pool.definitions(), definition],
  };
  if (pool.definitionsFor) {
    const f = pool.definitionsFor.bind(pool);
    out.definitionsFor = (names) => [...f(names), definition];
  }
  if (pool.deferredToolsSection) out.deferredToolsSection = pool.deferredToolsSection.bind(pool);
  if (pool.deferredToolsDelta) out.deferredToolsDelta = pool.deferredToolsDelta.bind(pool);
  if (pool.requestBetas) out.requestBetas = pool.requestBetas.bind(pool);
  if (pool.mcpServers) out.mcpServers = pool.mcpServers.bind(pool);
  if (pool.dispose) out.dispose = pool.dispose.bind(pool);
  return out;
}

/** One session's structured-output state (see the module comment). Reset after every result. */
export class StructuredOutput {
  readonly tool: AnyTool;
  private value: { data: Record<string, unknown> } | undefined;
  private attempts = 0;
  private exhausted = false;
  private readonly callIds = new Set<string>();
  private interrupt: (() => Promise<void>) | undefined;

  constructor(
    readonly schema: JSONSchemaObject,
    readonly maxAttempts = MAX_STRUCTURED_OUTPUT_ATTEMPTS,
  ) {
    this.tool = structuredOutputTool(schema, (data) => {
      this.value = { data };
    });
  }

  /** The running query, interrupted when the attempts run out while the model keeps calling tools. */
  attach(query: { interrupt(): Promise<void> }): void {
    this.interrupt = () => query.interrupt();
  }

  /** `options` with the tool, the Stop reminder and the instruction added. */
  apply(options: QueryOptions): QueryOptions {
    const stop: HookCallbackMatcher = { hooks: [async () => this.onStop()] };
    const hooks = { ...(options.hooks ?? {}) };
    hooks.Stop = [...(hooks.Stop ?? []), stop];
    const out: QueryOptions = {
      ...options,
      hooks,
      appendSystemPrompt: [options.appendSystemPrompt, STRUCTURED_OUTPUT_INSTRUCTION]
        .filter(Boolean)
        .join('\n\n'),
    };
    if (options.toolPool) out.toolPool = poolWith(options.toolPool, this.tool);
    else if (options.tools) out.tools = [...options.tools, this.tool];
    else if (options.loadToolPool) {
      const load = options.loadToolPool;
      out.loadToolPool = async (session) => poolWith(await load(session), this.tool);
    } else out.tools = [this.tool];
    return out;
  }

  /** Follows one loop event; returns it, or for a result the result this feature makes of it. */
  observe(event: QueryEvent): QueryEvent {
    if (event.type === 'assistant' && event.parent_tool_use_id === null) {
      const block = event.message.content[0];
      if (block?.type === 'tool_use' && block.name === STRUCTURED_OUTPUT_TOOL) this.callIds.add(block.id);
    } else if (
      event.type === 'user' &&
      event.parent_tool_use_id === null &&
      Array.isArray(event.message.content)
    ) {
      for (const block of event.message.content) {
        if (block.type !== 'tool_result' || !this.callIds.has(block.tool_use_id)) continue;
        this.callIds.delete(block.tool_use_id);
        if ((block as ToolResultBlock).is_error && !this.value) this.countAttempt(true);
      }
    } else if (event.type === 'result') {
      const out = this.decorate(event);
      this.value = undefined;
      this.attempts = 0;
      this.exhausted = false;
      this.callIds.clear();
      return out;
    }
    return event;
  }

  private countAttempt(fromCall: boolean): void {
    this.attempts++;
    if (this.attempts < this.maxAttempts) return;
    this.exhausted = true;
    // The model is still calling tools: stop the turn here rather than at the next stop.
    if (fromCall) void this.interrupt?.();
  }

  private async onStop(): Promise<HookJSONOutput> {
    if (this.value || this.exhausted) return {};
    this.countAttempt(false);
    if (this.exhausted) return {};
    return { decision: 'block', reason: REMINDER };
  }

  private decorate(r: ResultEvent): ResultEvent {
    if (this.value && !r.is_error) return { ...r, structured_output: this.value.data };
    const ranOut = this.exhausted && (r.subtype === 'success' || r.terminal_reason.startsWith('aborted'));
    if (!ranOut) return r;
    const { result: _text, ...rest } = r;
    return {
      ...rest,
      subtype: 'error_max_structured_output_retries',
      is_error: true,
      errors: [
        `No valid ${STRUCTURED_OUTPUT_TOOL} call after ${this.attempts} attempts: the model did not produce output matching the schema.`,
      ],
    };
  }
}
