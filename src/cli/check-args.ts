/**
 * `gantry check`'s options parsed by hand with `util.parseArgs`'s rules, for the start-up path
 * (cli-entry.ts): loading commander is about a sixth of a check's start. This mirrors the `check`
 * command defined in main.ts (a test keeps the two in step) and accepts only a plain, valid
 * invocation: help, version, an unknown option or a malformed value give undefined, and the caller
 * goes through commander, which prints its usual message.
 */
import type { CheckCliOptions } from './check.js';

/** The options of `check`: whether each takes a value, and whether it may repeat (else the last wins). */
export const CHECK_OPTIONS: Readonly<Record<string, { value: boolean; multiple?: boolean }>> = {
  settings: { value: true, multiple: true },
  mode: { value: true },
  cwd: { value: true },
  'add-dir': { value: true, multiple: true },
  tool: { value: true },
  input: { value: true },
  hooks: { value: false },
  trust: { value: false },
  json: { value: false },
};

const COMMANDER_ONLY = new Set(['-h', '--help', '-V', '--version']);

/**
 * `args` are the words after `check`; returns the command words and options, or undefined (use
 * commander). The rules are those of `util.parseArgs` with `strict` and `allowPositionals` for
 * CHECK_OPTIONS (check-args.test.ts compares the two over generated invocations), written out
 * here: loading and first running Node's parser cost a cold start about half a millisecond
 * (docs/startup.md). Undefined for any short option, an unknown long one, a value on a flag, a
 * missing value, or a separate value that looks like an option (`--cwd -x`; a lone `-` is a value).
 */
export function parseCheckArgs(
  args: readonly string[],
): { words: string[]; options: CheckCliOptions } | undefined {
  const end = args.indexOf('--');
  if ((end === -1 ? args : args.slice(0, end)).some((a) => COMMANDER_ONLY.has(a))) return undefined;
  const words: string[] = [];
  const values: Record<string, string | string[] | true> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as string;
    if (a === '--') {
      words.push(...args.slice(i + 1));
      break;
    }
    if (a.length < 2 || a[0] !== '-') {
      words.push(a);
      continue;
    }
    if (a[1] !== '-') return undefined; // a short option: `check` has none
    const eq = a.indexOf('=');
    const name = eq === -1 ? a.slice(2) : a.slice(2, eq);
    const spec = Object.hasOwn(CHECK_OPTIONS, name) ? CHECK_OPTIONS[name] : undefined;
    if (!spec) return undefined;
    if (!spec.value) {
      if (eq !== -1) return undefined;
      values[name] = true;
      continue;
    }
    let value: string;
    if (eq !== -1) value = a.slice(eq + 1);
    else {
      const next = args[i + 1];
      if (next === undefined || (next.length > 1 && next[0] === '-')) return undefined;
      value = next;
      i++;
    }
    if (spec.multiple) values[name] = [...((values[name] as string[] | undefined) ?? []), value];
    else values[name] = value;
  }
  const v = values as Record<string, string & string[]>;
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
  return { words, options };
}
