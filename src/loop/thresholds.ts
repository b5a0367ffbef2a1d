/**
 * Result-size thresholds from managed settings (docs/loop.md, "Thresholds"): an administrator can
 * lower or raise the inline caps of tool results without a new release, the way Claude Code tunes
 * them remotely. Read once when a session starts and passed to `query` as `toolResultLimits`, so
 * every request of the session sees the same caps (a cap that changed mid-session would change
 * how results render, and with it the request prefix).
 *
 * Shape, in any managed settings file (`/etc/gantry/managed-settings.json`,
 * `/etc/claude-code/managed-settings.json`, their `.d/` drop-ins):
 *
 * ```json
 * { "toolResultLimits": { "maxResultSizeChars": 40000, "maxTurnResultsChars": 150000,
 *                         "perTool": { "Bash": 20000, "Grep": 10000 } } }
 * ```
 *
 * Values are positive integers (characters). The first file that sets a value wins (the files'
 * precedence order); a bad value is reported and ignored, leaving the built-in default. Other
 * settings sources are not read for this key: only administrators set it.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { settingsSources } from '../permissions/settings/sources.js';
import type { ToolResultLimits } from './types.js';

export interface ManagedLimitsResult {
  limits: ToolResultLimits;
  problems: { file: string; message: string }[];
  /** Files that set at least one value. */
  files: string[];
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isCap = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v) && v > 0;

/** Reads `toolResultLimits` from the managed settings files (see the module comment). Never throws. */
export function readManagedToolLimits(
  options: { managedFiles?: readonly string[]; projectRoot?: string; home?: string } = {},
): ManagedLimitsResult {
  const specs = settingsSources({
    projectRoot: options.projectRoot ?? process.cwd(),
    home: options.home ?? homedir(),
    ...(options.managedFiles ? { managedFiles: options.managedFiles } : {}),
    settingSources: [],
  }).filter((s) => s.source === 'managed');
  const out: ManagedLimitsResult = { limits: {}, problems: [], files: [] };
  const perTool: Record<string, number> = {};
  for (const spec of specs) {
    let json: unknown;
    try {
      json = JSON.parse(readFileSync(spec.file, 'utf8'));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR')
        out.problems.push({
          file: spec.file,
          message: `cannot read managed settings: ${(error as Error).message}`,
        });
      continue;
    }
    const block = isObj(json) ? json.toolResultLimits : undefined;
    if (block === undefined) continue;
    if (!isObj(block)) {
      out.problems.push({ file: spec.file, message: '"toolResultLimits" must be an object; ignored' });
      continue;
    }
    let used = false;
    for (const key of ['maxResultSizeChars', 'maxTurnResultsChars'] as const) {
      const v = block[key];
      if (v === undefined) continue;
      if (!isCap(v)) {
        out.problems.push({
          file: spec.file,
          message: `"toolResultLimits.${key}" must be a positive integer; ignored`,
        });
        continue;
      }
      if (out.limits[key] === undefined) {
        out.limits[key] = v;
        used = true;
      }
    }
    if (block.perTool !== undefined) {
      if (!isObj(block.perTool))
        out.problems.push({
          file: spec.file,
          message: '"toolResultLimits.perTool" must be an object; ignored',
        });
      else
        for (const [tool, v] of Object.entries(block.perTool)) {
          if (!isCap(v)) {
            out.problems.push({
              file: spec.file,
              message: `"toolResultLimits.perTool.${tool}" must be a positive integer; ignored`,
            });
            continue;
          }
          if (!Object.hasOwn(perTool, tool)) {
            perTool[tool] = v;
            used = true;
          }
        }
    }
    if (used) out.files.push(spec.file);
  }
  if (Object.keys(perTool).length) out.limits.perTool = perTool;
  return out;
}
