/**
 * Turns schema issues (zod's, or a JSON-Schema input's in the same shape) into an
 * `InputValidationError` the model can act on: each problem names the field (`file_path`,
 * `edits[0].old_string`) and what was expected. Pure.
 */
import { ToolInputError } from '../core/index.js';

interface ZodLikeIssue {
  code?: string;
  path?: readonly PropertyKey[];
  message?: string;
  expected?: string;
  keys?: readonly string[];
  values?: readonly unknown[];
}

/** `['edits', 0, 'old_string']` → `edits[0].old_string`. */
export function formatIssuePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out ? `.${String(part)}` : String(part);
  }
  return out;
}

function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !Number.isInteger(value)) return `the number ${value}`;
  if (typeof value === 'string') return 'a string';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** `integer` → `an integer`, `string` → `a string`. */
function withArticle(noun: string): string {
  return /^[aeiou]/i.test(noun) ? `an ${noun}` : `a ${noun}`;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let v: unknown = input;
  for (const part of path) {
    if (v === null || typeof v !== 'object') return undefined;
    v = (v as Record<PropertyKey, unknown>)[part];
  }
  return v;
}

function describeIssue(issue: ZodLikeIssue, input: unknown): string {
  const path = issue.path ?? [];
  const field = formatIssuePath(path);
  const value = valueAt(input, path);
  switch (issue.code) {
    case 'invalid_type':
      if (path.length === 0) return `The input must be a JSON object, but ${describeValue(input)} was given.`;
      if (value === undefined)
        return `The required parameter \`${field}\` is missing (expected ${issue.expected}).`;
      return `The parameter \`${field}\` must be ${withArticle(issue.expected === 'int' ? 'integer' : String(issue.expected))}, but ${describeValue(value)} was given.`;
    case 'unrecognized_keys': {
      const keys = (issue.keys ?? []).map((k) => `\`${field ? `${field}.` : ''}${k}\``).join(', ');
      return `Unexpected parameter ${keys}: it is not part of this tool's input; remove it.`;
    }
    case 'invalid_value': {
      const options = (issue.values ?? []).map((v) => JSON.stringify(v)).join(', ');
      return `The parameter \`${field}\` must be one of ${options}.`;
    }
    default:
      return field
        ? `The parameter \`${field}\` is invalid: ${issue.message ?? 'rejected by the schema'}.`
        : `The input is invalid: ${issue.message ?? 'rejected by the schema'}.`;
  }
}

/**
 * Builds the error for a failed schema parse. `error` is zod's error (anything with `issues`);
 * `input` the raw input the model sent. `field` of the result is the first offending field
 * (undefined for a whole-input problem).
 */
export function schemaErrorToInputError(toolName: string, error: unknown, input: unknown): ToolInputError {
  const issues: ZodLikeIssue[] =
    error && typeof error === 'object' && Array.isArray((error as { issues?: unknown }).issues)
      ? ((error as { issues: ZodLikeIssue[] }).issues ?? [])
      : [{ message: String(error) }];
  const lines = issues.map((issue) => `- ${describeIssue(issue, input)}`);
  const first = issues[0]?.path?.length ? formatIssuePath(issues[0].path) : undefined;
  return new ToolInputError(
    `InputValidationError: ${toolName} failed due to the following issue${issues.length === 1 ? '' : 's'}:\n${lines.join('\n')}\nFix the input and call ${toolName} again.`,
    first,
  );
}
