/**
 * The tool-trait table: every fact the permission engine and Gantry's faces (`check`, `hook`,
 * `replay`, `mcp`) need about a tool *by name*, in one place — for Gantry's own tools and for the
 * tools of the hosts Gantry guards (Claude Code's built-ins, the names Gemini CLI and Codex send to
 * hooks). What each trait means, and the compatibility choice behind each row, is written up in
 * `docs/tool-traits.md`.
 *
 * Lookups go through `Map`s (names come from models, hooks and settings files, and a plain object
 * would answer `constructor` or `__proto__`). A name that is not in the table — an MCP tool, a host's
 * own tool, a typo — gets {@link unknownToolTraits}: no aliases, no special treatment, so the engine
 * asks unless a rule decides (fail closed).
 *
 * Tools built with `buildTool` take their `aliases` from here (`traitsOf(name).aliases`); a test
 * checks that every registered tool and this table agree.
 */

/**
 * How the specifier of a `Tool(specifier)` rule is read for this tool:
 * - `shell`: a command pattern matched against each sub-command (`Bash(npm run test *)`);
 * - `path-read` / `path-edit`: a gitignore-style path pattern, applied as a `Read(...)` /
 *   `Edit(...)` rule (a `Write(x)` or `Glob(x)` rule is read as `Edit(x)` / `Read(x)`, with a warning);
 * - `domain`: `domain:<host>` (`WebFetch(domain:example.com)`);
 * - `content:<field>`: matched against the input field `<field>` (`Agent(Explore)` → `subagent_type`);
 * - `content`: matched against whatever the tool's describer lists as rule contents (unknown tools);
 * - `none`: the tool takes no specifier; such a rule is malformed (`WebSearch(x)`).
 */
export type RuleKind =
  | 'shell'
  | 'path-read'
  | 'path-edit'
  | 'domain'
  | 'content'
  | `content:${string}`
  | 'none';

/** A name another agent uses for this tool in its hook payloads, with the input fields it renames. */
export interface ForeignToolName {
  /** The other agent's tool name, e.g. Gemini CLI's `run_shell_command`. */
  readonly name: string;
  /** Its input field → this tool's field (`{ absolute_path: 'file_path' }`). */
  readonly fields?: Readonly<Record<string, string>>;
}

/** Everything the engine and the faces know about one tool by its name (see docs/tool-traits.md). */
export interface ToolTraits {
  /** Canonical name (what rules, hooks and the model use today). */
  readonly name: string;
  /** Former names: still accepted for the tool by the runtime and by rules (`KillBash` → `TaskStop`). */
  readonly aliases: readonly string[];
  /** How `Tool(specifier)` rules for this tool are read. */
  readonly ruleKind: RuleKind;
  /**
   * The input field(s) that hold what the rule specifier is about (`command`, `file_path`, `url`).
   * A parameter rule `Tool(field:value)` may not constrain them; host describers read paths from the
   * first one.
   */
  readonly primaryFields: readonly string[];
  /** Other top-level scalar fields a deny/ask parameter rule `Tool(field:value)` may constrain. */
  readonly paramFields: readonly string[];
  /** A file writer: a bare `Edit` deny/ask rule covers it, and acceptEdits allows it in the working directories. */
  readonly editFamily: boolean;
  /** Plan mode lets it through to the rest of the pipeline although it is not read-only. */
  readonly planModePass: boolean;
  /**
   * Calling it changes nothing on the machine by itself: planning and to-do state, questions, tool
   * search, reading or stopping this session's own background tasks, starting a subagent (whose
   * own calls are decided one by one). The engine allows it unless a deny or ask rule names it.
   */
  readonly noEffect: boolean;
  /** A bare allow rule for it grants arbitrary execution, so auto mode suspends such rules. */
  readonly broadAllow: boolean;
  /** It reaches outside the local machine (network, remote services): MCP `openWorldHint`. */
  readonly openWorld: boolean;
  /** It needs a person to answer; in dontAsk mode (which never asks anyone) it is denied. */
  readonly requiresUserInteraction: boolean;
  /**
   * Whether a sub-agent may be given the tool: `yes`; `never` (it needs the main conversation: a
   * question to the person, entering plan mode, the session's own scheduling); `plan-mode` (only a
   * sub-agent running in plan mode, which must present its plan: ExitPlanMode). The agents room
   * filters a sub-agent's tools by it.
   */
  readonly subagents: 'yes' | 'never' | 'plan-mode';
  /** `gantry` when Gantry ships a tool object of this name; `host` when only hosts have it. */
  readonly shippedBy: 'gantry' | 'host';
  /** Names other agents use for it in hook payloads (normalised to this tool by `gantry hook`). */
  readonly foreignNames: readonly ForeignToolName[];
  /**
   * Another shell tool whose rules also govern this one's commands (`Bash` for Monitor: a
   * `Bash(rm:*)` deny denies a Monitor `command` running `rm`, the Claude Code permissions docs).
   */
  readonly shellRulesOf?: string;
}

type Row = Partial<Omit<ToolTraits, 'name'>>;

const DEFAULTS: Omit<ToolTraits, 'name'> = {
  aliases: [],
  ruleKind: 'content',
  primaryFields: [],
  paramFields: [],
  editFamily: false,
  planModePass: false,
  noEffect: false,
  broadAllow: false,
  openWorld: false,
  requiresUserInteraction: false,
  subagents: 'yes',
  shippedBy: 'host',
  foreignNames: [],
};

/** No effect of its own, so plan mode has nothing to refuse either. */
const NO_EFFECT: Row = { noEffect: true, planModePass: true };

/** The rows, in the order of docs/tool-traits.md. */
const ROWS: ReadonlyArray<readonly [string, Row]> = [
  // Files.
  [
    'Read',
    {
      shippedBy: 'gantry',
      ruleKind: 'path-read',
      primaryFields: ['file_path'],
      paramFields: ['offset', 'limit', 'pages'],
      foreignNames: [
        { name: 'read_file', fields: { absolute_path: 'file_path', path: 'file_path' } },
        { name: 'read_many_files', fields: { absolute_path: 'file_path' } },
      ],
    },
  ],
  [
    'Write',
    {
      shippedBy: 'gantry',
      ruleKind: 'path-edit',
      primaryFields: ['file_path'],
      editFamily: true,
      foreignNames: [{ name: 'write_file', fields: { path: 'file_path' } }],
    },
  ],
  [
    'Edit',
    {
      shippedBy: 'gantry',
      ruleKind: 'path-edit',
      primaryFields: ['file_path'],
      paramFields: ['replace_all'],
      editFamily: true,
      foreignNames: [
        { name: 'replace', fields: { path: 'file_path' } },
        { name: 'edit_file', fields: { path: 'file_path' } },
      ],
    },
  ],
  ['MultiEdit', { ruleKind: 'path-edit', primaryFields: ['file_path'], editFamily: true }],
  [
    'NotebookEdit',
    {
      shippedBy: 'gantry',
      ruleKind: 'path-edit',
      primaryFields: ['notebook_path'],
      paramFields: ['cell_id', 'cell_type', 'edit_mode'],
      editFamily: true,
    },
  ],
  ['NotebookRead', { ruleKind: 'path-read', primaryFields: ['notebook_path'] }],
  [
    'Glob',
    {
      shippedBy: 'gantry',
      ruleKind: 'path-read',
      primaryFields: ['path'],
      paramFields: ['pattern'],
      foreignNames: [{ name: 'glob' }],
    },
  ],
  [
    'Grep',
    {
      shippedBy: 'gantry',
      ruleKind: 'path-read',
      primaryFields: ['path'],
      paramFields: ['pattern', 'glob', 'type', 'output_mode', 'multiline', '-i', '-n', 'head_limit'],
      foreignNames: [{ name: 'search_file_content' }, { name: 'grep' }],
    },
  ],
  ['LS', { ruleKind: 'path-read', primaryFields: ['path'] }],
  ['LSP', { shippedBy: 'gantry', ruleKind: 'path-read', primaryFields: ['filePath'] }],

  // Shells.
  [
    'Bash',
    {
      shippedBy: 'gantry',
      ruleKind: 'shell',
      primaryFields: ['command'],
      paramFields: ['timeout', 'description', 'run_in_background', 'dangerouslyDisableSandbox'],
      broadAllow: true,
      openWorld: true,
      foreignNames: [
        { name: 'run_shell_command' },
        { name: 'shell' },
        { name: 'exec_command', fields: { cmd: 'command' } },
        { name: 'execute_bash' },
        { name: 'bash' },
        { name: 'local_shell' },
      ],
    },
  ],
  [
    'Monitor',
    {
      shippedBy: 'gantry',
      ruleKind: 'shell',
      primaryFields: ['command'],
      paramFields: ['timeout_ms', 'persistent', 'description'],
      broadAllow: true,
      openWorld: true,
      shellRulesOf: 'Bash',
    },
  ],
  ['PowerShell', { ruleKind: 'shell', primaryFields: ['command'], broadAllow: true, openWorld: true }],

  // Background tasks of this session.
  ['TaskOutput', { shippedBy: 'gantry', aliases: ['BashOutput'], subagents: 'never', ...NO_EFFECT }],
  ['TaskStop', { shippedBy: 'gantry', aliases: ['KillShell', 'KillBash'], ...NO_EFFECT }],
  ['Sleep', { shippedBy: 'gantry', ...NO_EFFECT }],

  // The web.
  [
    'WebFetch',
    {
      shippedBy: 'gantry',
      ruleKind: 'domain',
      primaryFields: ['url'],
      paramFields: ['prompt', 'offset'],
      openWorld: true,
      foreignNames: [{ name: 'web_fetch' }],
    },
  ],
  [
    'WebSearch',
    {
      shippedBy: 'gantry',
      ruleKind: 'none',
      paramFields: ['query', 'allowed_domains', 'blocked_domains'],
      openWorld: true,
      foreignNames: [{ name: 'google_web_search' }],
    },
  ],
  [
    'WebBrowser',
    {
      shippedBy: 'gantry',
      ruleKind: 'domain',
      primaryFields: ['url'],
      paramFields: ['action', 'format', 'ref', 'selector', 'submit', 'full_page'],
      openWorld: true,
    },
  ],

  // Planning, to-dos, questions.
  ['TodoWrite', { ...NO_EFFECT, shippedBy: 'gantry' }],
  ['TodoRead', NO_EFFECT],
  ['TaskCreate', { ...NO_EFFECT, shippedBy: 'gantry' }],
  ['TaskGet', { ...NO_EFFECT, shippedBy: 'gantry' }],
  ['TaskUpdate', { ...NO_EFFECT, shippedBy: 'gantry' }],
  ['TaskList', { ...NO_EFFECT, shippedBy: 'gantry' }],
  [
    'AskUserQuestion',
    // Not `noEffect`: a call without answers must reach the host (or a hook) that answers it.
    { planModePass: true, requiresUserInteraction: true, subagents: 'never', shippedBy: 'gantry' },
  ],
  ['EnterPlanMode', { ...NO_EFFECT, subagents: 'never', shippedBy: 'gantry' }],
  [
    'ExitPlanMode',
    // Not `noEffect`: leaving plan mode needs the person's approval (an ask, or a hook's decision).
    { planModePass: true, requiresUserInteraction: true, subagents: 'plan-mode', shippedBy: 'gantry' },
  ],

  // Agents, skills, tool loading.
  [
    'Agent',
    {
      ...NO_EFFECT,
      shippedBy: 'gantry',
      aliases: ['Task'],
      ruleKind: 'content:subagent_type',
      paramFields: ['model', 'subagent_type', 'description', 'run_in_background', 'isolation'],
      broadAllow: true,
      openWorld: true,
    },
  ],
  ['SendMessage', { ...NO_EFFECT, shippedBy: 'gantry' }],
  ['TeamCreate', { ...NO_EFFECT, shippedBy: 'gantry' }],
  ['TeamDelete', { ...NO_EFFECT, shippedBy: 'gantry' }],
  ['ListPeers', { ...NO_EFFECT, shippedBy: 'gantry' }],
  // A skill call loads instructions; what they lead to is decided call by call, so plan mode lets
  // it through to the normal flow (where it asks unless a `Skill` rule decides).
  ['Skill', { ruleKind: 'content:skill', planModePass: true, shippedBy: 'gantry' }],
  ['SlashCommand', { ruleKind: 'content:command' }],
  ['ToolSearch', NO_EFFECT],

  // MCP housekeeping (resources are read from servers the user configured).
  ['ListMcpResourcesTool', { ...NO_EFFECT, openWorld: true }],
  ['ReadMcpResourceTool', { ...NO_EFFECT, openWorld: true }],
  ['ReadMcpResourceDirTool', { ...NO_EFFECT, openWorld: true }],
  ['RefreshMcpTools', { ...NO_EFFECT, openWorld: true }],
  ['WaitForMcpServers', { ...NO_EFFECT, subagents: 'never' }],

  // Scheduled prompts (what they later run is decided call by call), worktrees, session end.
  ['CronCreate', { shippedBy: 'gantry', ...NO_EFFECT }],
  ['CronDelete', { shippedBy: 'gantry', ...NO_EFFECT }],
  ['CronList', { shippedBy: 'gantry', ...NO_EFFECT }],
  ['ScheduleWakeup', { shippedBy: 'gantry', ...NO_EFFECT, subagents: 'never' }],
  ['EnterWorktree', { shippedBy: 'gantry', subagents: 'never' }],
  ['ExitWorktree', { shippedBy: 'gantry', subagents: 'never' }],
  ['EndConversation', { ...NO_EFFECT, subagents: 'never' }],
];

function freezeTraits(name: string, row: Row): ToolTraits {
  return Object.freeze({
    ...DEFAULTS,
    ...row,
    name,
    aliases: Object.freeze([...(row.aliases ?? [])]),
    primaryFields: Object.freeze([...(row.primaryFields ?? [])]),
    paramFields: Object.freeze([...(row.paramFields ?? [])]),
    foreignNames: Object.freeze(
      (row.foreignNames ?? []).map((f) =>
        Object.freeze(f.fields ? { name: f.name, fields: Object.freeze({ ...f.fields }) } : { name: f.name }),
      ),
    ),
  });
}

/** Canonical name → traits, in table order. */
export const TOOL_TRAITS: ReadonlyMap<string, ToolTraits> = new Map(
  ROWS.map(([name, row]) => [name, freezeTraits(name, row)] as const),
);

/** Canonical name or alias → traits. */
const BY_NAME: ReadonlyMap<string, ToolTraits> = (() => {
  const m = new Map<string, ToolTraits>();
  for (const t of TOOL_TRAITS.values()) {
    for (const n of [t.name, ...t.aliases]) {
      if (m.has(n)) throw new Error(`tool-traits: the name ${n} appears twice`);
      m.set(n, t);
    }
  }
  return m;
})();

/** Another agent's tool name → the traits of the tool it stands for, and its field renames. */
const BY_FOREIGN_NAME: ReadonlyMap<string, { traits: ToolTraits; foreign: ForeignToolName }> = (() => {
  const m = new Map<string, { traits: ToolTraits; foreign: ForeignToolName }>();
  for (const t of TOOL_TRAITS.values()) {
    for (const f of t.foreignNames) {
      if (m.has(f.name) || BY_NAME.has(f.name))
        throw new Error(`tool-traits: the name ${f.name} appears twice`);
      m.set(f.name, { traits: t, foreign: f });
    }
  }
  return m;
})();

/** The traits of a known tool (canonical name or alias); undefined for every other name. */
export function traitsOf(name: string): ToolTraits | undefined {
  return BY_NAME.get(name);
}

/** Cached fail-closed rows of names outside the table (MCP tools are asked about on every call). */
const UNKNOWN_TRAITS = new Map<string, ToolTraits>();
const MAX_UNKNOWN_TRAITS = 4096;

/**
 * The traits of a tool that is not in the table: fail-closed defaults under its own name (no
 * aliases, rules matched against the describer's rule contents, nothing skipped).
 */
export function unknownToolTraits(name: string): ToolTraits {
  let traits = UNKNOWN_TRAITS.get(name);
  if (!traits) {
    traits = freezeTraits(name, {});
    // Frozen rows are shared; the cache holds the names of a session's MCP tools (bounded).
    if (UNKNOWN_TRAITS.size >= MAX_UNKNOWN_TRAITS) UNKNOWN_TRAITS.clear();
    UNKNOWN_TRAITS.set(name, traits);
  }
  return traits;
}

/** The traits of any name: the table's row, or {@link unknownToolTraits}. */
export function traitsFor(name: string): ToolTraits {
  return BY_NAME.get(name) ?? unknownToolTraits(name);
}

/**
 * The traits of a tool Gantry ships, for its tool object (`aliases: gantryTraits('TaskStop').aliases`).
 * @throws Error when the name has no row marked `shippedBy: 'gantry'` (a programming error, found
 *   when the tool's module loads).
 */
export function gantryTraits(name: string): ToolTraits {
  const t = TOOL_TRAITS.get(name);
  if (!t || t.shippedBy !== 'gantry')
    throw new Error(`tool-traits: ${name} has no row marked shippedBy 'gantry' in src/core/tool-traits.ts`);
  return t;
}

/** The canonical name of a tool name or alias (`Task` → `Agent`); unknown names come back unchanged. */
export function canonicalToolName(name: string): string {
  return BY_NAME.get(name)?.name ?? name;
}

/** Every name a rule on `name` covers: the canonical name and its aliases (just `name` when unknown). */
export function toolNamesOf(name: string): readonly string[] {
  const t = BY_NAME.get(name);
  return t ? [t.name, ...t.aliases] : [name];
}

/** The names of every file writer (`editFamily`) and their aliases: what a bare `Edit` deny covers. */
export const EDIT_FAMILY_NAMES: ReadonlySet<string> = new Set(
  [...TOOL_TRAITS.values()].filter((t) => t.editFamily).flatMap((t) => [t.name, ...t.aliases]),
);

/** The input field a `content:<field>` rule kind reads; undefined for the other kinds. */
export function contentField(kind: RuleKind): string | undefined {
  return kind.startsWith('content:') ? kind.slice('content:'.length) : undefined;
}

/** Resolves another agent's tool name (`run_shell_command`) to the tool it stands for and its field renames. */
export function foreignToolName(name: string): { traits: ToolTraits; foreign: ForeignToolName } | undefined {
  return BY_FOREIGN_NAME.get(name);
}
