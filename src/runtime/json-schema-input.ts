/**
 * Input validation for tools defined by JSON Schema (MCP tools): `jsonSchemaInput(schema)` compiles
 * the schema once, with Ajv, and returns a `JsonSchemaInput` that parses like zod: `safeParse`
 * answers `{ success, data }` or issues in zod's shape, so the runtime reports them exactly as it
 * reports zod's (an `InputValidationError` naming each field).
 *
 * - Dialect: JSON Schema 2020-12 when `$schema` names it (Ajv2020), otherwise draft-07 (Ajv), the
 *   dialect MCP servers use when they name none. Formats (`uri`, `email`, `date-time`, …) are checked
 *   (ajv-formats).
 * - The input is validated, never changed: no defaults filled in, no coercion, nothing removed.
 * - A schema that does not compile makes every call fail with an issue saying so (fail closed); it
 *   is compiled once, on the tool's first input, not per call.
 *
 * Source: Ajv's documentation (ajv.js.org: "JSON Schema draft-2020-12", error objects) and the MCP
 * specification's `inputSchema` (a JSON Schema object).
 */
import { createRequire } from 'node:module';
import type { Ajv, ErrorObject, ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { InputParseResult, InputSchemaIssue, JSONSchemaObject, JsonSchemaInput } from '../core/index.js';

type AjvInstance = Ajv | Ajv2020;
type FormatsPlugin = (ajv: AjvInstance) => AjvInstance;

export interface AjvModules {
  Ajv: typeof Ajv;
  Ajv2020: typeof Ajv2020;
  addFormats: FormatsPlugin;
}
let ajvModules: AjvModules | undefined;
/**
 * Ajv (CommonJS) is required when the first schema is compiled, not when this module loads: a
 * session without JSON Schema tools never loads it (docs/cli-print.md, "Start-up").
 */
export function ajvLibrary(): AjvModules {
  if (ajvModules) return ajvModules;
  const require = createRequire(import.meta.url);
  const formats = require('ajv-formats') as { default?: FormatsPlugin } | FormatsPlugin;
  ajvModules = {
    Ajv: (require('ajv') as { Ajv: typeof Ajv }).Ajv,
    Ajv2020: (require('ajv/dist/2020.js') as { Ajv2020: typeof Ajv2020 }).Ajv2020,
    // ajv-formats is CommonJS: the module object carries the plugin as `default`, or is the plugin.
    addFormats: typeof formats === 'function' ? formats : (formats.default as FormatsPlugin),
  };
  return ajvModules;
}

const AJV_OPTIONS = {
  strict: false,
  allErrors: true,
  validateFormats: true,
  // The server's schema is not checked against its meta-schema: an unknown keyword or `$schema`
  // must not make the tool unusable; what Ajv can compile, it enforces.
  validateSchema: false,
  coerceTypes: false,
  useDefaults: false,
  removeAdditional: false,
  // Errors carry their parent schema (for the declared type of a missing property).
  verbose: true,
} as const;

let draft07: Ajv | undefined;
let draft2020: Ajv2020 | undefined;

function ajvFor(schema: JSONSchemaObject): AjvInstance {
  const dialect = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (dialect.includes('2020-12')) {
    const lib = ajvLibrary();
    draft2020 ??= lib.addFormats(new lib.Ajv2020(AJV_OPTIONS)) as Ajv2020;
    return draft2020;
  }
  const lib = ajvLibrary();
  draft07 ??= lib.addFormats(new lib.Ajv(AJV_OPTIONS)) as Ajv;
  return draft07;
}

/** `/edits/0/old_string` → `['edits', 0, 'old_string']` (JSON Pointer, RFC 6901). */
function pointerToPath(pointer: string): PropertyKey[] {
  if (!pointer) return [];
  return pointer
    .slice(1)
    .split('/')
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((part) => (/^(0|[1-9]\d*)$/.test(part) ? Number(part) : part));
}

/** The declared type of property `name` of the (sub)schema an error came from, for "expected …". */
function declaredType(parentSchema: unknown, name: string): string | undefined {
  if (!parentSchema || typeof parentSchema !== 'object') return undefined;
  const properties = (parentSchema as { properties?: unknown }).properties;
  if (!properties || typeof properties !== 'object' || !Object.hasOwn(properties, name)) return undefined;
  const type = (properties as Record<string, { type?: unknown }>)[name]?.type;
  if (typeof type === 'string') return type;
  if (Array.isArray(type) && type.every((t) => typeof t === 'string')) return type.join(' or ');
  return undefined;
}

/** One Ajv error as a zod-shaped issue. */
function toIssue(error: ErrorObject): InputSchemaIssue {
  const path = pointerToPath(error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required': {
      const name = String(params.missingProperty);
      return {
        code: 'invalid_type',
        path: [...path, name],
        message: error.message ?? `must have required property ${name}`,
        expected: declaredType(error.parentSchema, name) ?? 'a value',
      };
    }
    case 'type': {
      const type = params.type;
      return {
        code: 'invalid_type',
        path,
        message: error.message ?? 'has the wrong type',
        expected: Array.isArray(type) ? type.join(' or ') : String(type),
      };
    }
    case 'additionalProperties':
      return {
        code: 'unrecognized_keys',
        path,
        message: error.message ?? 'must not have additional properties',
        keys: [String(params.additionalProperty)],
      };
    case 'enum':
      return {
        code: 'invalid_value',
        path,
        message: error.message ?? 'must be one of the allowed values',
        values: Array.isArray(params.allowedValues) ? params.allowedValues : [],
      };
    case 'const':
      return {
        code: 'invalid_value',
        path,
        message: error.message ?? 'must be the allowed value',
        values: [params.allowedValue],
      };
    default:
      return { code: error.keyword, path, message: error.message ?? `fails the ${error.keyword} rule` };
  }
}

/**
 * Returns the validator of `schema`, compiled (once) on its first input. Never throws: a schema that does not compile
 * gives a validator that rejects every input, saying why.
 */
export function jsonSchemaInput<I extends Record<string, unknown> = Record<string, unknown>>(
  schema: JSONSchemaObject,
): JsonSchemaInput<I> {
  let validate: ValidateFunction | undefined;
  let compileError: string | undefined;
  let compiled = false;
  const compile = (): void => {
    compiled = true;
    let ajv: AjvInstance | undefined;
    try {
      ajv = ajvFor(schema);
      validate = ajv.compile(schema);
    } catch (error) {
      compileError = error instanceof Error ? error.message : String(error);
    } finally {
      // The compiled function stands alone; dropping the schema from Ajv's cache keeps a long session
      // (MCP servers reconnecting, tool lists changing) from pinning every schema it ever saw, and
      // lets two tools share an `$id`.
      try {
        ajv?.removeSchema(schema);
      } catch {
        // Nothing was cached.
      }
    }
  };
  return {
    kind: 'json-schema',
    jsonSchema: schema,
    safeParse(input: unknown): InputParseResult<I> {
      if (!compiled) compile();
      if (!validate) {
        return {
          success: false,
          error: {
            issues: [
              { path: [], message: `the tool's input schema could not be compiled (${compileError})` },
            ],
          },
        };
      }
      if (validate(input)) return { success: true, data: input as I };
      const issues = (validate.errors ?? []).map(toIssue);
      return {
        success: false,
        error: { issues: issues.length ? issues : [{ path: [], message: 'rejected by the schema' }] },
      };
    },
  };
}
