/**
 * Effects of programs that run code: interpreters (a script file is read and run; one-liners
 * `python -c`, `node -e`, `perl -e`, `ruby -e` … are `unknown` exec, and path literals inside them
 * are `unknown` writes so protected-file checks still see them; `perl -pi`/`ruby -i` edit their
 * files), shells (`bash script.sh`; a shell reading a piped script is unknown code) and
 * `source`/`.`.
 *
 * Source:  (source/. read+exec; interpreter one-liners unknown); docs/security-round-2.md
 * "Protected files" (interpreter one-liners are a write vector).
 */
import path from 'node:path';
import type { Word } from '../types.js';
import { words } from '../read-only/options.js';
import type { EffectHandler } from './handler.js';
import type { EffectSink } from './sink.js';
import { getOwn } from '../../core/get-own.js';

const SUMMARY_CHARS = 200;

/** `code` cut to a readable length for effect targets. */
export function summary(code: string): string {
  return code.length > SUMMARY_CHARS ? `${code.slice(0, SUMMARY_CHARS)}…` : code;
}

/**
 * Constructs of one-liner code that stand for the home directory: `os.path.expanduser('~')`,
 * `Path.home()`, `os.environ['HOME']`/`os.getenv('HOME')`, `process.env.HOME`, `os.homedir()`,
 * Ruby `ENV['HOME']`/`Dir.home`, Perl `$ENV{HOME}`, PHP `getenv('HOME')`/`$_SERVER['HOME']`,
 * and `$HOME` inside a string.
 */
const HOME_REFERENCE =
  /expanduser\(\s*['"]~|Path\.home\(\)|environ(?:\.get\(|\[)\s*['"]HOME|getenv\(\s*['"]HOME|env\.HOME\b|env\[\s*['"]HOME|homedir\(\)|ENV\[\s*['"]HOME|Dir\.home|\$ENV\{\s*['"]?HOME|\$_SERVER\[\s*['"]HOME|\$HOME\b|\$\{HOME\}/;

/** Mode prefixes of open() paths: Perl `>`, `>>`, `+<`, `+>`, `<`, `>&`; a trailing/leading `|` is a pipe. */
const MODE_PREFIX = /^\s*\+?(?:>>|>|<)&?\s*/;

/** A home-directory expression at the start of a literal (`${process.env.HOME}/x`, `$ENV{HOME}/x`, `$HOME/x`). */
const LEADING_HOME =
  /^(?:\$\{[^}]*HOME[^}]*\}|\$ENV\{\s*['"]?HOME['"]?\s*\}|\$HOME\b|\$\{HOME\}|#\{[^}]*HOME[^}]*\})/;

const PATHY =
  /^(?:\/|~\/|\.\.?\/)[^\s]*$|^\.[A-Za-z0-9_][A-Za-z0-9_.\/-]*$|^[A-Za-z0-9_-]+(?:\/[A-Za-z0-9_.-]+)+$/;

/** A path named in one-liner code: as written, and whether it lies below the home directory. */
export interface CodePath {
  text: string;
  /** True when the code builds it from the home directory (`Path.home() / '.bashrc'`). */
  home: boolean;
}

/**
 * String literals in one-liner code that name files, with open() mode prefixes removed
 * (`open(">>~/.bashrc")`, `"+<path"`) and home-directory constructs resolved: a literal that
 * starts with a home expression is below home, and when the code refers to the home directory
 * anywhere, every relative name it holds (`'.bashrc'`, `'.ssh/authorized_keys'`) is reported
 * below home as well.
 */
export function codePaths(code: string): CodePath[] {
  const out: CodePath[] = [];
  const homeCode = HOME_REFERENCE.test(code);
  const re = /(['"`])((?:(?!\1)[^\\\n]|\\.)*)\1/g;
  for (let m = re.exec(code); m; m = re.exec(code)) {
    const literal = m[2] as string;
    let t = literal.replace(MODE_PREFIX, '');
    const moded = t !== literal && t !== '';
    let home = false;
    const lead = LEADING_HOME.exec(t);
    if (lead) {
      home = true;
      t = t.slice(lead[0].length).replace(/^\/+/, '');
      if (t === '') continue;
    }
    if (/[$`{}]/.test(t) && !home) continue;
    if (!PATHY.test(t) && !((home || moded) && /^[\w.-]+$/.test(t))) continue;
    if (home) out.push({ text: t, home: true });
    else {
      out.push({ text: t, home: false });
      // Code that refers to the home directory may join any name to it (`HOME + '/.bashrc'`).
      if (homeCode && !t.startsWith('~')) out.push({ text: t.replace(/^\.?\/+/, ''), home: true });
    }
  }
  // Quoting the analysis does not follow (`"#{ENV["HOME"]}/.bashrc"`): any dot-name in code that
  // refers to the home directory may be joined to it.
  if (homeCode)
    for (const m of code.matchAll(/(?:^|[^\w.~/])\/?(\.[A-Za-z0-9_][\w.-]*(?:\/[\w.-]+)*)/g))
      out.push({ text: m[1] as string, home: true });
  return out;
}

/** String literals in one-liner code that look like paths (see `codePaths`), as written. */
export function pathLiterals(code: string): string[] {
  return codePaths(code)
    .filter((p) => !p.home)
    .map((p) => p.text);
}

function oneLiner(sink: EffectSink, program: string, code: Word | undefined): void {
  const text = code?.text ?? '';
  sink.other(
    'exec',
    summary(`${program}: ${text}`),
    'unknown',
    'interpreter',
    `${program} one-liner (effects not analysed)`,
  );
  for (const p of codePaths(text)) {
    const target = p.home
      ? path.join(sink.env.home, p.text.replace(/^~\//, ''))
      : (sink.absolute(p.text) ?? p.text);
    sink.other(
      'write',
      target,
      'unknown',
      'interpreter',
      p.home
        ? `path built from the home directory in a ${program} one-liner`
        : `path named in a ${program} one-liner`,
    );
  }
}

function scriptFile(sink: EffectSink, program: string, w: Word | undefined): void {
  if (!w) {
    sink.other(
      'exec',
      `${program} script from stdin`,
      'unknown',
      'interpreter',
      `${program} reads its program from stdin`,
    );
    return;
  }
  sink.file('read', w, 'argument', `${program} script`);
  sink.other(
    'exec',
    w.dynamic ? w.raw : w.text,
    w.dynamic ? 'unknown' : 'known',
    'interpreter',
    `${program} runs a script file (contents not analysed)`,
  );
}

/** Interpreters: inline-code options, options taking a value, then the script operand. */
interface InterpreterSpec {
  inline: string[];
  withValue: string[];
  /** Options that end option parsing with a module/program name (python -m). */
  module?: string[];
  /** In-place edit flag prefix (perl/ruby -i[ext]). */
  inPlace?: boolean;
}

const INTERPRETERS: Record<string, InterpreterSpec> = {
  python: { inline: ['-c'], withValue: ['-W', '-X', '--check-hash-based-pycs'], module: ['-m'] },
  node: {
    inline: ['-e', '--eval', '-p', '--print'],
    withValue: [
      ...words('-r --require --import --loader --experimental-loader --env-file --input-type --conditions'),
      ...words('-C'),
    ],
  },
  perl: { inline: ['-e', '-E'], withValue: ['-M', '-m', '-I', '-x'], inPlace: true },
  ruby: { inline: ['-e'], withValue: ['-r', '-I', '-C', '-E', '-F'], inPlace: true },
  php: { inline: ['-r'], withValue: ['-d', '-c', '-z'], module: [] },
  lua: { inline: ['-e'], withValue: ['-l'] },
  Rscript: { inline: ['-e'], withValue: [] },
  osascript: { inline: ['-e'], withValue: ['-l'] },
  bun: { inline: ['-e', '--eval', '-p', '--print'], withValue: ['-r', '--preload', '--cwd'] },
};

function interpreterName(program: string): string | undefined {
  if (/^python(\d+(\.\d+)?)?$/.test(program) || program === 'pypy' || program === 'pypy3') return 'python';
  if (program === 'nodejs') return 'node';
  if (/^perl(5[\d.]*)?$/.test(program)) return 'perl';
  if (/^ruby[\d.]*$/.test(program)) return 'ruby';
  if (/^php[\d.]*$/.test(program)) return 'php';
  if (/^lua[\d.]*$/.test(program) || program === 'luajit') return 'lua';
  return getOwn(INTERPRETERS, program) ? program : undefined;
}

/** Interpreters whose inline-code option accepts the code attached (`python -cCODE`, `perl -e'…'`). */
const ATTACHED_CODE = new Set(['python', 'perl', 'ruby', 'php']);
const VERSION_QUERY = /^(-v|-V|--version|-h|--help|version)$/;

function interpreterHandler(program: string, spec: InterpreterSpec): EffectHandler {
  return (args, sink) => {
    if (args.length === 1 && VERSION_QUERY.test(args[0]?.text ?? '')) return;
    let inPlace = false;
    for (let i = 0; i < args.length; i++) {
      const w = args[i] as Word;
      const t = w.text;
      if (t === '--') {
        scriptFile(sink, program, args[i + 1]);
        return;
      }
      if (!t.startsWith('-') || t === '-') {
        scriptFile(sink, program, t === '-' ? undefined : w);
        if (inPlace)
          for (const f of args.slice(i + 1))
            sink.file('write', f, 'argument', `${program} -i (edit in place)`);
        return;
      }
      if (spec.module?.includes(t)) return; // python -m mod: a module, no script file
      if (spec.inline.includes(t)) {
        oneLiner(sink, program, args[i + 1]);
        if (inPlace)
          for (const f of args.slice(i + 2).filter((x) => !x.text.startsWith('-')))
            sink.file('write', f, 'argument', `${program} -i`);
        return;
      }
      const inlineEq = spec.inline.find((o) => o.startsWith('--') && t.startsWith(`${o}=`));
      if (inlineEq) {
        oneLiner(sink, program, { ...w, text: t.slice(inlineEq.length + 1) });
        return;
      }
      if (spec.withValue.includes(t)) {
        i++;
        continue;
      }
      // Bundled short flags: `perl -pi.bak -e`, `perl -ne CODE`, `python -Bc CODE`, `python -cCODE`.
      if (/^-[A-Za-z]/.test(t) && !t.startsWith('--')) {
        const letters = t.slice(1);
        for (let k = 0; k < letters.length; k++) {
          const c = `-${letters[k]}`;
          if (spec.inPlace && c === '-i') {
            inPlace = true; // the rest of the bundle is the backup extension
            break;
          }
          if (spec.inline.includes(c)) {
            const attached = ATTACHED_CODE.has(program) ? letters.slice(k + 1) : '';
            oneLiner(sink, program, attached ? { ...w, text: attached } : args[i + 1]);
            const after = args.slice(attached ? i + 1 : i + 2).filter((x) => !x.text.startsWith('-'));
            if (inPlace)
              for (const f of after) sink.file('write', f, 'argument', `${program} -i (edit in place)`);
            return;
          }
          if (spec.module?.includes(c)) return;
          if (spec.withValue.includes(c)) {
            if (k === letters.length - 1) i++;
            break;
          }
        }
      }
    }
    // Only options: an interactive interpreter or one reading stdin.
    sink.other(
      'exec',
      `${program} (interactive or stdin program)`,
      'unknown',
      'interpreter',
      `${program} without a script`,
    );
  };
}

const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'fish', 'csh', 'tcsh', 'ash', 'busybox']);

/** A shell: `-c` scripts are split into sub-commands elsewhere; a script file or piped stdin is unseen code. */
function shellHandler(program: string): EffectHandler {
  return (args, sink, cmd) => {
    let i = 0;
    if (program === 'busybox') {
      if (args[0]?.text !== 'sh' && args[0]?.text !== 'ash') return;
      i = 1;
    }
    for (; i < args.length; i++) {
      const t = (args[i] as Word).text;
      if (t === '-c' || (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(t) && !t.startsWith('--'))) {
        const script = args[i + 1];
        if (!script || script.dynamic)
          sink.other(
            'exec',
            script?.raw ?? '',
            'unknown',
            'interpreter',
            `${program} -c with a script built from expansions`,
          );
        return;
      }
      if (t === '-o' || t === '+o' || t === '-O' || t === '+O' || t === '--rcfile' || t === '--init-file') {
        i++;
        continue;
      }
      if (t === '-s') break;
      if (t.startsWith('-') || t.startsWith('+')) continue;
      scriptFile(sink, program, args[i]);
      return;
    }
    const heredoc = cmd.redirects.some((r) => r.op === '<<' || r.op === '<<-' || r.op === '<<<');
    if (!heredoc)
      sink.other(
        'exec',
        `${program} script from stdin`,
        'unknown',
        'interpreter',
        `${program} runs a script from its input`,
      );
  };
}

/** `source [--] FILE [ARGS]`: the file runs in the current shell. */
const sourceHandler: EffectHandler = (args, sink) =>
  scriptFile(sink, 'source', args[0]?.text === '--' ? args[1] : args[0]);

/** Shells and `source`/`.` by program name. */
export const interpreterHandlers: Record<string, EffectHandler> = {
  source: sourceHandler,
  '.': sourceHandler,
};
for (const s of SHELLS) interpreterHandlers[s] = shellHandler(s);

/** The handler for an interpreter program name (`python3.11`, `perl5.36` …), if it is one. */
export function interpreterEffects(program: string): EffectHandler | undefined {
  const name = interpreterName(program);
  if (!name) return undefined;
  return interpreterHandler(name, INTERPRETERS[name] as InterpreterSpec);
}
