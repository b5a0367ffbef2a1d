/**
 * `${VAR}` and `${VAR:-default}` expansion in MCP server entries (Claude Code documentation,
 * "Environment variable expansion in .mcp.json"): applied to `command`, `args`, `env` values, `url`
 * and `headers` values. A variable that is unset and has no default is left as written and reported
 * (the server then usually fails to start, which is reported too). `$VAR` without braces is not
 * expanded. A default may itself be empty (`${X:-}`). Expansion is one pass: a value that contains
 * `${…}` after expansion is not expanded again.
 */

const PATTERN = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export interface ExpansionResult {
  value: string;
  /** Variables that were unset and had no default. */
  missing: string[];
}

/** Expands one string against `env`. */
export function expandVariables(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
): ExpansionResult {
  const missing: string[] = [];
  const value = text.replace(PATTERN, (whole, name: string, fallback: string | undefined) => {
    const v = Object.hasOwn(env, name) ? env[name] : undefined;
    if (v !== undefined && v !== '') return v;
    if (fallback !== undefined) return fallback;
    if (v === '') return '';
    missing.push(name);
    return whole;
  });
  return { value, missing };
}

/** Expands every value of a string map; keys are kept as written. */
export function expandMap(
  map: Readonly<Record<string, string>>,
  env: Readonly<Record<string, string | undefined>>,
): { value: Record<string, string>; missing: string[] } {
  const out: Record<string, string> = {};
  const missing: string[] = [];
  for (const [k, v] of Object.entries(map)) {
    const r = expandVariables(v, env);
    out[k] = r.value;
    missing.push(...r.missing);
  }
  return { value: out, missing };
}
