/**
 * Effects of database clients (docs/shell-analysis.md "Programs that run, load or write"): their
 * meta-commands and SQL features that run a shell, load a file or write one. An allow rule for the
 * client (`Bash(psql:*)`) grants queries, not a shell escape inside one, so each such feature is an
 * effect: an `exec` of unknown certainty (asks under the allow rule and in bypassPermissions), or a
 * read/write of the file it names (judged like any path; unknown when the name is not static).
 *
 * Data: per client, the options that carry code, a script file, an output file or a program, and
 * the code rows scanned in inline code (`-c`, `-e`, operands), in heredoc/here-string input and in
 * `-cmd` values; one row per feature, each with its reason. Code read from a file, a pipe or an
 * expansion cannot be scanned: it is an unknown execution.
 *
 * Source: psql(1) "Meta-Commands" and COPY; mysql(1) "mysql Client Commands", SELECT … INTO,
 * LOAD DATA; sqlite3 CLI ".help" and its SQL functions (readfile, writefile, edit); redis-cli(1),
 * EVAL, MODULE LOAD, CONFIG SET; mongosh --eval/--file.
 */
import type { Word } from '../types.js';
import type { EffectHandler } from './handler.js';
import { pathOperandEffects } from './project-code.js';
import type { EffectSink } from './sink.js';

type Feature = 'exec' | 'write' | 'read' | 'runs-file';

/** One scanned feature: a pattern (global), what it does, and the capture group naming a file. */
interface CodeRow {
  re: RegExp;
  does: Feature;
  reason: string;
  /** Capture group holding the file (a `|cmd` value is a program instead). */
  file?: number;
}

interface ClientTable {
  /** Options whose value is inline code. */
  code: readonly string[];
  /** Options whose value is a script file (read, and its contents run). */
  script: readonly string[];
  /** Options whose value is a file the client writes. */
  writes: readonly string[];
  /** Options that name a program to run or a configuration that can: [option, reason]. */
  runs: ReadonlyArray<readonly [string, string]>;
  /** Other options that take a value (skipped). */
  valued: readonly string[];
  rows: readonly CodeRow[];
  /** How operands are read: SQL after a database file (sqlite3), commands (redis-cli), scripts (mongosh). */
  operands: 'names' | 'sqlite' | 'redis' | 'scripts';
  /** Reads code from standard input when no code option or code operand is given. */
  stdin: boolean;
}

/** A file name in code: `'x'`, `"x"` or a bare word. */
const FILE = String.raw`(?:'([^']*)'|"([^"]*)"|([^\s;'"]+))`;

const PSQL_ROWS: CodeRow[] = [
  { re: /\\!/g, does: 'exec', reason: '\\! runs a shell command' },
  {
    re: new RegExp(String.raw`\\(?:o|out)\s+${FILE}`, 'g'),
    does: 'write',
    reason: '\\o sends query output to a file or a program',
    file: 1,
  },
  {
    re: new RegExp(String.raw`\\g(?:x|set)?\s+${FILE}`, 'g'),
    does: 'write',
    reason: '\\g sends a result to a file or a program',
    file: 1,
  },
  {
    re: new RegExp(String.raw`\\(?:w|write)\s+${FILE}`, 'g'),
    does: 'write',
    reason: '\\w writes the query buffer to a file or a program',
    file: 1,
  },
  {
    re: new RegExp(String.raw`\\s\s+${FILE}`, 'g'),
    does: 'write',
    reason: '\\s writes the history to a file',
    file: 1,
  },
  {
    re: new RegExp(String.raw`\\(?:i|ir|include|include_relative)\s+${FILE}`, 'g'),
    does: 'runs-file',
    reason: '\\i runs the commands of a file',
    file: 1,
  },
  {
    re: /\\copy\b[^\n]*?\b(?:to|from)\s+program\b/gi,
    does: 'exec',
    reason: '\\copy … program runs a shell command',
  },
  {
    re: new RegExp(String.raw`\\copy\b[^\n]*?\bto\s+(?!program\b|stdout\b|pstdout\b)${FILE}`, 'gi'),
    does: 'write',
    reason: '\\copy … to writes a local file',
    file: 1,
  },
  {
    re: new RegExp(String.raw`\\copy\b[^\n]*?\bfrom\s+(?!program\b|stdin\b|pstdin\b)${FILE}`, 'gi'),
    does: 'read',
    reason: '\\copy … from reads a local file',
    file: 1,
  },
  {
    re: new RegExp(String.raw`\\lo_export\s+\S+\s+${FILE}`, 'g'),
    does: 'write',
    reason: '\\lo_export writes a local file',
    file: 1,
  },
  {
    re: new RegExp(String.raw`\\lo_import\s+${FILE}`, 'g'),
    does: 'read',
    reason: '\\lo_import reads a local file',
    file: 1,
  },
  { re: /\\(?:e|edit|ef|ev)\b/g, does: 'exec', reason: '\\e runs an editor' },
  { re: /\\gexec\b/g, does: 'exec', reason: '\\gexec runs query results as commands' },
  { re: /\\setenv\b/g, does: 'exec', reason: '\\setenv changes the environment of programs psql runs' },
  {
    re: /\bCOPY\b[^;]*?\b(?:TO|FROM)\s+PROGRAM\b/gi,
    does: 'exec',
    reason: 'COPY … PROGRAM runs a shell command on the server',
  },
  { re: /\bCOPY\b[^;]*?\bTO\s+'/gi, does: 'exec', reason: "COPY … TO 'file' writes a file on the server" },
  {
    re: /\b(?:pg_read_file|pg_read_binary_file|pg_ls_dir|lo_import|lo_export)\s*\(/gi,
    does: 'exec',
    reason: 'server-side file functions read or write files on the server',
  },
  { re: /\bLOAD\s+'/gi, does: 'exec', reason: 'LOAD loads a shared library into the server' },
];

const MYSQL_ROWS: CodeRow[] = [
  { re: /(?:^|[;\n])\s*(?:system|\\!)\s/gim, does: 'exec', reason: 'system / \\! runs a shell command' },
  {
    re: new RegExp(String.raw`(?:^|[;\n])\s*(?:source|\\\.)\s+${FILE}`, 'gim'),
    does: 'runs-file',
    reason: 'source runs the statements of a file',
    file: 1,
  },
  {
    re: new RegExp(String.raw`(?:^|[;\n])\s*(?:tee|\\T)\s+${FILE}`, 'gim'),
    does: 'write',
    reason: 'tee appends the session to a file',
    file: 1,
  },
  { re: /(?:^|[;\n])\s*(?:pager|\\P)\s/gim, does: 'exec', reason: 'pager runs a program for the output' },
  {
    re: /\bINTO\s+(?:OUTFILE|DUMPFILE)\b/gi,
    does: 'exec',
    reason: 'SELECT … INTO OUTFILE writes a file on the server',
  },
  {
    re: new RegExp(String.raw`\bLOAD\s+DATA\s+LOCAL\s+INFILE\s+${FILE}`, 'gi'),
    does: 'read',
    reason: 'LOAD DATA LOCAL INFILE reads a local file',
    file: 1,
  },
  { re: /\bLOAD\s+DATA\s+INFILE\b/gi, does: 'exec', reason: 'LOAD DATA INFILE reads a file on the server' },
  { re: /\bLOAD_FILE\s*\(/gi, does: 'exec', reason: 'LOAD_FILE() reads a file on the server' },
  {
    re: /\bINSTALL\s+(?:PLUGIN|COMPONENT)\b/gi,
    does: 'exec',
    reason: 'INSTALL PLUGIN loads a shared library into the server',
  },
];

const SQLITE_ROWS: CodeRow[] = [
  { re: /(?:^|[\s;])\.(?:shell|system)\b/gm, does: 'exec', reason: '.shell/.system runs a shell command' },
  { re: /(?:^|[\s;])\.(?:once|output)\s+-[xe]\b/gm, does: 'exec', reason: '.once -x/-e opens a program' },
  {
    re: new RegExp(String.raw`(?:^|[\s;])\.(?:once|output|log|trace)\s+(?:-\S+\s+)*${FILE}`, 'gm'),
    does: 'write',
    reason: '.output/.once/.log/.trace write a file or pipe to a program',
    file: 1,
  },
  {
    re: new RegExp(String.raw`(?:^|[\s;])\.(?:backup|save|clone)\s+(?:\S+\s+)?${FILE}`, 'gm'),
    does: 'write',
    reason: '.backup/.save/.clone write a database file',
    file: 1,
  },
  {
    re: new RegExp(String.raw`(?:^|[\s;])\.open\s+(?:-\S+\s+)*${FILE}`, 'gm'),
    does: 'write',
    reason: '.open opens (and creates) a database file',
    file: 1,
  },
  {
    re: new RegExp(String.raw`(?:^|[\s;])\.read\s+${FILE}`, 'gm'),
    does: 'runs-file',
    reason: '.read runs the commands of a file or a program',
    file: 1,
  },
  {
    re: new RegExp(String.raw`(?:^|[\s;])\.import\s+(?:-\S+\s+)*${FILE}`, 'gm'),
    does: 'read',
    reason: '.import reads a file or a program',
    file: 1,
  },
  {
    re: /(?:^|[\s;])\.(?:load|excel)\b/gm,
    does: 'exec',
    reason: '.load loads an extension / .excel opens a program',
  },
  {
    re: new RegExp(String.raw`\bATTACH\s+(?:DATABASE\s+)?${FILE}`, 'gi'),
    does: 'write',
    reason: 'ATTACH opens (and creates) a database file',
    file: 1,
  },
  {
    re: new RegExp(String.raw`\bVACUUM\s+(?:\w+\s+)?INTO\s+${FILE}`, 'gi'),
    does: 'write',
    reason: 'VACUUM INTO writes a database file',
    file: 1,
  },
  {
    re: /\b(?:load_extension|edit)\s*\(/gi,
    does: 'exec',
    reason: 'load_extension()/edit() load code or run an editor',
  },
  { re: /\bwritefile\s*\(/gi, does: 'exec', reason: 'writefile() writes a file named by the query' },
  { re: /\breadfile\s*\(/gi, does: 'exec', reason: 'readfile() reads a file named by the query' },
];

const REDIS_ROWS: CodeRow[] = [
  {
    re: /^(?:EVAL|EVALSHA|EVAL_RO|EVALSHA_RO|FCALL|FCALL_RO|SCRIPT|FUNCTION)$/i,
    does: 'exec',
    reason: 'runs Lua code on the server',
  },
  { re: /^MODULE$/i, does: 'exec', reason: 'MODULE LOAD loads a shared library into the server' },
  {
    re: /^CONFIG$/i,
    does: 'exec',
    reason: 'CONFIG SET can point the server at another directory and file name (writes files)',
  },
  {
    re: /^(?:SLAVEOF|REPLICAOF|MIGRATE|DEBUG)$/i,
    does: 'exec',
    reason: 'replication, migration and DEBUG change what the server runs or sends',
  },
];

const MONGO_ROWS: CodeRow[] = [
  { re: /[\s\S]+/g, does: 'exec', reason: 'mongosh runs JavaScript (child_process is available)' },
];

const CLIENTS: Record<string, ClientTable> = {
  psql: {
    code: ['-c', '--command'],
    script: ['-f', '--file'],
    writes: ['-o', '--output', '-L', '--log-file'],
    runs: [],
    valued: [
      '-d',
      '--dbname',
      '-h',
      '--host',
      '-p',
      '--port',
      '-U',
      '--username',
      '-v',
      '--set',
      '--variable',
      '-P',
      '--pset',
      '-F',
      '--field-separator',
      '-R',
      '--record-separator',
      '-T',
      '--table-attr',
    ],
    rows: PSQL_ROWS,
    operands: 'names',
    stdin: true,
  },
  mysql: {
    code: ['-e', '--execute', '--init-command'],
    script: [],
    writes: ['--tee'],
    runs: [
      ['--pager', 'runs the named pager for the output'],
      ['--defaults-file', 'loads another option file (it can set a pager, an init command or a plugin)'],
      [
        '--defaults-extra-file',
        'loads another option file (it can set a pager, an init command or a plugin)',
      ],
      ['--plugin-dir', 'loads client plugins from another directory'],
      ['--default-auth', 'loads an authentication plugin'],
    ],
    valued: [
      '-u',
      '--user',
      '-h',
      '--host',
      '-P',
      '--port',
      '-D',
      '--database',
      '-S',
      '--socket',
      '--protocol',
      '--default-character-set',
    ],
    rows: MYSQL_ROWS,
    operands: 'names',
    stdin: true,
  },
  sqlite3: {
    code: ['-cmd'],
    script: ['-init'],
    writes: [],
    runs: [],
    valued: [
      '-separator',
      '-newline',
      '-nullvalue',
      '-vfs',
      '-maxsize',
      '-mmap',
      '-pagecache',
      '-lookaside',
      '-heap',
    ],
    rows: SQLITE_ROWS,
    operands: 'sqlite',
    stdin: true,
  },
  'redis-cli': {
    code: [],
    script: ['--eval'],
    writes: ['--rdb', '--functions-rdb'],
    runs: [['--pipe', 'sends the commands read from standard input']],
    valued: [
      '-h',
      '-p',
      '-a',
      '-n',
      '-u',
      '-r',
      '-i',
      '--user',
      '--pass',
      '--tls',
      '--cacert',
      '--cert',
      '--key',
      '-s',
    ],
    rows: REDIS_ROWS,
    operands: 'redis',
    stdin: false,
  },
  mongosh: {
    code: ['--eval'],
    script: ['-f', '--file'],
    writes: [],
    runs: [],
    valued: ['--host', '--port', '-u', '--username', '-p', '--password', '--authenticationDatabase'],
    rows: MONGO_ROWS,
    operands: 'scripts',
    stdin: true,
  },
};
CLIENTS.mariadb = CLIENTS.mysql as ClientTable;
CLIENTS.mongo = CLIENTS.mongosh as ClientTable;

/** Client tables by program name. */
export const DB_CLIENTS: ReadonlyMap<string, ClientTable> = new Map(Object.entries(CLIENTS));

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
