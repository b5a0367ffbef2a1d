/**
 * Transparent wrappers (`timeout`, `nice`, `env`, `sudo`, `xargs` …): find the program that actually
 * runs behind them, so rules and read-only checks see it (the Claude Code permissions docs "Wrappers stripped before
 * matching"; docs/security-round-2.md).
 *
 * `stripWrappers(argv)` peels wrappers off the front of an argv, outermost first. A wrapper is only
 * peeled when its command word is static and either bare (`timeout`) or in a system bin directory
 * (`/usr/bin/timeout`); `./timeout` is someone's program and stays the program. When a wrapper's
 * options cannot be parsed (an unknown option) or no command follows it, it is NOT peeled: the
 * wrapper stays `argv[0]`, which is an unknown program to the read-only validator (fail closed).
 */
import type { Word, WrapperPath } from './types.js';
import { type OptionSpec, SPECS } from './wrappers-specs.js';

/** What `stripWrappers` found. */
export interface StripResult {
  /** The words that run (program first). */
  argv: Word[];
  /** Wrapper names peeled, outermost first. */
  wrappers: string[];
  /** `NAME=value` words given to `env`/`sudo`/`doas` (to be recorded as assignments). */
  assignments: Word[];
  /** Paths named by wrapper options (for effects). */
  paths: WrapperPath[];
  /** A shell string a wrapper runs (`env -S`, `watch`, `flock -c`, `su -c`), to parse as a script. */
  script?: { word: Word; text: string; dynamic: boolean; via: string };
  /** Facts for the checks: `privilege` (sudo/doas/su), `chdir` (env -C, sudo -D). */
  flags: Set<'privilege' | 'chdir'>;
}

const NO_NAMES = Object.freeze([]) as unknown as string[];
const NO_WORDS = Object.freeze([]) as unknown as Word[];
const NO_PATHS = Object.freeze([]) as unknown as WrapperPath[];
/** The flags of a command with no wrapper: never added to (only `stripWrappers` adds, to its own set). */
const NO_FLAGS: Set<'privilege' | 'chdir'> = new Set();

const SYSTEM_BIN = /^\/(?:usr\/(?:local\/)?)?s?bin\/([^/]+)$/;

/** The basename of a static command word if it may be trusted as that program (bare or in a system bin dir). */
export function trustedProgramName(word: Word | undefined): string | undefined {
  if (!word || word.dynamic || word.hasGlob) return undefined;
  const t = word.text;
  if (!t.includes('/')) return t;
  const m = SYSTEM_BIN.exec(t);
  return m ? m[1] : undefined;
}

/** Basename of a command word (for shells/eval detection, where path-qualification does not matter). */
export function programBasename(word: Word | undefined): string | undefined {
  if (!word || word.dynamic) return undefined;
  const t = word.text;
  const slash = t.lastIndexOf('/');
  return slash >= 0 ? t.slice(slash + 1) : t;
}

/** Names treated as wrappers (keys of the option table). */
export const WRAPPER_NAMES: ReadonlySet<string> = new Set(Object.keys(SPECS));

interface ParsedOptions {
  /** Index of the first word after options and positionals (the wrapped command), or -1 on failure. */
  next: number;
  /** Options seen with their values (value undefined for flags). Key: `-x` or `--long`. */
  options: Array<{ name: string; value?: Word }>;
  positionals: Word[];
  assignments: Word[];
  noCommand: boolean;
}

const ASSIGNMENT_RE = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Parses the options of a wrapper starting at argv[start]. Returns next=-1 when it cannot. */
function parseOptions(argv: Word[], start: number, spec: OptionSpec): ParsedOptions {
  const out: ParsedOptions = { next: -1, options: [], positionals: [], assignments: [], noCommand: false };
  let i = start;
  let optionsDone = false;
  const wantPositional = spec.positional ?? 0;
  while (i < argv.length) {
    const w = argv[i] as Word;
    if (w.dynamic) {
      // A dynamic word is taken as a positional operand (`timeout $T cmd`) or as the wrapped
      // command; either way the result is computed, never trusted.
      if (out.positionals.length < wantPositional) {
        out.positionals.push(w);
        i++;
        continue;
      }
      break; // the wrapped command itself is computed (`timeout 5 $cmd`): DYNAMIC_COMMAND_WORD sees it
    }
    const t = w.text;
    if (!optionsDone && t === '--') {
      // Once the operands before the command are taken (`timeout 5 -- x`, `flock F -- x`), these
      // programs stop parsing options: a `--` there is the command name (timeout runs "--").
      if (wantPositional > 0 && out.positionals.length >= wantPositional) break;
      optionsDone = true;
      i++;
      continue;
    }
    if (!optionsDone && t.startsWith('--') && t.length > 2) {
      const eq = t.indexOf('=');
      const name = eq >= 0 ? t.slice(2, eq) : t.slice(2);
      const match = (list: string[]) => list.find((l) => l === name) ?? uniquePrefix(list, name);
      const lv = match(spec.longValue);
      const lf = match(spec.longFlag);
      const ln = spec.longNoCommand ? match(spec.longNoCommand) : undefined;
      if (ln) {
        out.noCommand = true;
        return out;
      }
      if (lv && !lf) {
        if (eq >= 0) out.options.push({ name: `--${lv}`, value: { ...w, text: t.slice(eq + 1) } });
        else {
          const v = argv[i + 1];
          if (!v) return out;
          out.options.push({ name: `--${lv}`, value: v });
          i++;
        }
        i++;
        continue;
      }
      if (lf && eq < 0) {
        out.options.push({ name: `--${lf}` });
        i++;
        continue;
      }
      if (lf === 'preserve-env') {
        out.options.push({ name: '--preserve-env' });
        i++;
        continue;
      }
      return out; // unknown long option
    }
    if (!optionsDone && t.startsWith('-') && t.length > 1) {
      if (spec.numericOption && /^-\d+$/.test(t)) {
        out.options.push({ name: '-n', value: { ...w, text: t.slice(1) } });
        i++;
        continue;
      }
      let consumedNext = false;
      for (let k = 1; k < t.length; k++) {
        const c = t[k] as string;
        if (spec.noCommand?.includes(c)) {
          out.noCommand = true;
          return out;
        }
        if (spec.shortOptionalAttached?.includes(c)) {
          const rest = t.slice(k + 1);
          out.options.push(rest ? { name: `-${c}`, value: { ...w, text: rest } } : { name: `-${c}` });
          break;
        }
        if (spec.shortValue.includes(c)) {
          const rest = t.slice(k + 1);
          if (rest) out.options.push({ name: `-${c}`, value: { ...w, text: rest } });
          else {
            const v = argv[i + 1];
            if (!v) return out;
            out.options.push({ name: `-${c}`, value: v });
            consumedNext = true;
          }
          break;
        }
        if (spec.shortFlag.includes(c)) {
          out.options.push({ name: `-${c}` });
          continue;
        }
        return out; // unknown short option
      }
      i += consumedNext ? 2 : 1;
      continue;
    }
    if (spec.assignments && out.positionals.length === 0 && ASSIGNMENT_RE.test(t) && !w.raw.startsWith('"')) {
      out.assignments.push(w);
      optionsDone = true;
      i++;
      continue;
    }
    if (out.positionals.length < wantPositional) {
      out.positionals.push(w);
      i++;
      // flock FILE -c CMD: options may follow the lock file
      continue;
    }
    break;
  }
  if (out.positionals.length < wantPositional) return out;
  out.next = i;
  return out;
}

function uniquePrefix(list: string[], name: string): string | undefined {
  if (name.length < 2) return undefined;
  const hits = list.filter((l) => l.startsWith(name));
  return hits.length === 1 ? hits[0] : undefined;
}

/**
 * Peels transparent wrappers off `argv`, outermost first. Never throws.
 * Contract: the returned `argv` is a suffix of the input (same Word objects). Wrappers that run a
 * shell string (`env -S`, `watch`, `flock -c`, `su -c`) are not peeled: they stay the program and
 * their string is returned in `script`, to be parsed as a script.
 */
export function stripWrappers(argv: Word[]): StripResult {
  // Most commands start with no wrapper: their result shares frozen empty lists (nothing adds to
  // a result once it is returned), not three new arrays and a set per command.
  const program = trustedProgramName(argv[0]);
  if (!program || !WRAPPER_NAMES.has(program))
    return { argv, wrappers: NO_NAMES, assignments: NO_WORDS, paths: NO_PATHS, flags: NO_FLAGS };
  const result: StripResult = { argv, wrappers: [], assignments: [], paths: [], flags: new Set() };
  let rest = argv;
  for (let guard = 0; guard < 64 && rest.length > 0; guard++) {
    const name = trustedProgramName(rest[0]);
    if (!name || !WRAPPER_NAMES.has(name)) break;
    const spec = SPECS[name] as OptionSpec;
    if (name === 'busybox') {
      if (rest.length < 2 || (rest[1] as Word).text.startsWith('-')) break;
      result.wrappers.push(name);
      rest = rest.slice(1);
      continue;
    }
    const parsed = parseOptions(rest, 1, spec);
    if (parsed.noCommand || parsed.next < 0) break;
    const has = (o: string) => parsed.options.find((x) => x.name === o);
    // Shell-string wrappers: the string is parsed as a script.
    const scriptOpt =
      name === 'flock' || name === 'su' || name === 'runuser'
        ? (has('-c') ?? has('--command') ?? has('--session-command'))
        : name === 'env'
          ? (has('-S') ?? has('--split-string'))
          : undefined;
    if (name === 'su' || name === 'sudo' || name === 'doas' || name === 'runuser')
      result.flags.add('privilege');
    if (scriptOpt?.value) {
      const tail = rest.slice(parsed.next);
      const text = [scriptOpt.value.text, ...tail.map((w) => w.text)].join(' ');
      const dynamic = scriptOpt.value.dynamic || tail.some((w) => w.dynamic);
      recordPaths(name, parsed, result);
      result.script = { word: scriptOpt.value, text, dynamic, via: `${name} ${scriptOpt.name}` };
      break;
    }
    if (name === 'su') break; // su without -c starts an interactive shell: not a wrapper
    // runuser without -u/-c has su semantics (`runuser USER ARGS` gives ARGS to a shell): not peeled.
    if (name === 'runuser' && !has('-u') && !has('--user')) break;
    if (parsed.next >= rest.length) break; // nothing to run: the wrapper is the program
    if (name === 'watch' && !has('-x') && !has('--exec')) {
      const tail = rest.slice(parsed.next);
      const first = tail[0] as Word;
      result.script = {
        word: first,
        text: tail.map((w) => w.text).join(' '),
        dynamic: tail.some((w) => w.dynamic),
        via: 'watch',
      };
      break;
    }
    result.wrappers.push(name);
    recordPaths(name, parsed, result);
    result.assignments.push(...parsed.assignments);
    rest = rest.slice(parsed.next);
  }
  result.argv = rest;
  return result;
}

function recordPaths(name: string, parsed: ParsedOptions, result: StripResult): void {
  for (const o of parsed.options) {
    if (!o.value) continue;
    if (
      (name === 'env' && (o.name === '-C' || o.name === '--chdir')) ||
      (name === 'sudo' && (o.name === '-D' || o.name === '--chdir'))
    ) {
      result.paths.push({ wrapper: name, role: 'chdir', word: o.value });
      result.flags.add('chdir');
    }
    if (name === 'time' && (o.name === '-o' || o.name === '--output'))
      result.paths.push({ wrapper: name, role: 'write', word: o.value });
    if (name === 'xargs' && (o.name === '-a' || o.name === '--arg-file'))
      result.paths.push({ wrapper: name, role: 'read', word: o.value });
    if (name === 'sudo' && (o.name === '-R' || o.name === '--chroot')) {
      result.paths.push({ wrapper: name, role: 'chdir', word: o.value });
      result.flags.add('chdir');
    }
  }
  if (name === 'flock' && parsed.positionals[0] && !/^\d+$/.test(parsed.positionals[0].text)) {
    result.paths.push({ wrapper: name, role: 'lock', word: parsed.positionals[0] });
  }
}

/** Shells whose `-c` string / stdin script we parse. */
export const SHELL_NAMES: ReadonlySet<string> = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'ksh',
  'mksh',
  'ash',
  'rbash',
  'yash',
  'posh',
  'fish',
  'csh',
  'tcsh',
]);

/** How a shell invocation gets its script. */
export type ShellInvocation =
  | { kind: 'command-string'; word: Word; index: number }
  | { kind: 'stdin' }
  | { kind: 'file'; word: Word }
  | { kind: 'unknown' };

/** Reads `sh [options] [-c string [name args…] | -s [args…] | file [args…]]` (bash(1) INVOCATION). */
export function shellInvocation(argv: Word[]): ShellInvocation {
  let hasC = false;
  let hasS = false;
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i] as Word;
    if (w.dynamic) return { kind: 'unknown' };
    const t = w.text;
    if (t === '--' || t === '-') {
      const next = argv[i + 1];
      if (!next) return hasC ? { kind: 'unknown' } : { kind: 'stdin' };
      if (hasC) return { kind: 'command-string', word: next, index: i + 1 };
      return hasS ? { kind: 'stdin' } : { kind: 'file', word: next };
    }
    if (/^--(rcfile|init-file)$/.test(t) || /^[-+][oO]$/.test(t)) {
      i++;
      continue;
    }
    if (t.startsWith('--')) {
      if (t === '--command') hasC = true;
      continue;
    }
    if ((t.startsWith('-') || t.startsWith('+')) && t.length > 1) {
      if (t.slice(1).includes('c')) hasC = true;
      if (t.startsWith('-') && t.slice(1).includes('s')) hasS = true;
      // -o/-O with a bundled value letter: `-eo pipefail`
      if (/[oO]$/.test(t) && t.length > 2) i++;
      continue;
    }
    if (hasC) return { kind: 'command-string', word: w, index: i };
    return hasS ? { kind: 'stdin' } : { kind: 'file', word: w };
  }
  return hasC ? { kind: 'unknown' } : { kind: 'stdin' };
}
