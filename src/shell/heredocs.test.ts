/**
 * Heredocs parse as bash parses them (docs/shell-analysis.md "Heredocs"). Oracle: bash runs each
 * row with unknown program names (`zz…`) and a `command_not_found_handle` that reports, on
 * standard error, the words of every command it was asked to run; the parser must find exactly
 * those commands — body text never becomes a command and no command becomes body text.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapPathResolver } from '../core/paths.js';
import { analyzeCommand } from './analyze.js';
import { type Heredoc, maskHeredocs, scanHeredocs } from './heredocs.js';
import { initShellParser } from './parser.js';
import { parseAndSplit } from './split.js';
import { WORST_CASE_GENERATORS, WORST_CASE_SIZES } from '../testing/worst-case-commands.js';
import { sharedFile } from '../testing/shared-data.js';
import { readFileSync } from 'node:fs';

/** Bash runs in an empty directory (a row redirects into a file). */
const runDir = mkdtempSync(path.join(tmpdir(), 'gantry-heredocs-'));

beforeAll(async () => {
  await initShellParser();
});
afterAll(() => {
  rmSync(runDir, { recursive: true, force: true });
});

const HANDLER =
  'PATH=/nonexistent\ncommand_not_found_handle() { printf "%s\\037" "$@" >&2; printf "\\036" >&2; }\n';

/** The programs bash runs for `line` (sorted: pipeline stages run concurrently). */
function bashCommands(line: string): string[] {
  const r = spawnSync('bash', ['-c', HANDLER + line], {
    encoding: 'utf8',
    cwd: runDir,
    // stdin is not a socket: bash started on a socket with no SHLVL reads ~/.bashrc.
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const reports = r.stderr
    .split('\n')
    .filter((l) => !l.startsWith('bash: '))
    .join('\n');
  return reports
    .split('\u001e')
    .slice(0, -1)
    .map((c) => c.split('\u001f')[0] as string)
    .sort();
}

function parsedCommands(line: string): string[] {
  return parseAndSplit(line)
    .commands.filter((c) => c.argv.length > 0)
    .map((c) => c.argv[0]?.text as string)
    .sort();
}

/** [line, reason]. */
const ROWS: [string, string][] = [
  ['zzcat <<EOF; zzrm x\nzzbody\nEOF', 'a command after <<EOF; on the same line runs'],
  ['zzcat <<EOF ; zzrm x && zzls\nzzbody\nEOF', 'a list after the operator line'],
  ['zzcat <<EOF && zzrun\nzzbody\nEOF', 'an && list after the operator'],
  ['zzcat <<A <<B\nzza\nA\nzzb\nB\nzzafter', 'two heredocs on one command: bodies in order'],
  ['zzcat <<A; zzcat <<B\nzza\nA\nzzb\nB\nzzafter', 'two commands with a heredoc each on one line'],
  ['zzcat <<-EOF\n\tzzbody\n\tEOF\nzzafter', '<<- strips leading tabs from the delimiter line'],
  ['zzcat <<-EOF\n\t\tzzbody\n\t\t\tEOF\nzzafter', 'several leading tabs'],
  ['zzcat <<EOF\n\tEOF\nzzstill\nEOF\nzzafter', 'without -, a tab-indented delimiter is body'],
  ['zzcat <<EOF\nzzbody\nEOF \nzzstill\nEOF\nzzafter', 'a delimiter line with a trailing blank is body'],
  ['zzcat <<EOF\nzzbody\n EOF\nEOF\nzzafter', 'a delimiter line with a leading blank is body'],
  ['zzcat <<EOF\nzzbody\nEOFX\nEOF\nzzafter', 'a longer line is body'],
  ['zzcat <<"E"OF\nzzbody\nEOF\nzzafter', 'a delimiter quoted in part'],
  ["zzcat <<E'O'F\nzzbody\nEOF\nzzafter", 'single quotes in the middle'],
  ['zzcat <<\\EOF\nzzbody\nEOF\nzzafter', 'a backslash-quoted delimiter'],
  ['zzcat <<"A B"\nzzbody\nA B\nzzafter', 'a delimiter with a blank in it'],
  ["zzcat <<''\nzzbody\n\nzzafter", 'an empty delimiter ends at an empty line'],
  ["zzcat <<'EOF' > out; zzx\n$(zzsub)\nEOF", 'quoted delimiter: the body is not expanded'],
  ['zzcat <<EOF\n$(zzsub)\nEOF', 'unquoted delimiter: substitutions in the body run'],
  ['zzcat <<EOF\n`zzsub`\nEOF\nzzafter', 'backticks in an expanding body'],
  [
    'zzcat <<EOF\n$(zzsub <<X\nzzinner\nX\n)\nEOF\nzzafter',
    'a heredoc inside a substitution inside a heredoc',
  ],
  ['zzq "$(zzcat <<EOF\nzzbody\nEOF\n)"; zzafter', 'a heredoc inside a quoted substitution'],
  ['zzq $(( 1<<2 )); zzr\nzzs', 'a shift in arithmetic is no heredoc'],
  ["zzq '<<EOF'\nzzr", 'a quoted operator is text'],
  ['zzq # <<EOF\nzzr', 'an operator in a comment is text'],
  ['zzq <<<"zzx"\nzzr', 'a here-string is no heredoc'],
  ['zzcat <<EOF\nzzbody', 'no delimiter line: the body runs to the end'],
  ['zzcat <<EOF\nEO\\\nF\nzzafter\nEOF', 'a continuation joins the delimiter line first'],
  ['if zzq; then zzcat <<EOF\nzzbody\nEOF\nfi; zzafter', 'inside an if'],
];

describe('heredocs are read as bash reads them (oracle: bash)', () => {
  it.each(ROWS)('%j (%s)', (line) => {
    expect(parsedCommands(line)).toEqual(bashCommands(line));
  });
});

describe('bodies', () => {
  it.each([
    ['cat <<-EOF\n\tone\n\t\ttwo\n\tEOF', 'one\ntwo\n', '<<- strips leading tabs of every body line'],
    ['cat <<EOF\n\tone\nEOF', '\tone\n', '<< keeps them'],
    ['cat <<A <<B\na\nA\nb\nB', 'b\n', 'the last heredoc is standard input'],
  ])('%j → %j (%s)', (line, body) => {
    const cmd = parseAndSplit(line).commands[0];
    const last = cmd?.redirects.filter((r) => r.op.startsWith('<<')).at(-1);
    expect(last?.heredocBody).toBe(body);
  });

  it('a shell fed a heredoc runs the body bash gives it', () => {
    const a = analyzeCommand('bash <<EOF; ls\nrm -rf build\nEOF', {
      cwd: '/p',
      home: '/h',
      resolver: mapPathResolver({}),
    });
    expect(a.subcommands.map((s) => s.text)).toEqual(expect.arrayContaining(['rm -rf build', 'ls']));
  });

  it('a deny rule target after <<EOF; on the same line is a sub-command', () => {
    const a = analyzeCommand('cat <<EOF; rm -rf build\nhello\nEOF', { cwd: '/p', home: '/h' });
    expect(a.subcommands.map((s) => s.text)).toContain('rm -rf build');
    expect(a.subcommands.map((s) => s.text)).not.toContain('hello');
  });

  it('a reading tree-sitter does not share fails closed (the command asks)', () => {
    const a = analyzeCommand('cat <<EOF\nx\nEOF \nrm -rf y\nEOF', { cwd: '/p', home: '/h' });
    expect(a.parseOk).toBe(false);
    expect(a.subcommands.map((s) => s.text)).not.toContain('rm -rf y');
  });

  it('an ordinary heredoc stays fully parsed', () => {
    const a = analyzeCommand("cat > notes.txt <<'EOF'\nhello $(not run)\nEOF", { cwd: '/p', home: '/h' });
    expect(a.parseOk).toBe(true);
    expect(a.subcommands.map((s) => s.text)).toEqual(['cat']);
  });
});

describe('scanHeredocs', () => {
  it('reports the delimiter, quoting and body range', () => {
    const text = "cat <<-'E O'\n\tx\n\tE O\nls";
    const [h] = scanHeredocs(text).heredocs;
    expect(h).toMatchObject({ delimiter: 'E O', quoted: true, strip: true, body: 'x\n', terminated: true });
    expect(text.slice(h?.end ?? 0)).toBe('\nls');
  });
});

/**
 * The definitions `scanHeredocs` and `maskHeredocs` implement in one pass each, written out
 * character by character and line by line: the mask blanks the one or two characters after each
 * operator's `<` and every character but a newline from a body's start to its delimiter line's end;
 * a body is its lines before the delimiter line, newlines kept, leading tabs removed for `<<-`.
 */
function maskByDefinition(text: string, heredocs: readonly Heredoc[]): string {
  const chars = text.split('');
  for (const h of heredocs) {
    chars[h.op + 1] = ' ';
    if (h.strip) chars[h.op + 2] = ' ';
    for (let k = h.bodyStart; k < h.end; k++) if (chars[k] !== '\n') chars[k] = ' ';
  }
  return chars.join('');
}

function bodyByDefinition(text: string, h: Heredoc): string {
  const lines = text.slice(h.bodyStart, h.bodyEnd).split(/(?<=\n)/);
  return lines.map((l) => (h.strip ? l.replace(/^\t+/, '') : l)).join('');
}

/** [text, reason] rows of heredoc forms whose masks and bodies are compared with the definitions. */
const MASK_ROWS: [string, string][] = [
  ...ROWS,
  ['cat <<EOF\nx\nEOF', 'no newline after the delimiter line'],
  ['cat <<EOF\nx', 'no delimiter line and no final newline'],
  ['cat <<EOF\n', 'an empty body that the input ends'],
  ['cat <<-EOF\n\t\tx\n\t\ty\n\tEOF\nls', '<<- body lines lose their tabs'],
  ['cat <<-EOF\n\t\tx', '<<- without a delimiter line'],
  ['cat <<A <<-B <<C\na\nA\n\tb\n\tB\nc\nC\nls', 'three heredocs of both kinds on one line'],
  ['cat <<E\né😀 $x\nE\necho é', 'non-ASCII text in the body and after it'],
  ['cat <<E\n\nE\n<<F\n', 'an empty line in a body, an operator after it'],
];

function corpus(): [string, string][] {
  const rows: [string, string][] = [...MASK_ROWS];
  for (const g of WORST_CASE_GENERATORS)
    for (const size of WORST_CASE_SIZES.slice(0, 2)) rows.push([g.build(size), `worst case ${g.name}`]);
  const file = sharedFile('data/real/tldr-commands.jsonl');
  if (file)
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.includes('<<')) continue;
      const command = (JSON.parse(line) as { command?: unknown }).command;
      if (typeof command === 'string') rows.push([command, 'a tldr command with <<']);
    }
  return rows;
}

describe('maskHeredocs and the bodies match their definitions', () => {
  it('on heredoc forms, the worst-case shapes and the tldr commands with <<', () => {
    let compared = 0;
    for (const [text, reason] of corpus()) {
      const { heredocs } = scanHeredocs(text);
      if (heredocs.length === 0) continue;
      compared++;
      expect(maskHeredocs(text, heredocs), reason).toBe(maskByDefinition(text, heredocs));
      for (const h of heredocs) expect(h.body, reason).toBe(bodyByDefinition(text, h));
    }
    expect(compared).toBeGreaterThan(MASK_ROWS.length);
  });
});

describe('a document the input ends inside', () => {
  it('maskHeredocs with an end masks just that prefix', () => {
    for (const [text, reason] of corpus()) {
      const { heredocs } = scanHeredocs(text);
      if (heredocs.length === 0) continue;
      const full = maskByDefinition(text, heredocs);
      for (const end of [0, heredocs[0]?.bodyStart ?? 0, Math.floor(text.length / 2), text.length])
        expect(maskHeredocs(text, heredocs, end), `${reason} (end ${end})`).toBe(full.slice(0, end));
    }
  });

  it('is not handed to the second parse, and its substitutions still count', () => {
    const opts = { cwd: '/home/u/p', home: '/home/u', resolver: mapPathResolver({}) };
    // the body (no delimiter line) runs to the end of the input; bash expands $( ) in it
    const a = analyzeCommand('cat <<E > out.txt\nhello $(rm -rf /tmp/x)\n', opts);
    expect(a.effects).toContainEqual(expect.objectContaining({ kind: 'delete', target: '/tmp/x' }));
    expect(a.effects).toContainEqual(expect.objectContaining({ kind: 'write', target: '/home/u/p/out.txt' }));
    expect(a.readOnly).toBe(false);
    // a mutated real command: 54 KB of `<<E` lines after `git fame<<E` is one body, analysed
    // whole (no budget cut) as one git command
    const long = analyzeCommand(`git fame${'<<E\n'.repeat(13_576)}`, opts);
    expect(long.findings.some((f) => f.id === 'ANALYSIS_BUDGET')).toBe(false);
    expect(long.subcommands.map((s) => s.program)).toEqual(['git']);
  });
});
