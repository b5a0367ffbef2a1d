/**
 * The shape of a security check (docs/architecture.md plus our additions) and helpers the
 * detectors share. A detector is pure: `(command, split) → Finding[]`, no I/O, linear in the input.
 * Every finding it returns has `behavior: 'ask'` (a check never allows and never denies on its own).
 */
import type { Finding } from '../../core/permission-types.js';
import type { QuoteSpan, SimpleCommand, SplitResult, Word } from '../types.js';
import { programBasename } from '../wrappers.js';

/** One exported security check. */
export interface Detector {
  /** Stable id, e.g. `IFS_INJECTION`; used as `Finding.id`. */
  id: string;
  /** Numeric id of docs/architecture.md for the 23 classic checks; undefined for our additions. */
  checkId?: number;
  /** What the check looks for and why it matters (one sentence). */
  reason: string;
  detect(command: string, split: SplitResult): Finding[];
}

/** Builds an `ask` finding for `detector`, optionally tied to a sub-command index. */
export function finding(
  detector: Pick<Detector, 'id' | 'checkId'>,
  message: string,
  subcommand?: number,
): Finding {
  const f: Finding = { id: detector.id, message, behavior: 'ask' };
  if (detector.checkId !== undefined) f.checkId = detector.checkId;
  if (subcommand !== undefined) f.subcommand = subcommand;
  return f;
}

/** Program name of a command: basename of argv[0] when static. */
export function programOf(cmd: SimpleCommand): string | undefined {
  return programBasename(cmd.argv[0]);
}

const programCache = new WeakMap<SplitResult, (string | undefined)[]>();

/**
 * `programOf` of every command of `split`, by index: computed once per split and shared by the
 * detectors (about twenty of them ask each command for its program; asked per detector, that was
 * a few percent of a 64 KiB analysis). Recomputed when the command list changed length.
 */
export function programsOf(split: SplitResult): readonly (string | undefined)[] {
  const commands = split.commands;
  let programs = programCache.get(split);
  if (programs === undefined || programs.length !== commands.length) {
    programs = new Array<string | undefined>(commands.length);
    for (let i = 0; i < commands.length; i++) programs[i] = programOf(commands[i] as SimpleCommand);
    programCache.set(split, programs);
  }
  return programs;
}

/** Quote context of each character of the top-level command. */
export const CharContext = { Code: 0, Single: 1, Double: 2, AnsiC: 3, Heredoc: 4, Comment: 5 } as const;

const KIND_TO_CONTEXT: Record<QuoteSpan['kind'], number> = {
  code: CharContext.Code,
  single: CharContext.Single,
  double: CharContext.Double,
  'ansi-c': CharContext.AnsiC,
  heredoc: CharContext.Heredoc,
  comment: CharContext.Comment,
};

const contextCache = new WeakMap<SplitResult, Uint8Array>();

/**
 * Per-character quote context of `command` (depth 0), from the parser's spans: inner spans override
 * outer ones. Cached per split result. Without spans (a failed parse), everything is Code.
 */
export function charContexts(command: string, split: SplitResult): Uint8Array {
  const cached = contextCache.get(split);
  if (cached && cached.length === command.length) return cached;
  const out = new Uint8Array(command.length);
  const spans = [...(split.spans ?? [])].sort((a, b) => a.start - b.start || b.end - a.end);
  for (const s of spans) out.fill(KIND_TO_CONTEXT[s.kind], s.start, Math.min(s.end, command.length));
  contextCache.set(split, out);
  return out;
}

/** True when a word was written with quotes or backslashes in more than one piece, or mixed with plain text. */
export function isPiecewiseQuoted(word: Word): boolean {
  const raw = word.raw;
  if (!word.quoted) return false;
  // A single leading backslash on a plain word (`\rm`, the alias-bypass idiom) is not piecewise.
  if (/^\\[A-Za-z0-9_./-]+$/.test(raw)) return false;
  // One quoted piece covering the whole word.
  if (/^'[^']*'$/.test(raw) || /^"(?:[^"\\]|\\.)*"$/s.test(raw)) return false;
  return true;
}

/** Iterates every word of every command (argv, assignments excluded) with its command index. */
export function* allWords(split: SplitResult): Generator<[Word, number, number]> {
  const cmds = split.commands;
  for (let i = 0; i < cmds.length; i++) {
    const argv = (cmds[i] as SimpleCommand).argv;
    for (let k = 0; k < argv.length; k++) yield [argv[k] as Word, i, k];
  }
}
