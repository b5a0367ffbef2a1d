/**
 * The command line of the agent face (`gantry -p …`, and `gantry` driven by the Claude Agent SDK),
 * parsed the way Claude Code's command line is (Claude Code documentation, "CLI reference"):
 *
 * - long flags as `--name value` or `--name=value` (the SDK sends `--name=value`; `--tools=` is an
 *   empty value); `-p`, `-c`, `-r`, `-d`, `-h` short forms;
 * - list flags (`--allowedTools`, `--disallowedTools`, `--tools`, `--add-dir`, `--mcp-config`)
 *   take every following token up to the next flag, and may be repeated; values are split later
 *   (rules at commas and spaces outside parentheses); when such a flag runs to the end of argv and
 *   no prompt was found, its last value is taken as the prompt (`gantry -p --tools Read "fix it"`),
 *   with a note;
 * - `--resume` takes an optional id (the next token when it does not start with `-`);
 * - the first remaining token is the prompt.
 *
 * Flags Claude Code or the SDK may pass that Gantry does not act on are accepted with a note (see
 * `IGNORED_FLAGS`); a flag nobody knows is skipped with a note too, never fatal. An unknown flag
 * followed by a bare token may own it as its value: such tokens are dropped from the prompt
 * candidates first when there is more than one candidate (or any, with stream-json input).
 *
 * Errors are `UsageError`s (printed on stderr, exit 1, as Claude Code exits on a bad flag).
 */

export type OutputFormat = 'text' | 'json' | 'stream-json';
export type InputFormat = 'text' | 'stream-json';
export type SettingSource = 'user' | 'project' | 'local';

export class UsageError extends Error {
  override readonly name = 'UsageError';
}

export interface PrintArgs {
  print: boolean;
  prompt?: string;
  outputFormat: OutputFormat;
  inputFormat: InputFormat;
  /** True when `--output-format` was given (SDK and scripts always give it). */
  outputFormatGiven: boolean;
  verbose: boolean;
  includePartialMessages: boolean;
  replayUserMessages: boolean;
  model?: string;
  provider?: string;
  permissionMode?: string;
  dangerouslySkipPermissions: boolean;
  allowDangerouslySkipPermissions: boolean;
  /** Raw values; each may hold several rules. */
  allowedTools: string[];
  disallowedTools: string[];
  /** Raw `--tools` values (undefined: the flag was not given). */
  tools?: string[];
  maxTurns?: number;
  maxBudgetUsd?: number;
  systemPrompt?: string;
  systemPromptFile?: string;
  appendSystemPrompt?: string;
  appendSystemPromptFile?: string;
  /** `--settings` values: a file path or inline JSON, in the order given. */
  settings: string[];
  settingSources?: SettingSource[];
  addDirs: string[];
  sessionId?: string;
  continue: boolean;
  /** `--resume`: an id, or `true` when given without one. */
  resume?: string | true;
  forkSession: boolean;
  noSessionPersistence: boolean;
  permissionPromptTool?: string;
  mcpConfig: string[];
  strictMcpConfig: boolean;
  agents?: string;
  agent?: string;
  /** `--json-schema`: the JSON Schema text of the structured answer (structured-output.ts). */
  jsonSchema?: string;
  maxThinkingTokens?: number;
  thinking?: 'enabled' | 'adaptive' | 'disabled';
  help: boolean;
  /** One line per flag accepted but not acted on, or not known (for stderr). */
  notes: string[];
}

type Arity = 'bool' | 'value' | 'optional' | 'list';

interface FlagSpec {
  arity: Arity;
  apply: (a: PrintArgs, value: string | undefined, flag: string) => void;
}

function positiveInt(flag: string, v: string): number {
  const n = Number(v);
  if (!/^\d+$/.test(v.trim()) || !Number.isSafeInteger(n) || n < 1)
    throw new UsageError(`${flag} must be a positive whole number (got "${v}")`);
  return n;
}

function positiveNumber(flag: string, v: string): number {
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n <= 0)
    throw new UsageError(`${flag} must be a positive number (got "${v}")`);
  return n;
}

function oneOf<T extends string>(flag: string, v: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(v)) return v as T;
  throw new UsageError(`${flag} must be one of ${allowed.join(', ')} (got "${v}")`);
}

const req = (v: string | undefined): string => v as string;

const FLAGS: Readonly<Record<string, FlagSpec>> = {
  '--print': { arity: 'bool', apply: (a) => void (a.print = true) },
  '--output-format': {
    arity: 'value',
    apply: (a, v, f) => {
      a.outputFormat = oneOf(f, req(v), ['text', 'json', 'stream-json'] as const);
      a.outputFormatGiven = true;
    },
  },
  '--input-format': {
    arity: 'value',
    apply: (a, v, f) => void (a.inputFormat = oneOf(f, req(v), ['text', 'stream-json'] as const)),
  },
  '--verbose': { arity: 'bool', apply: (a) => void (a.verbose = true) },
  '--include-partial-messages': { arity: 'bool', apply: (a) => void (a.includePartialMessages = true) },
  '--replay-user-messages': { arity: 'bool', apply: (a) => void (a.replayUserMessages = true) },
  '--model': { arity: 'value', apply: (a, v) => void (a.model = req(v)) },
  '--provider': { arity: 'value', apply: (a, v) => void (a.provider = req(v)) },
  '--permission-mode': { arity: 'value', apply: (a, v) => void (a.permissionMode = req(v)) },
  '--dangerously-skip-permissions': {
    arity: 'bool',
    apply: (a) => void (a.dangerouslySkipPermissions = true),
  },
  '--allow-dangerously-skip-permissions': {
    arity: 'bool',
    apply: (a) => void (a.allowDangerouslySkipPermissions = true),
  },
  '--allowedTools': { arity: 'list', apply: (a, v) => void a.allowedTools.push(req(v)) },
  '--allowed-tools': { arity: 'list', apply: (a, v) => void a.allowedTools.push(req(v)) },
  '--disallowedTools': { arity: 'list', apply: (a, v) => void a.disallowedTools.push(req(v)) },
  '--disallowed-tools': { arity: 'list', apply: (a, v) => void a.disallowedTools.push(req(v)) },
  '--tools': { arity: 'list', apply: (a, v) => void (a.tools ??= []).push(req(v)) },
  '--max-turns': { arity: 'value', apply: (a, v, f) => void (a.maxTurns = positiveInt(f, req(v))) },
  '--max-budget-usd': {
    arity: 'value',
    apply: (a, v, f) => void (a.maxBudgetUsd = positiveNumber(f, req(v))),
  },
  '--system-prompt': { arity: 'value', apply: (a, v) => void (a.systemPrompt = req(v)) },
  '--system-prompt-file': { arity: 'value', apply: (a, v) => void (a.systemPromptFile = req(v)) },
  '--append-system-prompt': { arity: 'value', apply: (a, v) => void (a.appendSystemPrompt = req(v)) },
  '--append-system-prompt-file': {
    arity: 'value',
    apply: (a, v) => void (a.appendSystemPromptFile = req(v)),
  },
  '--settings': { arity: 'value', apply: (a, v) => void a.settings.push(req(v)) },
  '--setting-sources': {
    arity: 'value',
    apply: (a, v, f) => {
      a.settingSources = req(v)
        .split(',')
        .map((s) => s.trim())
        .filter((s) => s !== '')
        .map((s) => oneOf(f, s, ['user', 'project', 'local'] as const));
    },
  },
  '--add-dir': { arity: 'list', apply: (a, v) => void a.addDirs.push(req(v)) },
  '--session-id': { arity: 'value', apply: (a, v) => void (a.sessionId = req(v)) },
  '--continue': { arity: 'bool', apply: (a) => void (a.continue = true) },
  '--resume': {
    arity: 'optional',
    apply: (a, v) => void (a.resume = v === undefined || v === '' ? true : v),
  },
  '--fork-session': { arity: 'bool', apply: (a) => void (a.forkSession = true) },
  '--no-session-persistence': { arity: 'bool', apply: (a) => void (a.noSessionPersistence = true) },
  '--permission-prompt-tool': { arity: 'value', apply: (a, v) => void (a.permissionPromptTool = req(v)) },
  '--mcp-config': { arity: 'list', apply: (a, v) => void a.mcpConfig.push(req(v)) },
  '--strict-mcp-config': { arity: 'bool', apply: (a) => void (a.strictMcpConfig = true) },
  '--agents': { arity: 'value', apply: (a, v) => void (a.agents = req(v)) },
  '--agent': { arity: 'value', apply: (a, v) => void (a.agent = req(v)) },
  '--json-schema': { arity: 'value', apply: (a, v) => void (a.jsonSchema = req(v)) },
  '--max-thinking-tokens': {
    arity: 'value',
    apply: (a, v, f) => {
      const n = Number(req(v));
      if (!Number.isSafeInteger(n) || n < 0) throw new UsageError(`${f} must be a whole number (got "${v}")`);
      a.maxThinkingTokens = n;
    },
  },
  '--thinking': {
    arity: 'value',
    apply: (a, v, f) => void (a.thinking = oneOf(f, req(v), ['enabled', 'adaptive', 'disabled'] as const)),
  },
  '--help': { arity: 'bool', apply: (a) => void (a.help = true) },
};

/** The list each list flag appends to (for the trailing-prompt rule). */
const FLAG_LISTS: Readonly<Record<string, (a: PrintArgs) => string[] | undefined>> = {
  '--allowedTools': (a) => a.allowedTools,
  '--allowed-tools': (a) => a.allowedTools,
  '--disallowedTools': (a) => a.disallowedTools,
  '--disallowed-tools': (a) => a.disallowedTools,
  '--tools': (a) => a.tools,
  '--add-dir': (a) => a.addDirs,
  '--mcp-config': (a) => a.mcpConfig,
};

const SHORT: Readonly<Record<string, string>> = {
  '-p': '--print',
  '-c': '--continue',
  '-r': '--resume',
  '-h': '--help',
  '-d': '--debug',
};

/**
 * Flags Claude Code has (or the Agent SDK sends) that Gantry accepts and does not act on, with the
 * arity needed to skip their values and the note printed on stderr.
 */
export const IGNORED_FLAGS: Readonly<Record<string, { arity: Arity; note: string }>> = {
  '--debug': { arity: 'optional', note: 'debug logging is not implemented' },
  '--debug-file': { arity: 'value', note: 'debug logging is not implemented' },
  '--effort': { arity: 'value', note: 'effort levels are not implemented' },
  '--betas': { arity: 'value', note: 'set ANTHROPIC_BETAS instead' },
  '--fallback-model': { arity: 'value', note: 'no fallback model is used' },
  '--permission-prompts': { arity: 'value', note: 'not implemented' },
  '--include-hook-events': { arity: 'bool', note: 'hook lifecycle events are not emitted' },
  '--project-config-root': { arity: 'value', note: 'not implemented' },
  '--plugin-dir': { arity: 'value', note: 'plugins are not supported' },
  '--resume-session-at': { arity: 'value', note: 'the whole session is resumed' },
  '--resume-drops-turn': { arity: 'value', note: 'the whole session is resumed' },
  '--managed-settings': { arity: 'value', note: 'managed settings are read from their system files only' },
  '--await-initialize': {
    arity: 'bool',
    note: 'initialize-delivered MCP servers and plugins are not supported',
  },
  '--await-claim': { arity: 'bool', note: 'pre-warmed processes are not supported' },
  '--task-budget': { arity: 'value', note: 'not implemented' },
  '--append-subagent-system-prompt': { arity: 'value', note: 'sub-agents are not available yet' },
  '--forward-subagent-text': { arity: 'bool', note: 'sub-agents are not available yet' },
  '--bare': { arity: 'bool', note: 'not implemented' },
  '--ide': { arity: 'bool', note: 'not implemented' },
};

function blankArgs(): PrintArgs {
  return {
    print: false,
    outputFormat: 'text',
    inputFormat: 'text',
    outputFormatGiven: false,
    verbose: false,
    includePartialMessages: false,
    replayUserMessages: false,
    dangerouslySkipPermissions: false,
    allowDangerouslySkipPermissions: false,
    allowedTools: [],
    disallowedTools: [],
    settings: [],
    addDirs: [],
    continue: false,
    forkSession: false,
    noSessionPersistence: false,
    mcpConfig: [],
    strictMcpConfig: false,
    help: false,
    notes: [],
  };
}

const isFlagToken = (t: string): boolean => t.startsWith('-') && t !== '-';

/** Parses argv (without `node` and the script). Throws `UsageError`. */
export function parsePrintArgs(argv: readonly string[]): PrintArgs {
  const a = blankArgs();
  const positionals: { value: string; maybeOwnedByUnknown: boolean }[] = [];
  /** The list flag whose values run to the end of argv, when one does (its last value may be the prompt). */
  let trailingList: { flag: string; values: string[] } | undefined;
  let i = 0;
  let afterDoubleDash = false;
  while (i < argv.length) {
    const token = argv[i] as string;
    i++;
    if (afterDoubleDash || !isFlagToken(token)) {
      positionals.push({ value: token, maybeOwnedByUnknown: false });
      continue;
    }
    if (token === '--') {
      afterDoubleDash = true;
      continue;
    }
    const eq = token.startsWith('--') ? token.indexOf('=') : -1;
    let name = eq > 0 ? token.slice(0, eq) : token;
    const inline = eq > 0 ? token.slice(eq + 1) : undefined;
    name = SHORT[name] ?? name;
    const spec = FLAGS[name];
    const ignored = spec ? undefined : IGNORED_FLAGS[name];
    if (!spec && !ignored) {
      a.notes.push(`unknown option ${name} ignored`);
      if (inline === undefined && i < argv.length && !isFlagToken(argv[i] as string))
        positionals.push({ value: argv[i++] as string, maybeOwnedByUnknown: true });
      continue;
    }
    const arity = spec ? spec.arity : (ignored as { arity: Arity }).arity;
    const values: (string | undefined)[] = [];
    trailingList = undefined;
    if (arity === 'bool') {
      if (inline !== undefined && spec) throw new UsageError(`${name} does not take a value`);
      values.push(undefined);
    } else if (inline !== undefined) {
      values.push(inline);
    } else if (arity === 'value') {
      if (i >= argv.length) throw new UsageError(`${name} needs a value`);
      values.push(argv[i++] as string);
    } else if (arity === 'optional') {
      if (i < argv.length && !isFlagToken(argv[i] as string)) values.push(argv[i++] as string);
      else values.push(undefined);
    } else {
      while (i < argv.length && !isFlagToken(argv[i] as string)) values.push(argv[i++] as string);
      if (values.length === 0) throw new UsageError(`${name} needs at least one value`);
      if (i === argv.length && values.length > 1 && spec)
        trailingList = { flag: name, values: values as string[] };
    }
    if (ignored) {
      a.notes.push(`option ${name} ignored: ${ignored.note}`);
      continue;
    }
    for (const v of values) (spec as FlagSpec).apply(a, v, name);
  }

  // Prompt: the first positional, after dropping the ones an unknown flag may own when too many.
  let candidates = positionals;
  const limit = a.inputFormat === 'stream-json' ? 0 : 1;
  if (candidates.length > limit) candidates = candidates.filter((p) => !p.maybeOwnedByUnknown);
  if (candidates.length > 1)
    throw new UsageError(
      `one prompt expected, got ${candidates.length} arguments (quote the prompt: gantry -p "…")`,
    );
  if (candidates[0] !== undefined) a.prompt = candidates[0].value;
  else if (trailingList && limit === 1 && !afterDoubleDash) {
    // `gantry -p --tools Read "fix it"`: a list flag ran to the end; its last value is the prompt.
    const list = FLAG_LISTS[trailingList.flag]?.(a);
    if (list && list[list.length - 1] === trailingList.values[trailingList.values.length - 1]) {
      a.prompt = list.pop();
      a.notes.push(
        `took the last value of ${trailingList.flag} as the prompt (put the prompt before list options, or after --)`,
      );
    }
  }
  validate(a);
  return a;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(v: string): boolean {
  return UUID_RE.test(v);
}

/** Cross-flag rules (Claude Code's, where it has them). */
function validate(a: PrintArgs): void {
  if (a.inputFormat === 'stream-json' && a.outputFormat !== 'stream-json')
    throw new UsageError('--input-format stream-json needs --output-format stream-json');
  if (a.includePartialMessages && a.outputFormat !== 'stream-json')
    throw new UsageError('--include-partial-messages needs --output-format stream-json');
  if (a.replayUserMessages && (a.inputFormat !== 'stream-json' || a.outputFormat !== 'stream-json'))
    throw new UsageError(
      '--replay-user-messages needs --input-format stream-json and --output-format stream-json',
    );
  if (a.inputFormat === 'stream-json' && a.prompt !== undefined)
    throw new UsageError(
      'with --input-format stream-json the prompts come on stdin; drop the prompt argument',
    );
  if (a.systemPrompt !== undefined && a.systemPromptFile !== undefined)
    throw new UsageError('use --system-prompt or --system-prompt-file, not both');
  if (a.appendSystemPrompt !== undefined && a.appendSystemPromptFile !== undefined)
    throw new UsageError('use --append-system-prompt or --append-system-prompt-file, not both');
  if (a.continue && a.resume !== undefined) throw new UsageError('use --continue or --resume, not both');
  if (a.resume === true)
    throw new UsageError(
      '--resume needs a session id in print mode (see the files under ~/.gantry/projects/)',
    );
  if (a.forkSession && !a.continue && a.resume === undefined)
    throw new UsageError('--fork-session needs --continue or --resume');
  if (a.sessionId !== undefined) {
    if (!isUuid(a.sessionId)) throw new UsageError(`--session-id must be a UUID (got "${a.sessionId}")`);
    if ((a.continue || a.resume !== undefined) && !a.forkSession)
      throw new UsageError('--session-id goes with --continue or --resume only together with --fork-session');
  }
  if (a.permissionPromptTool === 'stdio' && a.inputFormat !== 'stream-json')
    throw new UsageError('--permission-prompt-tool stdio needs --input-format stream-json');
}
