/**
 * The shape of a per-program effect handler and small helpers shared by the handler families.
 */
import {
  type ArgItem,
  type CompiledTable,
  compileOptions,
  type OptionTable,
  scanArgs,
} from '../read-only/options.js';
import type { SimpleCommand, Word } from '../types.js';
import type { EffectSink, PathInput } from './sink.js';

/**
 * Records the effects of one program's arguments (argv without the program) into the sink.
 * `cmd` gives access to redirects/wrappers when a handler needs them. Never throws.
 */
export type EffectHandler = (args: readonly Word[], sink: EffectSink, cmd: SimpleCommand) => void;

/** The value of an option item as a path input (keeps the word's dynamism/globbing). */
export function valueInput(item: ArgItem, args: readonly Word[]): PathInput {
  if (item.kind !== 'option') return { text: '' };
  if (item.valueWord) return item.valueWord;
  const w = args[item.index];
  const value = item.value ?? '';
  return {
    text: value,
    raw: value,
    dynamic: Boolean(w?.dynamic) && /[$`]/.test(value),
    hasGlob: Boolean(w?.hasGlob) && /[*?[]/.test(value),
    braceExpansion: Boolean(w?.braceExpansion) && /[{]/.test(value),
  };
}

/**
 * Scans with a table built and compiled on first use, once per program (given as a function at
 * module level, so its literal is not built when the module loads either; docs/startup.md).
 */
export function scanner(table: OptionTable | (() => OptionTable)): (args: readonly Word[]) => ArgItem[] {
  let compiled: CompiledTable | undefined;
  return (args) => {
    compiled ??= compileOptions({ ...(typeof table === 'function' ? table() : table), lenientBundles: true });
    return scanArgs(args, compiled);
  };
}

/** Operand words of a scan. */
export function operands(items: readonly ArgItem[]): Word[] {
  const out: Word[] = [];
  for (const it of items) if (it.kind === 'operand' || it.kind === 'dynamic') out.push(it.word);
  return out;
}

/** Every option item with one of the names. */
export function options(
  items: readonly ArgItem[],
  ...names: string[]
): Extract<ArgItem, { kind: 'option' }>[] {
  const out: Extract<ArgItem, { kind: 'option' }>[] = [];
  for (const it of items) if (it.kind === 'option' && names.includes(it.name)) out.push(it);
  return out;
}

/** True when the scan met an option it does not know (its arity is a guess). */
export function hasUnknown(items: readonly ArgItem[]): boolean {
  return items.some((it) => it.kind === 'unknown');
}

/** Reads every operand (or `fallback` when there is none, e.g. the cwd for `ls`). */
export function readAll(sink: EffectSink, words: readonly Word[], detail: string, fallback?: string): void {
  if (words.length === 0 && fallback !== undefined) {
    sink.literal('read', fallback, 'argument', detail);
    return;
  }
  for (const w of words) sink.file('read', w, 'argument', detail);
}

/**
 * Joins a directory word and a basename (text, or a word whose dynamism and globbing carry over)
 * into a path input. Dynamic when either part is.
 */
export function joinPath(dir: PathInput, base: string | PathInput): PathInput {
  const sep = dir.text.endsWith('/') ? '' : '/';
  const b = typeof base === 'string' ? { text: base } : base;
  const joined: PathInput = {
    ...dir,
    text: `${dir.text}${sep}${b.text}`,
    raw: `${dir.raw ?? dir.text}${sep}${b.raw ?? b.text}`,
  };
  if (typeof base !== 'string') {
    if (base.dynamic) joined.dynamic = true;
    if (base.hasGlob) joined.hasGlob = true;
    if (base.braceExpansion) joined.braceExpansion = true;
  }
  return joined;
}

/** Last path segment of a word's text (`a/b/` → `b`). */
export function basenameOf(text: string): string {
  const trimmed = text.replace(/\/+$/, '');
  const i = trimmed.lastIndexOf('/');
  return i >= 0 ? trimmed.slice(i + 1) : trimmed;
}
