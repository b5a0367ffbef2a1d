/**
 * Backslash-newline continuations are joined as bash joins them (docs/shell-analysis.md
 * "Continuations"). Oracle: bash runs each row with unknown program names and a
 * `command_not_found_handle` that prints the words of every command it was asked to run; the
 * parser must produce exactly those commands and words.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { mapPathResolver } from '../core/paths.js';
import { analyzeCommand } from './analyze.js';
import { scanContinuations } from './continuations.js';
import { initShellParser } from './parser.js';
import { parseScript } from './parse-script.js';
import { parseAndSplit } from './split.js';

beforeAll(async () => {
  await initShellParser();
});

// The handler prints to fd 3 (bash's stdout), so a command inside `$( )` or backticks is reported
// too instead of becoming the words of the command around it.
const HANDLER =
  'exec 3>&1\nPATH=/nonexistent\ncommand_not_found_handle() { printf "%s\\037" "$@" >&3; printf "\\036" >&3; }\n';

/** The commands bash runs for `line`, each as its words, via the not-found handler. */
function bashCommands(line: string): string[][] {
  const out = execFileSync('bash', ['-c', HANDLER + line], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    // stdin is not a socket: bash started on a socket with no SHLVL reads ~/.bashrc.
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const commands: string[][] = out
    .split('\u001e')
    .slice(0, -1)
    .map((c) => c.split('\u001f').slice(0, -1));
  return commands;
}

/** The commands the parser finds (only the unknown programs the oracle reports). */
function parsedCommands(line: string): string[][] {
  const split = parseAndSplit(line);
  return split.commands.filter((c) => c.argv[0]?.text.startsWith('zz')).map((c) => c.argv.map((w) => w.text));
}

/** [line, reason]. Program names start with `zz` (unknown to bash, so the handler reports them). */
const ROWS: [string, string][] = [
  ['zz\\\nq arg', 'a continuation inside the program name'],
  ['zzq a\\\nrg', 'inside an argument'],
  ['zzq .e\\\nnv', 'inside a protected file name'],
  ['zzq a \\\n  b \\\n  c', 'between words (the usual multi-line style)'],
  ['zzq "a\\\nb"', 'inside double quotes the pair is removed'],
  ["zzq 'a\\\nb'", 'inside single quotes it stays'],
  ["zzq $'a\\\nb'", "inside $'…' it stays"],
  ['zzq a\\\\\nzzr b', 'an escaped backslash before a newline: two commands'],
  ['zzq a # c \\\nzzr b', 'a comment ends at the newline'],
  ['zzq <<EOF\nab\\\ncd\nEOF\nzzr x', 'heredoc body with an unquoted delimiter (joined, not a command)'],
  ["zzq <<'EOF'\nab\\\nEOF\nzzr x", 'quoted delimiter: the pair stays, the next line is the delimiter'],
  ['zzq x; z\\\nzr y', 'after a separator'],
  ['zzq a\\\n\\\nb', 'two continuations in a row'],
  // The lexical scan (scanContinuations) decides these; the rows pin it to bash.
  ['zzq a#b\\\nc', '`#` in the middle of a word starts no comment: joined'],
  ['zzq a\\\n#b zzr', 'a `#` joined onto a word is in the middle of it: one word a#b'],
  ['zzq a \\\n#b zzr\nzzs c', 'a `#` after a blank and a continuation starts a comment'],
  ["zzq 'a'#b\\\nc", 'a `#` right after a closing quote is in the word'],
  ['zzq a\\ #b\\\nc', 'a `#` after an escaped blank is in the word'],
  ['zzq "$\'a\\\nb\'"', "$' inside double quotes is plain text: joined"],
  ["zzq $'a\\'\\\nb'", "\\' inside $'…' does not end it: the pair stays"],
  [': "$(zzr \'a\\\nb\')"', 'single quotes inside $( ) inside double quotes keep the pair'],
  [': "$(zzr # c \\\nzzs)"', 'a comment inside $( ) inside double quotes keeps it (zzs is a command)'],
  [": `zzr 'a\\\nb'`", 'backticks are read flat first: the pair inside their single quotes is removed'],
  [': `zzr # c \\\nzzs`', 'backticks: the pair inside their comment is removed too (zzs is comment)'],
  [
    "zzq <<'EOF'\nab\\\nEOF\nzzr x\\\ny",
    'quoted delimiter, and a continuation after the heredoc (the scan falls back)',
  ],
  [
    "zzq <<EOF\na'b\\\nc'\nEOF\nzzr x",
    "a heredoc with an unquoted delimiter: ' is plain in its body, the pair is removed",
  ],
  [': "`zzr \'a\\\nb\'`"', 'backticks inside double quotes: flat, joined'],
];

describe('continuations are joined as bash joins them (oracle: bash)', () => {
  it.each(ROWS)('%j (%s)', (line) => {
    const expected = bashCommands(line);
    const parsed = parsedCommands(line);
    // Substitution bodies run first in bash and come first in the split.
    expect(parsed).toEqual(expected);
  });
});

/**
 * Rows whose words hold expansions (the parser keeps those as written, bash prints their values):
 * bash must read the joined text (`parseScript(line).source`) as it reads the line. Each pair the join
 * kept is marked (`\\<U+0001><newline>`): where bash keeps the pair too (quotes, comments) the
 * mark is only printed, and is dropped from the output; where bash would have removed it, the
 * marked text reads differently. So a pair removed or kept wrongly changes what bash prints.
 */
const JOINED_ROWS: [string, string][] = [
  ["zzq $(: x)#y 'a\\\nb'", 'after $( ) the word goes on: `#y` is no comment, the quote keeps the pair'],
  ["zzq ${x-'a\\\nb'}", 'single quotes inside ${…} keep the pair'],
  ['zzq "${x-\'a\\\nb\'}"', "inside double quotes, ${x-'…'} groups the word but removes the pair"],
  ['zzq "${x:-\'}\\\n\'}"', '…and its quotes hide a } (the pair is removed)'],
  ['zzq "$(zzr ${x-\'a\\\nb\'})"', "${x-'…'} inside $( ) inside double quotes: the quotes keep the pair"],
  ['zzq "${x-"a\\\nb"}"', 'double quotes nested in ${…} in double quotes: joined'],
  [
    ": $(zzr $(zzs 'a\\\nb') c\\\nd)",
    'nested $( ): the inner quote keeps its pair, the outer word is joined',
  ],
];

/** What bash prints for `line` (commands and their words, one run), exit status included. */
function bashOutput(line: string): string {
  const r = spawnSync('bash', ['-c', HANDLER + line], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return `${r.stdout.replaceAll('\u0001', '')}|${r.status}`;
}

describe('the joined text reads in bash as the line does (oracle: bash)', () => {
  it.each(JOINED_ROWS)('%j (%s)', (line) => {
    const joined = parseScript(line).source;
    const marked = joined.replace(/(?<!\\)((?:\\\\)*)\\\n/g, '$1\\\u0001\n');
    expect(bashOutput(marked)).toBe(bashOutput(line));
  });
});

/**
 * Where the lexical scan is unsure it falls back to the regions of a parse (parse-script.ts). A
 * `${x#'…'}` pattern inside double quotes keeps the pair (bash reads the quotes by the operator):
 * with every pair removed bash prints something else, so the pair is kept, and the fallback keeps it.
 */
const FALLBACK_ROWS: [string, string][] = [
  ["x=$'a\\\\\\nbc'; zzq \"${x#'a\\\nb'}\"", "a ${x#'…'} pattern inside double quotes keeps the pair"],
  ["x=$'ca\\\\\\nb'; zzq \"${x%'a\\\nb'}\"", "so does ${x%'…'}"],
  [
    ": $(case a in a) zzr 'b\\\nc';; esac)",
    'a case in the text: its ) patterns close no $( (the pair in quotes stays)',
  ],
  ["zzq $((1)) 'a\\\nb'", 'arithmetic is not followed (the pair in quotes stays)'],
];

describe('the scan falls back where it cannot tell (oracle: bash)', () => {
  it.each(FALLBACK_ROWS)('%j (%s)', (line) => {
    expect(scanContinuations(line).unsure).toBeDefined();
    expect(bashOutput(line.replaceAll('\\\n', ''))).not.toBe(bashOutput(line));
    expect(parseScript(line).source).toBe(line);
  });
});

describe('rules and paths see the joined words', () => {
  const opts = { cwd: '/p', home: '/h', resolver: mapPathResolver({}) };

  it('ca\\<newline>t .e\\<newline>nv reads /p/.env as cat', () => {
    const a = analyzeCommand('ca\\\nt .e\\\nnv', opts);
    expect(a.subcommands.map((s) => s.text)).toEqual(['cat .env']);
    expect(a.effects.some((e) => e.kind === 'read' && e.target === '/p/.env')).toBe(true);
  });

  it('a redirect target split by a continuation is the joined path', () => {
    const a = analyzeCommand('echo x > ~/.bash\\\nrc', opts);
    expect(a.effects.some((e) => e.kind === 'write' && e.target === '/h/.bashrc')).toBe(true);
  });

  it('a substitution body is joined too', () => {
    const a = analyzeCommand('echo $(z\\\nzr y)', opts);
    expect(a.subcommands.map((s) => s.text)).toContain('zzr y');
  });

  it('a nested script joins its own continuations', () => {
    const a = analyzeCommand("sh -c 'r\\\nm -rf x'", opts);
    expect(a.subcommands.map((s) => s.text)).toContain('rm -rf x');
  });

  it('a multi-line command with continuations between words stays read-only', () => {
    expect(analyzeCommand('grep -rn \\\n  foo \\\n  src', opts).readOnly).toBe(true);
  });
});
