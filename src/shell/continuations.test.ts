/**
 * Backslash-newline continuations are joined as bash joins them (docs/shell-analysis.md
 * "Continuations"). Oracle: bash runs each row with unknown program names and a
 * `command_not_found_handle` that prints the words of every command it was asked to run; the
 * parser must produce exactly those commands and words.
 */
import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { mapPathResolver } from '../core/paths.js';
import { analyzeCommand } from './analyze.js';
import { initShellParser } from './parser.js';
import { parseAndSplit } from './split.js';

beforeAll(async () => {
  await initShellParser();
});

const HANDLER = 'PATH=/nonexistent\ncommand_not_found_handle() { printf "%s\\037" "$@"; printf "\\036"; }\n';

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
  return split.commands.filter((c) => c.argv.length > 0).map((c) => c.argv.map((w) => w.text));
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
];

describe('continuations are joined as bash joins them (oracle: bash)', () => {
  it.each(ROWS)('%j (%s)', (line) => {
    const expected = bashCommands(line);
    const parsed = parsedCommands(line);
    // Substitution bodies run first in bash and come first in the split.
    expect(parsed).toEqual(expected);
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
