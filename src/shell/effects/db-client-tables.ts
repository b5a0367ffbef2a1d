/**
 * The database clients' tables for db-clients.ts (docs/shell-analysis.md "Programs that run, load
 * or write"): per client, the options that carry code, a script file, an output file or a program,
 * and the code rows scanned in inline code, heredoc/here-string input and `-cmd` values; one row
 * per feature that runs a shell, loads a file or writes one, each with its reason.
 *
 * Source: psql(1) "Meta-Commands" and COPY; mysql(1) "mysql Client Commands", SELECT … INTO,
 * LOAD DATA; sqlite3 CLI ".help" and its SQL functions (readfile, writefile, edit); redis-cli(1),
 * EVAL, MODULE LOAD, CONFIG SET; mongosh --eval/--file.
 */

export type Feature = 'exec' | 'write' | 'read' | 'runs-file';

/** One scanned feature: a pattern (global), what it does, and the capture group naming a file. */
export interface CodeRow {
  re: RegExp;
  does: Feature;
  reason: string;
  /** Capture group holding the file (a `|cmd` value is a program instead). */
  file?: number;
}

export interface ClientTable {
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
