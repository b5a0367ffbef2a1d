/**
 * The tool contract every tool must keep, as a reusable check (tests only). Run it over every tool
 * you add (`src/testing/tool-contract.test.ts` runs it over the registry):
 *
 * ```ts
 * expect(await checkToolContract(MyTool, { cwd: tempDir })).toEqual([]);
 * ```
 *
 * What it checks, for schema-valid inputs generated from the tool's own schema (plus `samples`),
 * and for variants whose string fields are empty, prototype names (`__proto__`, `constructor`, …),
 * text that is not valid UTF-16/UTF-8 (lone surrogates, NUL, U+FFFD) and huge (just under and just
 * over each size cap given):
 * - `validateInput`, `checkPermissions`, `describeCall` never throw; an `ok: false` or a refusal
 *   carries a non-empty message; a description has the documented shape;
 * - the predicates (`isReadOnly`, `isConcurrencySafe`, `isDestructive`, `userFacingName`,
 *   `toAutoClassifierInput`) never throw and return the documented types;
 * - a call that says it is read-only has no write or delete effect;
 * - the permission engine, given the request `buildPermissionRequest` builds, returns a decision
 *   with a reason (never throws);
 * - through the runtime (nothing is run: the decider records the engine's answer and then denies),
 *   an invalid input, an input carrying a `__proto__` key and a call by a prototype name each end
 *   in exactly one non-empty `tool_result`, and a prototype-named tool is never allowed.
 *
 * Returns the failures as sentences (empty when the tool keeps the contract). Never throws.
 */
import { z } from 'zod';
import type { AnyTool } from '../core/index.js';
import { buildPermissionRequest } from '../core/permission-request.js';
import type { CallDescription, PermissionBehavior } from '../core/permission-types.js';
import { traitsOf } from '../core/tool-traits.js';
import { createPermissionEngine, type PermissionEngine } from '../permissions/engine.js';
import { settingsFromRules } from '../permissions/settings/from-rules.js';
import { createToolRuntime } from '../runtime/index.js';
import { toolUse } from './runtime-fixtures.js';

/** Names inherited from `Object.prototype`: what a plain-object table answers for. */
export const PROTOTYPE_NAMES: readonly string[] = [
  '__proto__',
  'constructor',
  'toString',
  'valueOf',
  'hasOwnProperty',
  'isPrototypeOf',
  'propertyIsEnumerable',
  'toLocaleString',
  '__defineGetter__',
  '__lookupGetter__',
];

/** Strings that are valid JSON strings but awkward: empty, prototype names, broken Unicode, NUL. */
export const AWKWARD_STRINGS: readonly { label: string; value: string }[] = [
  { label: 'empty', value: '' },
  ...PROTOTYPE_NAMES.map((p) => ({ label: `prototype name ${p}`, value: p })),
  { label: 'a lone high surrogate (not encodable as UTF-8)', value: 'a\uD800b' },
  { label: 'a lone low surrogate', value: '\uDC00' },
  { label: 'U+FFFD, what invalid UTF-8 decodes to', value: '\uFFFD\uFFFD' },
  { label: 'a NUL character', value: 'a\u0000b' },
  { label: 'bytes 0xff 0xfe read as Latin-1', value: Buffer.from([0xff, 0xfe, 0x41]).toString('latin1') },
];

export interface ToolContractOptions {
  /** Working directory of the session (a temp directory: nothing is written, but paths resolve there). */
  cwd: string;
  /** Home directory for the permission engine (default: `cwd`). */
  home?: string;
  /** Schema-valid inputs to start from, besides the ones generated from the schema. */
  samples?: readonly Record<string, unknown>[];
  /** Size caps (characters) to probe just under and just over, per string field (default 10 000 and 100 000). */
  stringCaps?: readonly number[];
}

type Json = Record<string, unknown>;

/** A value that satisfies a JSON Schema node (minimal, deterministic), or undefined when unsure. */
function sampleOf(node: unknown, all: boolean, depth = 0, key = 'x'): unknown {
  if (!node || typeof node !== 'object' || depth > 6) return undefined;
  const s = node as Json;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (s.const !== undefined) return s.const;
  for (const k of ['anyOf', 'oneOf', 'allOf'] as const)
    if (Array.isArray(s[k])) return sampleOf((s[k] as unknown[])[0], all, depth + 1, key);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  switch (type) {
    case 'string':
      // Distinct per field (`old_string` ≠ `new_string`), so validation gets past equal-value checks.
      return `${key}.txt`.padEnd(typeof s.minLength === 'number' ? s.minLength : 0, 'x');
    case 'integer':
    case 'number': {
      const min =
        typeof s.minimum === 'number'
          ? s.minimum
          : typeof s.exclusiveMinimum === 'number'
            ? s.exclusiveMinimum + 1
            : 1;
      return typeof s.maximum === 'number' ? Math.min(min, s.maximum) : min;
    }
    case 'boolean':
      return false;
    case 'array': {
      const n = typeof s.minItems === 'number' ? s.minItems : 0;
      return Array.from({ length: n }, () => sampleOf(s.items, all, depth + 1, key));
    }
    case 'object': {
      const props = (s.properties ?? {}) as Json;
      const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : []);
      const out: Json = {};
      for (const [k, v] of Object.entries(props)) {
        if (!all && !required.has(k)) continue;
        const val = sampleOf(v, all, depth + 1, k);
        if (val !== undefined) out[k] = val;
      }
      return out;
    }
    default:
      return undefined;
  }
}

/** Schema-valid starting inputs: `samples`, then the schema's required-only and all-fields samples. */
function baseInputs(tool: AnyTool, samples: readonly Json[]): Json[] {
  let schema: unknown = tool.inputJSONSchema;
  if (!schema) {
    try {
      schema =
        'kind' in tool.inputSchema && tool.inputSchema.kind === 'json-schema'
          ? tool.inputSchema.jsonSchema
          : z.toJSONSchema(tool.inputSchema as z.ZodType, { io: 'input' });
    } catch {
      schema = undefined;
    }
  }
  const candidates = [...samples, sampleOf(schema, false), sampleOf(schema, true)];
  const out: Json[] = [];
  for (const c of candidates) {
    if (!c || typeof c !== 'object') continue;
    const parsed = tool.inputSchema.safeParse(c);
    if (parsed.success && !out.some((o) => JSON.stringify(o) === JSON.stringify(parsed.data)))
      out.push(parsed.data as Json);
  }
  return out;
}

/** Every schema-valid variant of `base` with one top-level string field replaced. */
function variants(tool: AnyTool, base: Json, caps: readonly number[]): { label: string; input: Json }[] {
  const out: { label: string; input: Json }[] = [{ label: 'as generated', input: base }];
  const values = [
    ...AWKWARD_STRINGS,
    ...caps.flatMap((cap) => [
      { label: `${cap - 1} characters (just under ${cap})`, value: 'a'.repeat(cap - 1) },
      { label: `${cap + 1} characters (just over ${cap})`, value: 'a'.repeat(cap + 1) },
    ]),
  ];
  for (const [field, v] of Object.entries(base)) {
    if (typeof v !== 'string') continue;
    for (const { label, value } of values) {
      const parsed = tool.inputSchema.safeParse({ ...base, [field]: value });
      if (parsed.success) out.push({ label: `${field}: ${label}`, input: parsed.data as Json });
    }
  }
  return out;
}

const BEHAVIORS: readonly PermissionBehavior[] = ['allow', 'ask', 'deny'];

function describeShapeProblem(d: unknown): string | undefined {
  if (!d || typeof d !== 'object') return 'is not an object';
  const c = d as CallDescription;
  if (!Array.isArray(c.ruleContents) || c.ruleContents.some((r) => typeof r !== 'string'))
    return 'ruleContents is not a string array';
  if (!Array.isArray(c.effects) || !Array.isArray(c.findings)) return 'effects/findings are not arrays';
  if (typeof c.readOnly !== 'boolean') return 'readOnly is not a boolean';
  if (typeof c.summary !== 'string') return 'summary is not a string';
  if (c.findings.some((f) => typeof f.message !== 'string' || f.message === ''))
    return 'a finding has no message';
  return undefined;
}

async function attempt<T>(
  what: string,
  fn: () => T | Promise<T>,
  failures: string[],
): Promise<T | undefined> {
  try {
    return await fn();
  } catch (e) {
    failures.push(`${what} threw: ${e instanceof Error ? e.message : String(e)}`);
    return undefined;
  }
}

/** Checks `tool` against the contract (see module doc); returns the failures. */
export async function checkToolContract(tool: AnyTool, options: ToolContractOptions): Promise<string[]> {
  const failures: string[] = [];
  const f = (m: string) => failures.push(`${tool.name}: ${m}`);
  if (typeof tool.name !== 'string' || tool.name === '') f('has no name');
  const traits = traitsOf(tool.name);
  if (traits && JSON.stringify([...traits.aliases]) !== JSON.stringify([...tool.aliases]))
    f(
      `aliases ${JSON.stringify(tool.aliases)} differ from the trait table's ${JSON.stringify(traits.aliases)}`,
    );
  await attempt(`${tool.name}: isEnabled`, () => tool.isEnabled(), failures);

  const home = options.home ?? options.cwd;
  const engine: PermissionEngine = createPermissionEngine({
    settings: settingsFromRules({ projectRoot: options.cwd, home }),
  });
  const decisions: PermissionBehavior[] = [];
  const runtime = createToolRuntime({
    tools: [tool],
    cwd: options.cwd,
    decide: async (request) => {
      decisions.push(engine.decideSync(request).decision.behavior);
      return { behavior: 'deny', reason: { type: 'default', message: 'the contract check runs nothing' } };
    },
  });
  const context = runtime.context;
  const bases = baseInputs(tool, options.samples ?? []);
  if (bases.length === 0) f('no schema-valid input could be generated; pass `samples`');

  for (const base of bases) {
    for (const { label, input } of variants(tool, base, options.stringCaps ?? [10_000, 100_000])) {
      const at = (what: string) => `${tool.name}: ${what} (${label})`;
      const v = await attempt(at('validateInput'), () => tool.validateInput(input, context), failures);
      if (v && v.ok === false && (typeof v.message !== 'string' || v.message.trim() === ''))
        failures.push(`${at('validateInput')} refused without a message`);
      const p = await attempt(at('checkPermissions'), () => tool.checkPermissions(input, context), failures);
      if (p && p.behavior !== 'passthrough' && !(typeof p.reason === 'string' && p.reason !== ''))
        failures.push(`${at('checkPermissions')} answered ${p.behavior} without a reason`);
      const d = await attempt(at('describeCall'), () => tool.describeCall(input, context), failures);
      const shape = d === undefined ? undefined : describeShapeProblem(d);
      if (shape) failures.push(`${at('describeCall')}: the description ${shape}`);
      const readOnly = await attempt(at('isReadOnly'), () => tool.isReadOnly(input), failures);
      const predicates: [string, () => unknown, 'boolean' | 'string'][] = [
        ['isReadOnly', () => readOnly, 'boolean'],
        ['isConcurrencySafe', () => tool.isConcurrencySafe(input), 'boolean'],
        ['isDestructive', () => tool.isDestructive(input), 'boolean'],
        ['userFacingName', () => tool.userFacingName(input), 'string'],
        ['toAutoClassifierInput', () => tool.toAutoClassifierInput(input), 'string'],
      ];
      for (const [name, fn, type] of predicates) {
        const r = await attempt(at(name), fn, failures);
        if (r !== undefined && typeof r !== type)
          failures.push(`${at(name)} returned a ${typeof r}, not a ${type}`);
      }
      if (readOnly === true && d?.effects.some((e) => e.kind === 'write' || e.kind === 'delete'))
        failures.push(`${at('isReadOnly')} is true but the description writes`);
      if (d && !shape && p) {
        const decided = await attempt(
          at('the permission engine'),
          () =>
            engine.decideSync(
              buildPermissionRequest({
                tool,
                input,
                description: d,
                toolResult: p,
                toolUseId: 'toolu_contract',
                session: context.getAppState(),
              }),
            ),
          failures,
        );
        if (decided && (!BEHAVIORS.includes(decided.decision.behavior) || !decided.decision.reason.message))
          failures.push(`${at('the permission engine')} gave no decision with a reason`);
      }
    }
  }

  // Through the runtime: bad input, a smuggled prototype key, a prototype name as the tool name.
  const smuggled = { ...(bases[0] ?? {}), ...(JSON.parse('{"__proto__": {"command": "rm -rf /"}}') as Json) };
  const calls = [
    toolUse('toolu_c1', tool.name, { __contract_unknown_field__: 1 }),
    toolUse('toolu_c2', tool.name, smuggled),
    ...PROTOTYPE_NAMES.map((p, i) => toolUse(`toolu_p${i}`, p, {})),
  ];
  const before = decisions.length;
  const turn = await attempt(
    `${tool.name}: the runtime`,
    () => runtime.runToolsToCompletion(calls),
    failures,
  );
  if (turn) {
    if (turn.results.length !== calls.length)
      f(`the runtime returned ${turn.results.length} results for ${calls.length} calls`);
    for (const r of turn.results) {
      const text = typeof r.content === 'string' ? r.content : JSON.stringify(r.content ?? '');
      if (!text.trim()) f(`the runtime gave ${r.tool_use_id} an empty result`);
    }
    const protoResults = turn.results.filter((r) => r.tool_use_id.startsWith('toolu_p'));
    if (protoResults.some((r) => r.is_error !== true))
      f('a call by a prototype name did not end in an error');
  }
  if (decisions.slice(before).length > 2) f('the runtime asked the engine about a prototype-named tool');
  return failures.map(clip);
}

/** Failure texts stay short: a huge input is named by its label, not printed. */
const clip = (s: string): string => (s.length > 400 ? `${s.slice(0, 400)}… (${s.length} characters)` : s);
