/**
 * Effects of database clients (docs/shell-analysis.md "Programs that run, load or write"): their
 * meta-commands and SQL features that run a shell, load a file or write one. An allow rule for the
 * client (`Bash(psql:*)`) grants queries, not a shell escape inside one, so each such feature is an
 * effect: an `exec` of unknown certainty (asks under the allow rule and in bypassPermissions), or a
 * read/write of the file it names (judged like any path; unknown when the name is not static).
 *
 * Data: per client, the options that carry code, a script file, an output file or a program, and
 * the code rows scanned in inline code (`-c`, `-e`, operands), in heredoc/here-string input and in
 * `-cmd` values; one row per feature, each with its reason (db-client-tables.ts). Code read from a
 * file, a pipe or an expansion cannot be scanned: it is an unknown execution.
 *
 * Source: psql(1) "Meta-Commands" and COPY; mysql(1) "mysql Client Commands", SELECT … INTO,
 * LOAD DATA; sqlite3 CLI ".help" and its SQL functions (readfile, writefile, edit); redis-cli(1),
 * EVAL, MODULE LOAD, CONFIG SET; mongosh --eval/--file.
 */
import type { Word } from '../types.js';
import { type ClientTable, type CodeRow, DB_CLIENTS } from './db-client-tables.js';
import type { EffectHandler } from './handler.js';
import { pathOperandEffects } from './project-code.js';
import type { EffectSink } from './sink.js';

const WRITES_SQL = /\b(?:CREATE|INSERT|UPDATE|DELETE|DROP|ALTER|REPLACE|VACUUM|REINDEX|PRAGMA)\b/i;

/** Records the effects of one code text. `who` names the client. */
function scanCode(sink: EffectSink, who: string, table: ClientTable, code: Word): void {
  if (code.dynamic) {
    sink.other(
      'exec',
      `${who}: ${code.raw}`,
      'unknown',
      'interpreter',
      `${who} code built from expansions (meta-commands may run programs)`,
    );
    return;
  }
  for (const row of table.rows) {
    row.re.lastIndex = 0;
    for (const m of code.text.matchAll(row.re)) {
      const file = row.file ? (m[row.file] ?? m[row.file + 1] ?? m[row.file + 2]) : undefined;
      featureEffect(sink, who, row, file);
    }
  }
}

function featureEffect(sink: EffectSink, who: string, row: CodeRow, file: string | undefined): void {
  const detail = `${who}: ${row.reason}`;
  if (file !== undefined && (file.startsWith('|') || file.startsWith('!'))) {
    sink.other('exec', file.slice(1).trim() || file, 'unknown', 'interpreter', detail);
    return;
  }
  if (row.does === 'exec' || file === undefined) {
    sink.other('exec', `${who} ${row.reason}`, 'unknown', 'interpreter', detail);
    return;
  }
  if (row.does === 'runs-file') {
    sink.literal('read', file, 'interpreter', detail);
    sink.other('exec', `${who} script ${file}`, 'unknown', 'interpreter', detail);
    return;
  }
  sink.literal(row.does, file, 'interpreter', detail);
}

/** The value of an option at `i` (`-c X`, `-cX`, `--command=X`); [value, words consumed]. */
function optionValue(args: readonly Word[], i: number, names: readonly string[]): [Word | undefined, number] {
  const w = args[i] as Word;
  for (const n of names) {
    if (w.text === n) return [args[i + 1], 2];
    if (n.startsWith('--') && w.text.startsWith(`${n}=`))
      return [{ ...w, text: w.text.slice(n.length + 1) }, 1];
    if (!n.startsWith('--') && n.length === 2 && w.text.startsWith(n) && w.text.length > 2)
      return [{ ...w, text: w.text.slice(2) }, 1];
  }
  return [undefined, 0];
}

function clientHandler(who: string, table: ClientTable): EffectHandler {
  return (args, sink, cmd) => {
    const operands: Word[] = [];
    let sawCode = false;
    let safe = false;
    for (let i = 0; i < args.length; i++) {
      const w = args[i] as Word;
      if (w.text === '-safe' && who === 'sqlite3') safe = true;
      const [code, n1] = optionValue(args, i, table.code);
      if (n1) {
        sawCode = true;
        if (code) scanCode(sink, who, table, code);
        i += n1 - 1;
        continue;
      }
      const [script, n2] = optionValue(args, i, table.script);
      if (n2) {
        sawCode = true;
        if (script) {
          sink.file('read', script, 'flag', `${who} script file`);
          sink.other(
            'exec',
            `${who} script ${script.raw}`,
            'unknown',
            'interpreter',
            `${who} runs the commands of a file (not analysed)`,
          );
        }
        i += n2 - 1;
        continue;
      }
      const [out, n3] = optionValue(args, i, table.writes);
      if (n3) {
        if (out) sink.file('write', out, 'flag', `${who} ${w.text.split('=')[0]}`);
        i += n3 - 1;
        continue;
      }
      const run = table.runs.find(([o]) => w.text === o || w.text.startsWith(`${o}=`));
      if (run) {
        sink.other('exec', `${who} ${w.text}`, 'unknown', 'flag', `${who} ${run[0]} ${run[1]}`);
        if (!w.text.includes('=') && run[0] !== '--pipe') i++;
        continue;
      }
      const [, n4] = optionValue(args, i, table.valued);
      if (n4) {
        i += n4 - 1;
        continue;
      }
      if (w.text.startsWith('-') && w.text !== '-') continue;
      operands.push(w);
    }
    if (table.operands === 'sqlite') {
      const [db, ...sql] = operands;
      for (const s of sql) scanCode(sink, who, table, s);
      if (sql.length) sawCode = true;
      if (db && db.text !== ':memory:') {
        const writes = sql.some((s) => s.dynamic || WRITES_SQL.test(s.text));
        sink.file(writes ? 'write' : 'read', db, 'argument', `${who} database file`);
      }
    } else if (table.operands === 'redis') {
      const command = operands[0];
      if (command) {
        const row = table.rows.find((r) => r.re.test(command.text));
        if (row || command.dynamic)
          featureEffect(
            sink,
            who,
            row ?? { re: /x/, does: 'exec', reason: 'a command from an expansion' },
            undefined,
          );
      }
    } else if (table.operands === 'scripts') {
      for (const s of operands.filter((x) => x.dynamic || /\.js$/.test(x.text))) {
        sawCode = true;
        sink.file('read', s, 'argument', `${who} script file`);
        sink.other('exec', `${who} script ${s.raw}`, 'unknown', 'interpreter', `${who} runs a script file`);
      }
    } else pathOperandEffects(operands, sink, who);
    if (!sawCode && table.stdin && !safe) stdinCode(sink, who, table, cmd);
  };
}

/** Code from standard input: a heredoc or here-string is scanned; a file, a pipe or anything else is unknown. */
function stdinCode(
  sink: EffectSink,
  who: string,
  table: ClientTable,
  cmd: import('../types.js').SimpleCommand,
): void {
  const stdin = [...cmd.redirects]
    .reverse()
    .find((r) => (r.fd === undefined || r.fd === 0) && /^(<<-?|<<<|<)$/.test(r.op));
  if (stdin && (stdin.op === '<<' || stdin.op === '<<-')) {
    const body = stdin.heredocBody ?? '';
    scanCode(sink, who, table, {
      text: body,
      raw: body,
      dynamic: stdin.bodyExpands === true && /[$`]/.test(body),
      quoted: true,
      hasGlob: false,
    });
  } else if (stdin?.op === '<<<') scanCode(sink, who, table, stdin.target);
  else if (stdin?.op === '<')
    sink.other(
      'exec',
      `${who} commands from ${stdin.target.raw}`,
      'unknown',
      'interpreter',
      `${who} runs the commands of a file (not analysed)`,
    );
  else if (cmd.connector === '|')
    sink.other(
      'exec',
      `${who} commands from a pipe`,
      'unknown',
      'interpreter',
      `${who} runs commands read from the pipe (not analysed)`,
    );
}

/** Handlers by program name. */
export const dbClientHandlers: Record<string, EffectHandler> = Object.fromEntries(
  [...DB_CLIENTS].map(([name, table]) => [name, clientHandler(name, table)]),
);
