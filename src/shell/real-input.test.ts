/**
 * Real input: every command of ../shared/data/real (tldr pages, NL2Bash, the
 * Bash calls of real agent sessions) is split and checked — no crash, no hang, a result for each —
 * and the parser's accept/reject (`ok`) is compared with `bash -n`. Disagreements are grouped into
 * explained categories; src/shell/fixtures/bash-n-disagreements.json keeps the counts (never the
 * commands). Regenerate it with `UPDATE_BASH_N_FIXTURE=1 npx vitest run src/shell/real-input.test.ts`.
 *
 * How bash -n is run: commands the parser accepts are checked in batches (one `bash -n` per file of
 * 200 commands, each on its own lines); a failing batch is bisected down to single commands. Commands
 * the parser rejects are checked one by one. bash never executes anything here (-n).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { sharedFile } from '../testing/shared-data.js';
import { runSecurityChecks } from './checks/index.js';
import { initShellParser } from './parser.js';
import { parseAndSplit } from './split.js';
import type { SplitResult } from './types.js';

const FIXTURE = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/bash-n-disagreements.json');

const tldr = sharedFile('data/real/tldr-commands.jsonl');
const nl2bash = sharedFile('data/real/nl2bash-commands.txt');
const agent = sharedFile('data/real/agent-tool-calls.jsonl');

interface Corpus {
  name: 'tldr' | 'nl2bash' | 'agent';
  commands: string[];
}

function loadCorpora(): Corpus[] {
  const out: Corpus[] = [];
  if (tldr) {
    const rows = readFileSync(tldr, 'utf8').split('\n').filter(Boolean);
    out.push({ name: 'tldr', commands: rows.map((l) => (JSON.parse(l) as { command: string }).command) });
  }
  if (nl2bash)
    out.push({
      name: 'nl2bash',
      commands: readFileSync(nl2bash, 'utf8')
        .split('\n')
        .filter((l) => l.trim() !== ''),
    });
  if (agent) {
    const commands: string[] = [];
    for (const line of readFileSync(agent, 'utf8').split('\n')) {
      if (!line) continue;
      const row = JSON.parse(line) as { tool: string; input?: { command?: unknown } };
      if (['Bash', 'bash', 'execute_bash'].includes(row.tool) && typeof row.input?.command === 'string')
        commands.push(row.input.command);
    }
    out.push({ name: 'agent', commands });
  }
  return out;
}

/** Category of a parser rejection, from its first problem (offsets and quoted text removed). */
export function parserCategory(split: SplitResult, command: string): string {
  const p = split.problems[0] ?? '';
  if (/does not parse as bash near|is incomplete: missing/.test(p)) {
    if (/\\\s*$/.test(command)) return 'parser: trailing backslash';
    if (/<<-?\s*['"\\]?\w+['"]?\s*$/.test(command)) return 'parser: heredoc without a body';
    if (/(^|[;\s])select\s/.test(command)) return 'parser: select loop';
    if (/\d<>/.test(command)) return 'parser: n<> redirection';
    if (/\$[^\w{("'\s$#@*!?-]|\$$/.test(command)) return 'parser: literal $ before punctuation';
    return 'parser: other tree-sitter-bash syntax limitation';
  }
  if (/^the script given to .* does not parse/.test(p)) return 'parser: nested script does not parse';
  if (/^reserved word "[^"]*" used as a command name/.test(p)) return `parser: reserved word as command name`;
  if (/^unsupported construct inside a word/.test(p)) return 'parser: unsupported construct inside a word';
  if (/^words after the redirection of a compound command/.test(p))
    return 'parser: words after a compound redirect';
  if (/^line continuation inside a word/.test(p)) return 'parser: line continuation inside a word';
  if (/^find .* without a terminating/.test(p)) return 'parser: find -exec without terminator';
  if (/^a subshell inside a simple command/.test(p)) return 'parser: subshell inside a simple command';
  if (/characters long/.test(p)) return 'parser: over the size cap';
  return `parser: ${p.replace(/\d+/g, 'N').slice(0, 60)}`;
}

/** Category of a bash -n rejection, from its first error line. */
export function bashCategory(stderr: string): string {
  const line =
    stderr.split('\n').find((l) => /syntax error|unexpected EOF|warning/.test(l)) ??
    stderr.split('\n')[0] ??
    '';
  const token = /unexpected token `(.*)'$/.exec(line);
  if (token) return `bash: unexpected token ${token[1]}`;
  if (/unexpected EOF while looking for matching `(.)'/.test(line))
    return `bash: unterminated ${/matching `(.)'/.exec(line)?.[1]}`;
  if (/syntax error: unexpected end of file/.test(line)) return 'bash: unexpected end of file';
  return `bash: ${line.replace(/^.*?line \d+: /, '').slice(0, 60)}`;
}

/** Hand-written explanations of every disagreement category (the fixture must explain each one). */
export const CATEGORY_REASONS: Record<string, string> = {
  'parser: find -exec without terminator':
    'find -exec/-ok with no `;` (or a `+` not right after `{}`) is valid shell but an invalid find expression: the analysis cannot tell which words the launched command gets, so it fails closed (find itself refuses to run).',
  'parser: heredoc without a body':
    'one-line corpora cut a heredoc off from its body; bash -n accepts it with a warning (delimited by end of file), tree-sitter-bash reports an ERROR.',
  'parser: literal $ before punctuation':
    'an unquoted `$` before `/`, `%`, `.` or `|` is a literal dollar to bash; tree-sitter-bash 0.25.1 reports an ERROR.',
  'parser: n<> redirection':
    'tree-sitter-bash 0.25.1 does not parse a descriptor number before `<>` (`exec 3<>file`).',
  'parser: nested script does not parse':
    'bash -n never parses inside quoted strings; the analysis parses the scripts of sh -c/bash -c/watch/eval and fails closed when they do not parse (here: `for i do` without `in`, literal `$` in spliced quotes, and an Arthas `watch` line that is not a shell command at all).',
  'parser: other tree-sitter-bash syntax limitation':
    'tree-sitter-bash 0.25.1 reports an ERROR where bash accepts: a redirection glued into an assignment (`A=<x> cmd`), a glob as the command word (`[a-z][3-9]`), a redirection inside backticks, a backquoted `;`.',
  'parser: reserved word as command name':
    '`coproc NAME { … }` is misparsed by tree-sitter-bash (docs/dependencies.md "Bash parsing"), and `[[` after an assignment prefix is an ordinary command name to bash; the analysis refuses both rather than trust the tree.',
  'parser: select loop': 'tree-sitter-bash 0.25.1 has no `select` statement.',
  'parser: trailing backslash':
    'a command ending in a backslash (a continuation into end of input, from one-line corpora) is accepted by bash -n; tree-sitter-bash reports an ERROR.',
  'bash: unexpected token do':
    '`| \\␠ while …`: an escaped space after a pipe is a word to bash, so `while` becomes an argument and `do` a syntax error; tree-sitter-bash reads a while loop. bash refuses to run it, so nothing the analysis allowed can run.',
  'bash: unexpected token newline':
    'a misplaced `esac` inside a case item (`… esac;; done`) that tree-sitter-bash accepts (the stray-keyword family of docs/dependencies.md "Bash parsing"); bash refuses to run it.',
};

const BATCH = 200;

function bashAccepts(commands: string[], dir: string): boolean[] {
  const file = path.join(dir, 'batch.sh');
  const check = (items: string[]): { ok: boolean; stderr: string } => {
    writeFileSync(file, `${items.join('\n\n')}\n`);
    const r = spawnSync('bash', ['--norc', '--noprofile', '-n', file], {
      encoding: 'utf8',
      env: { LC_ALL: 'C', PATH: process.env.PATH ?? '' },
    });
    return { ok: r.status === 0, stderr: r.stderr };
  };
  const result = new Array<boolean>(commands.length).fill(true);
  const queue: Array<[number, number]> = [];
  for (let i = 0; i < commands.length; i += BATCH) queue.push([i, Math.min(commands.length, i + BATCH)]);
  while (queue.length > 0) {
    const [start, end] = queue.pop() as [number, number];
    if (check(commands.slice(start, end)).ok) continue;
    if (end - start === 1) {
      result[start] = false;
      continue;
    }
    const mid = (start + end) >> 1;
    queue.push([start, mid], [mid, end]);
  }
  return result;
}

function bashError(command: string, dir: string): string | undefined {
  const file = path.join(dir, 'one.sh');
  writeFileSync(file, `${command}\n`);
  const r = spawnSync('bash', ['--norc', '--noprofile', '-n', file], {
    encoding: 'utf8',
    env: { LC_ALL: 'C', PATH: process.env.PATH ?? '' },
  });
  return r.status === 0 ? undefined : r.stderr;
}

interface CorpusReport {
  total: number;
  parserOk: number;
  bashOk: number;
  agree: number;
  disagreements: Record<string, number>;
}

function compare(corpus: Corpus, dir: string): CorpusReport {
  const splits = corpus.commands.map((c) => parseAndSplit(c));
  const report: CorpusReport = {
    total: corpus.commands.length,
    parserOk: 0,
    bashOk: 0,
    agree: 0,
    disagreements: {},
  };
  const acceptedIdx = splits.flatMap((s, i) => (s.ok ? [i] : []));
  const batchOk = bashAccepts(
    acceptedIdx.map((i) => corpus.commands[i] as string),
    dir,
  );
  const bump = (key: string) => {
    report.disagreements[key] = (report.disagreements[key] ?? 0) + 1;
  };
  acceptedIdx.forEach((i, k) => {
    report.parserOk++;
    if (batchOk[k]) {
      report.bashOk++;
      report.agree++;
      return;
    }
    const error = bashError(corpus.commands[i] as string, dir);
    if (error === undefined) {
      report.bashOk++;
      report.agree++; // failed only in combination with its batch neighbours
      return;
    }
    const key = `accepted by the parser, rejected by bash -n / ${bashCategory(error)}`;
    if (process.env.BASH_N_DEBUG) console.log(key, JSON.stringify(corpus.commands[i]));
    bump(key);
  });
  splits.forEach((s, i) => {
    if (s.ok) return;
    const error = bashError(corpus.commands[i] as string, dir);
    if (error !== undefined) {
      report.agree++;
      return;
    }
    report.bashOk++;
    const key = `rejected by the parser, accepted by bash -n / ${parserCategory(s, corpus.commands[i] as string)}`;
    if (process.env.BASH_N_DEBUG) console.log(key, JSON.stringify(corpus.commands[i]));
    bump(key);
  });
  return report;
}

const haveAll = Boolean(tldr && nl2bash && agent);

describe.skipIf(!haveAll)('real commands (tldr, NL2Bash, agent sessions)', () => {
  let corpora: Corpus[] = [];
  beforeAll(async () => {
    await initShellParser();
    corpora = loadCorpora();
  });

  it('splits and checks every command without throwing, each with a result', () => {
    let total = 0;
    for (const corpus of corpora) {
      for (const command of corpus.commands) {
        const split = parseAndSplit(command);
        const findings = runSecurityChecks(command, split);
        expect(Array.isArray(split.commands)).toBe(true);
        expect(Array.isArray(findings)).toBe(true);
        if (!split.ok) expect(split.problems.length).toBeGreaterThan(0);
        if (split.ok && command.trim() !== '' && !/^\s*#/.test(command))
          expect(split.commands.length + (split.notes?.length ?? 0)).toBeGreaterThan(0);
        total++;
      }
    }
    expect(total).toBeGreaterThan(40_000);
  });

  it('accept/reject agrees with bash -n except for the explained disagreements in the fixture', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'gantry-bash-n-'));
    try {
      const reports: Record<string, CorpusReport> = {};
      for (const corpus of corpora) reports[corpus.name] = compare(corpus, dir);
      const categories: Record<string, { count: number; reason: string }> = {};
      for (const r of Object.values(reports)) {
        for (const [key, count] of Object.entries(r.disagreements)) {
          const category = key.split(' / ')[1] as string;
          const entry = (categories[key] ??= { count: 0, reason: CATEGORY_REASONS[category] ?? '' });
          entry.count += count;
        }
      }
      const computed = { bash: bashVersion(), corpora: reports, categories };
      if (process.env.UPDATE_BASH_N_FIXTURE) writeFileSync(FIXTURE, `${JSON.stringify(computed, null, 2)}\n`);
      const fixture = JSON.parse(readFileSync(FIXTURE, 'utf8')) as typeof computed;
      for (const [key, entry] of Object.entries(computed.categories)) {
        const known = fixture.categories[key];
        expect(known, `new disagreement category: ${key}`).toBeDefined();
        expect(entry.count, key).toBeLessThanOrEqual(known?.count ?? 0);
      }
      for (const [key, entry] of Object.entries(fixture.categories)) {
        expect(entry.reason.length, `category without an explanation: ${key}`).toBeGreaterThan(20);
      }
      for (const [name, r] of Object.entries(computed.corpora)) {
        expect(r.agree, name).toBeGreaterThanOrEqual(fixture.corpora[name]?.agree ?? 0);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function bashVersion(): string {
  const r = spawnSync('bash', ['--version'], { encoding: 'utf8' });
  return /version (\S+)/.exec(r.stdout)?.[1] ?? 'unknown';
}
