/**
 * The start-up parser of `gantry check` (check-args.ts) agrees with the commander definition in
 * main.ts: whatever it accepts, commander parses to the same words and options; whatever it hands
 * back (undefined), commander handles itself.
 */
import { parseArgs } from 'node:util';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../testing/seeded-random.js';
import { CHECK_OPTIONS, parseCheckArgs } from './check-args.js';
import { buildProgram } from './program.js';

/** Commander's parse of `gantry check <args>`: the action's words and options, or the error it raised. */
async function commanderParse(
  args: string[],
): Promise<{ words: string[]; options: object } | { error: string }> {
  const program = buildProgram();
  let captured: { words: string[]; options: object } | undefined;
  for (const c of [program, ...program.commands] as Command[]) {
    c.exitOverride();
    c.configureOutput({ writeOut: () => undefined, writeErr: () => undefined });
  }
  const check = program.commands.find((c) => c.name() === 'check') as Command;
  check.action((words: string[], options: object) => {
    captured = { words, options: { ...options } };
  });
  try {
    await program.parseAsync(['node', 'gantry', 'check', ...args]);
  } catch (e) {
    return { error: (e as Error).message };
  }
  return captured ?? { error: 'no action' };
}

/** [args after `check`, why]: the start-up parser takes these, exactly as commander does. */
const ACCEPTED: Array<[string[], string]> = [
  [['--', 'git status'], 'the usual form'],
  [['--json', '--', 'git', 'status'], 'a flag, then words'],
  [['git', 'status'], 'words without --'],
  [['ls', '--json'], 'a flag after the words'],
  [['--settings', 'a.json', '--settings=b.json', '--', 'ls'], 'a repeatable option, both spellings'],
  [['--add-dir', '/x', '--add-dir', '/y', '--cwd', '/p', '--mode', 'plan', '--', 'ls'], 'every value option'],
  [['--tool', 'Read', '--input', '{"file_path":"/a"}'], 'a tool call'],
  [['--hooks', '--trust', '--', 'ls'], 'the other flags'],
  [['--', 'echo', '--help'], '--help after -- is a word of the command'],
  [['--', 'rm', '-rf', '/'], 'options after -- are words'],
  [['--mode', '', '--', 'ls'], 'an empty value (the check reports it)'],
  [[], 'nothing (the check reports the usage error)'],
];

/** [args, why]: left to commander. */
const DEFERRED: Array<[string[], string]> = [
  [['--help'], 'help text'],
  [['-h'], 'help text, short'],
  [['--bogus', '--', 'ls'], 'an unknown option'],
  [['ls', '-la'], 'an option of the command without --'],
  [['--mode'], 'a missing value'],
  [['--json=yes', '--', 'ls'], 'a value on a flag'],
  [['--cwd', '-x', '--', 'ls'], 'a value that looks like an option'],
  [['--cwd', '--', 'ls'], 'the end of options where a value belongs'],
  [['--mode=plan', '-x', '--', 'ls'], 'a short option (check has none)'],
  [['--no-json', '--', 'ls'], 'a negated flag (not in Node 20)'],
];

/** The parse `util.parseArgs` makes (strict, positionals allowed) of CHECK_OPTIONS, as check-args.ts did. */
function nodeParse(args: string[]): ReturnType<typeof parseCheckArgs> {
  if (
    (args.includes('--') ? args.slice(0, args.indexOf('--')) : args).some((a) =>
      /^(-h|--help|-V|--version)$/.test(a),
    )
  )
    return undefined;
  const options = Object.fromEntries(
    Object.entries(CHECK_OPTIONS).map(([k, o]) => [
      k,
      { type: o.value ? ('string' as const) : ('boolean' as const), multiple: o.multiple === true },
    ]),
  );
  let r: ReturnType<typeof parseArgs>;
  try {
    r = parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch {
    return undefined;
  }
  const v = r.values as Record<string, string & string[] & boolean>;
  const o: Record<string, unknown> = {};
  if (v.settings) o.settings = v.settings;
  for (const k of ['mode', 'cwd', 'tool', 'input'] as const) if (v[k] !== undefined) o[k] = v[k];
  if (v['add-dir']) o.addDir = v['add-dir'];
  for (const k of ['hooks', 'trust', 'json'] as const) if (v[k]) o[k] = true;
  return { words: r.positionals, options: o };
}

/** Words generated invocations are made of: options, values, option-like values, terminators. */
const PIECES = [
  ...Object.keys(CHECK_OPTIONS).flatMap((k) => [`--${k}`, `--${k}=`, `--${k}=v`, `--${k}=-x`]),
  ...['--', '-', '-x', '-ab', '--bogus', '--json=yes', '--=x', '---', 'ls', 'git status', '', '-1', 'a=b'],
  ...['--help', '-h', '--version', '--constructor', '--__proto__', '--to', '--setting'],
];

describe('parseCheckArgs', () => {
  it.each(ACCEPTED)('%j is parsed as commander parses it (%s)', async (args) => {
    const fast = parseCheckArgs(args);
    expect(fast).toBeDefined();
    expect(await commanderParse(args)).toEqual({ words: fast?.words, options: fast?.options });
  });

  it.each(DEFERRED)('%j is left to commander (%s)', (args) => {
    expect(parseCheckArgs(args)).toBeUndefined();
  });

  it('parses every generated invocation as util.parseArgs does (strict, with positionals)', () => {
    const next = seededRandom(20261202);
    let accepted = 0;
    for (let n = 0; n < 20_000; n++) {
      const args = Array.from(
        { length: Math.floor(next() * 6) },
        () => PIECES[Math.floor(next() * PIECES.length)] as string,
      );
      const ours = parseCheckArgs(args);
      expect(ours, JSON.stringify(args)).toEqual(nodeParse(args));
      if (ours) accepted++;
    }
    expect(accepted).toBeGreaterThan(2_000);
  });
});
