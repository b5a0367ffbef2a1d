/**
 * Arguments of programs that run project code (`npm test`, `go build`, `cargo test`, `make`,
 * `npx tsc`, `docker compose`): the path-looking operands and option values every such program
 * may read or write, and the options that hand the program something to execute.
 *
 * Path fallback: a path-looking operand or option value (`a/b`, `./x`, `../x`, `~/x`, `/x`,
 * `--opt=/x`) is a read, so path constraints apply; it is a write when it follows or carries an
 * output-looking option (`-o`, `--out*`, `--output*`, `--write`, `--outDir`, `--outFile`,
 * `--target-dir`, `-coverprofile`) or when its file name is protected (`~/.bashrc`): such a
 * program may well write it, and a protected write must reach deny.
 *
 * Execution primitives: npm/pnpm/yarn `--script-shell`, `--node-options`, `--userconfig`,
 * `--globalconfig`, `--config.*`; go `-exec`, `-toolexec`, `-vettool`; cargo `--config`; make
 * `SHELL=`, `.SHELLFLAGS=`, `MAKEFILES=` — each becomes an `exec` effect of unknown certainty
 * (asks even under an allow rule for the program).
 *
 * Source: red-team report K (root causes A and B: `go test -o ~/.bashrc`, `npm test
 * --script-shell=./x.sh`, `go test -toolexec=./x`, `make SHELL=/tmp/x`).
 */
import { PROTECTED_FILE_ENTRIES, protectedNameMatches } from '../../core/protected-paths.js';
import type { Word } from '../types.js';
import { basenameOf } from './handler.js';
import type { EffectSink } from './sink.js';

/** Options whose value (attached or next word) is an output file or directory. */
const OUTPUT_OPTION =
  /^(?:-o|--?out[a-z-]*|--?output[a-z-]*|--write|-w|--outDir|--outFile|--out-dir|--target-dir|--?coverprofile|--?cpuprofile|--?memprofile|--?trace|--emit-to)$/i;

function looksLikePath(t: string): boolean {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(t)) return false;
  return t.includes('/') || t.startsWith('.') || t.startsWith('~');
}

/** True when the base name of a path text is a protected file name (`.bashrc`, `.npmrc`, `.env`). */
export function hasProtectedName(text: string): boolean {
  const base = basenameOf(text);
  return base !== '' && PROTECTED_FILE_ENTRIES.some((e) => protectedNameMatches(e.name, base));
}

/**
 * Path-looking operands and option values as reads, or writes after an output-looking option or
 * with a protected file name (see the module comment). `detail` names the program.
 */
export function pathOperandEffects(args: readonly Word[], sink: EffectSink, detail: string): void {
  let afterOutput = false;
  for (const w of args) {
    let t = w.text;
    const wasAfterOutput = afterOutput;
    afterOutput = false;
    let output = wasAfterOutput;
    if (t.startsWith('-')) {
      const eq = t.indexOf('=');
      const name = eq >= 0 ? t.slice(0, eq) : t;
      if (eq < 0) {
        afterOutput = OUTPUT_OPTION.test(name);
        continue;
      }
      output = OUTPUT_OPTION.test(name);
      t = t.slice(eq + 1);
    }
    if (!looksLikePath(t) && !output) continue;
    if (!looksLikePath(t) && !/^[\w.-]+$/.test(t)) continue;
    const input = t === w.text ? w : { ...w, text: t, raw: t };
    if (output || hasProtectedName(t))
      sink.file('write', input, 'argument', `${detail}: output path (may be written)`);
    else sink.file('read', input, 'argument', `${detail}: path operand (may also be written)`);
  }
}

const PM_PRIMITIVE = /^--(?:script-shell|node-options|userconfig|globalconfig|config\.[\w.-]+)(?:=|$)/;
const GO_PRIMITIVE = /^--?(?:exec|toolexec|vettool)(?:=|$)/;
const CARGO_PRIMITIVE = /^(?:--config(?:=|$)|-Z$|-Z.)/;

/**
 * Options of a package manager / build tool that name something it will execute or a config file
 * that can make it execute anything. Records an unknown `exec` effect for each.
 */
export function buildToolPrimitives(pm: string, args: readonly Word[], sink: EffectSink): void {
  const re =
    pm === 'go'
      ? GO_PRIMITIVE
      : pm === 'cargo'
        ? CARGO_PRIMITIVE
        : /^(npm|pnpm|yarn|bun)$/.test(pm)
          ? PM_PRIMITIVE
          : undefined;
  if (!re) return;
  for (const w of args) {
    if (w.text === '--') break;
    if (re.test(w.text))
      sink.other(
        'exec',
        `${pm} ${w.text}`,
        'unknown',
        'flag',
        `${pm} ${w.text.split('=')[0]} can run any program`,
      );
  }
}

/** make variables that choose the shell or load extra makefiles (`make SHELL=/tmp/x`). */
const MAKE_PRIMITIVE = /^(?:SHELL|\.SHELLFLAGS|MAKEFILES|MAKESHELL|MAKEFLAGS|MFLAGS)[+:?]?=/;

/** make: primitive variable assignments and `-I DIR`/`--include-dir=DIR` (reads of the directory). */
export function makePrimitives(args: readonly Word[], sink: EffectSink): void {
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    const t = w.text;
    if (MAKE_PRIMITIVE.test(t))
      sink.other(
        'exec',
        `make ${t}`,
        'unknown',
        'argument',
        `make ${t.split('=')[0]} changes what make runs`,
      );
    else if ((t === '-I' || t === '--include-dir') && args[i + 1])
      sink.file('read', args[i + 1] as Word, 'flag', 'make include directory');
    else if (t.startsWith('--include-dir=') || (t.startsWith('-I') && t.length > 2)) {
      const v = t.startsWith('-I') ? t.slice(2) : t.slice('--include-dir='.length);
      sink.file('read', { ...w, text: v, raw: v }, 'flag', 'make include directory');
    }
  }
}
