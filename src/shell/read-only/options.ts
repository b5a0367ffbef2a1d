/**
 * A getopt_long-style option scanner over shell words, shared by read-only validation and effects.
 *
 * Option tables are written as strings:
 * - `-x` short flag, `-x=` short option with a required value (`-xVAL` or `-x VAL`),
 *   `-x=?` short option with an optional value (attached only: `-U3`);
 * - `--long` flag, `--long=` required value (`--long=V` or `--long V`), `--long=?` optional value
 *   (attached only).
 *
 * Scanning follows GNU getopt_long: short options bundle (`-uo FILE` = `-u -o FILE`, `-oout.txt`
 * = `-o out.txt`); a long option may be abbreviated to any unique prefix (`--out` = `--output`),
 * and an exact name always wins; `--` ends options; options may follow operands (permutation)
 * unless the table says `stopAtOperand`. An abbreviation that is ambiguous but could name an
 * unsafe option resolves to that unsafe option (fail closed: source docs/security-round-2.md,
 * "sort -o/--output/--compress-program (all spellings, including bundled and abbreviated ones)").
 */
import type { Word } from '../types.js';

export type ArgArity = 'none' | 'required' | 'optional';

interface OptionDef {
  /** Canonical spelling as written in the table, without the `=`/`=?` suffix (`-o`, `--output`). */
  name: string;
  arity: ArgArity;
  /** Why this option disqualifies read-only; undefined for safe options. */
  unsafe?: string;
}

/** A program's option table (see the module comment for the string syntax). */
export interface OptionTable {
  /** Options that keep the program read-only. */
  safe: readonly string[];
  /** Options the program knows that disqualify read-only, with the reason. */
  unsafe?: Readonly<Record<string, string>>;
  /** `-NUM` is an option (head -20, git log -5). */
  numeric?: boolean;
  /** Options end at the first operand (POSIX getopt, BSD style, `xargs`, wrappers). */
  stopAtOperand?: boolean;
  /**
   * Effects scanning: an unknown letter inside a short bundle is taken as a flag and the bundle
   * continues (read-only validation leaves this off: an unknown letter is `unknown`).
   */
  lenientBundles?: boolean;
}

export interface CompiledTable {
  short: Map<string, OptionDef>;
  long: Map<string, OptionDef>;
  longNames: string[];
  numeric: boolean;
  stopAtOperand: boolean;
  /** True when some known option is unsafe (dynamic words in option position then disqualify). */
  hasUnsafe: boolean;
  lenientBundles: boolean;
}

/** One scanned argument. `index` is the position in the scanned word list. */
export type ArgItem =
  | {
      kind: 'option';
      /** Canonical name (`-o`, `--output`), or `-NUM` for numeric options. */
      name: string;
      /** The value (attached or next word) when the option takes one. */
      value?: string;
      valueWord?: Word;
      unsafe?: string;
      index: number;
    }
  | { kind: 'operand'; word: Word; index: number }
  /** An option the table does not know (or an ambiguous abbreviation); `text` as written. */
  | { kind: 'unknown'; text: string; index: number }
  /** A word whose value starts with an expansion, in a position where it could be an option. */
  | { kind: 'dynamic'; word: Word; index: number };

function parseSpec(spec: string, unsafe?: string): OptionDef {
  let arity: ArgArity = 'none';
  let name = spec;
  if (spec.endsWith('=?')) {
    arity = 'optional';
    name = spec.slice(0, -2);
  } else if (spec.endsWith('=')) {
    arity = 'required';
    name = spec.slice(0, -1);
  }
  return unsafe === undefined ? { name, arity } : { name, arity, unsafe };
}

/** Compiles an option table (cache the result at module level). */
export function compileOptions(table: OptionTable): CompiledTable {
  const short = new Map<string, OptionDef>();
  const long = new Map<string, OptionDef>();
  const add = (def: OptionDef): void => {
    if (def.name.startsWith('--')) long.set(def.name.slice(2), def);
    else short.set(def.name.slice(1), def);
  };
  for (const s of table.safe) add(parseSpec(s));
  for (const [s, why] of Object.entries(table.unsafe ?? {})) add(parseSpec(s, why));
  return {
    short,
    long,
    longNames: [...long.keys()],
    numeric: table.numeric ?? false,
    stopAtOperand: table.stopAtOperand ?? false,
    hasUnsafe: Object.keys(table.unsafe ?? {}).length > 0,
    lenientBundles: table.lenientBundles ?? false,
  };
}

/**
 * A module-level table compiled on first use: the table is written as a function, so neither its
 * literal nor its maps are built when the module loads (a check or hook call meets one or two
 * programs of the hundreds the tables cover; docs/startup.md). Every call returns the same table.
 */
export function compiledLazily(table: () => OptionTable): () => CompiledTable {
  let compiled: CompiledTable | undefined;
  return () => {
    compiled ??= compileOptions(table());
    return compiled;
  };
}

/** True when the word's value begins with an expansion (so it may turn into an option at run time). */
export function startsDynamic(w: Word): boolean {
  if (!w.dynamic) return false;
  const c = w.text[0];
  return c === '$' || c === '`' || w.text === '';
}

/** Resolves a long option name (without `--`) by exact match or unique prefix; unsafe wins ambiguity. */
function resolveLong(t: CompiledTable, name: string): OptionDef | undefined {
  const exact = t.long.get(name);
  if (exact) return exact;
  let found: OptionDef | undefined;
  let ambiguous = false;
  let unsafeHit: OptionDef | undefined;
  for (const n of t.longNames) {
    if (!n.startsWith(name)) continue;
    const def = t.long.get(n) as OptionDef;
    if (def.unsafe && !unsafeHit) unsafeHit = def;
    if (found && found !== def) ambiguous = true;
    found = def;
  }
  if (unsafeHit) return unsafeHit;
  return ambiguous ? undefined : found;
}

/**
 * Scans `words` (arguments after the program name) against a compiled table.
 * Never throws; unknown options come back as `unknown` items.
 * @param untilOperand - stop after the first operand once options are over (`stopAtOperand` or
 *   `--`): every later word is an operand, so a caller that only needs the options and where the
 *   operands start (a launcher's own options) does not pay for the rest of a long word list.
 */
export function scanArgs(words: readonly Word[], t: CompiledTable, untilOperand = false): ArgItem[] {
  const out: ArgItem[] = [];
  let optionsDone = false;
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as Word;
    const text = w.text;
    if (optionsDone || text === '-' || !text.startsWith('-')) {
      if (!optionsDone && startsDynamic(w)) {
        out.push({ kind: 'dynamic', word: w, index: i });
        continue;
      }
      out.push({ kind: 'operand', word: w, index: i });
      if (t.stopAtOperand) optionsDone = true;
      if (untilOperand && optionsDone) break;
      continue;
    }
    if (text === '--') {
      optionsDone = true;
      continue;
    }
    if (text.startsWith('--')) {
      const eq = text.indexOf('=');
      const name = eq < 0 ? text.slice(2) : text.slice(2, eq);
      const def = resolveLong(t, name);
      if (!def) {
        out.push({ kind: 'unknown', text, index: i });
        continue;
      }
      const item: ArgItem = { kind: 'option', name: def.name, index: i };
      if (def.unsafe) item.unsafe = def.unsafe;
      if (eq >= 0) {
        if (def.arity === 'none') {
          out.push({ kind: 'unknown', text, index: i });
          continue;
        }
        item.value = text.slice(eq + 1);
      } else if (def.arity === 'required') {
        const next = words[i + 1];
        if (next) {
          item.value = next.text;
          item.valueWord = next;
          i++;
        }
      }
      out.push(item);
      continue;
    }
    // Short option bundle.
    if (t.numeric && /^-\d+$/.test(text)) {
      out.push({ kind: 'option', name: '-NUM', value: text.slice(1), index: i });
      continue;
    }
    for (let k = 1; k < text.length; k++) {
      const ch = text[k] as string;
      const def = t.short.get(ch);
      if (!def) {
        out.push({ kind: 'unknown', text: t.lenientBundles ? `-${ch}` : `-${text.slice(k)}`, index: i });
        if (t.lenientBundles) continue;
        break;
      }
      const item: ArgItem = { kind: 'option', name: def.name, index: i };
      if (def.unsafe) item.unsafe = def.unsafe;
      if (def.arity === 'none') {
        out.push(item);
        continue;
      }
      const rest = text.slice(k + 1);
      if (rest !== '') {
        item.value = rest;
      } else if (def.arity === 'required') {
        const next = words[i + 1];
        if (next) {
          item.value = next.text;
          item.valueWord = next;
          i++;
        }
      }
      out.push(item);
      break;
    }
  }
  return out;
}

/** The operands (non-option words) of a scan, in order; dynamic items count as operands. */
export function operandsOf(items: readonly ArgItem[]): Word[] {
  const out: Word[] = [];
  for (const it of items) if (it.kind === 'operand' || it.kind === 'dynamic') out.push(it.word);
  return out;
}

/** Values of every occurrence of the named options (canonical names). */
export function optionValues(items: readonly ArgItem[], ...names: string[]): string[] {
  const out: string[] = [];
  for (const it of items)
    if (it.kind === 'option' && names.includes(it.name) && it.value !== undefined) out.push(it.value);
  return out;
}

/** True when any of the named options occurs. */
export function hasOption(items: readonly ArgItem[], ...names: string[]): boolean {
  return items.some((it) => it.kind === 'option' && names.includes(it.name));
}

/** Splits a whitespace-separated list of option specs (`words('-a -b= --long')`), for compact tables. */
export function words(list: string): string[] {
  return list.trim().split(/\s+/);
}
