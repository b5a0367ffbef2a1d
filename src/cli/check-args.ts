/**
 * `gantry check`'s options parsed with Node's `util.parseArgs`, for the start-up path
 * (cli-entry.ts): loading commander is about a sixth of a check's start. This mirrors the `check`
 * command defined in main.ts (a test keeps the two in step) and accepts only a plain, valid
 * invocation: help, version, an unknown option or a malformed value give undefined, and the caller
 * goes through commander, which prints its usual message.
 */
import { parseArgs } from 'node:util';
import type { CheckCliOptions } from './check.js';

const OPTIONS = {
  settings: { type: 'string', multiple: true },
  mode: { type: 'string' },
  cwd: { type: 'string' },
  'add-dir': { type: 'string', multiple: true },
  tool: { type: 'string' },
  input: { type: 'string' },
  hooks: { type: 'boolean' },
  trust: { type: 'boolean' },
  json: { type: 'boolean' },
} as const;

const COMMANDER_ONLY = new Set(['-h', '--help', '-V', '--version']);

/** `args` are the words after `check`; returns the command words and options, or undefined (use commander). */
export function parseCheckArgs(
  args: readonly string[],
): { words: string[]; options: CheckCliOptions } | undefined {
  const end = args.indexOf('--');
  if ((end === -1 ? args : args.slice(0, end)).some((a) => COMMANDER_ONLY.has(a))) return undefined;
  let parsed: ReturnType<typeof parseArgs<{ options: typeof OPTIONS; allowPositionals: true; strict: true }>>;
  try {
    parsed = parseArgs({ args: [...args], options: OPTIONS, allowPositionals: true, strict: true });
  } catch {
    return undefined;
  }
  const v = parsed.values;
  const options: CheckCliOptions = {};
  if (v.settings) options.settings = v.settings;
  if (v.mode !== undefined) options.mode = v.mode;
  if (v.cwd !== undefined) options.cwd = v.cwd;
  if (v['add-dir']) options.addDir = v['add-dir'];
  if (v.tool !== undefined) options.tool = v.tool;
  if (v.input !== undefined) options.input = v.input;
  if (v.hooks) options.hooks = true;
  if (v.trust) options.trust = true;
  if (v.json) options.json = true;
  return { words: parsed.positionals, options };
}
