/**
 * `buildTool(definition)`: fills every defaultable member with a fail-closed default. Each default
 * below does what its comment says.
 */
import type { ToolResultContent } from './content.js';
import type { ToolUseContext } from './context.js';
import type { CallDescription, ToolPermissionResult } from './permission-types.js';
import type { AnyObject, Tool, ValidationResult } from './tool.js';

/** The members `buildTool` may fill in. */
export type DefaultableToolKeys =
  | 'aliases'
  | 'prompt'
  | 'maxResultSizeChars'
  | 'shouldDefer'
  | 'alwaysLoad'
  | 'isMcp'
  | 'mapToolResultToContent'
  | 'validateInput'
  | 'checkPermissions'
  | 'describeCall'
  | 'isEnabled'
  | 'isConcurrencySafe'
  | 'isReadOnly'
  | 'isDestructive'
  | 'userFacingName'
  | 'toAutoClassifierInput';

/** Default result cap for a tool that does not declare one (100K characters; the runtime clamps it to its global 50K). */
export const DEFAULT_TOOL_MAX_RESULT_SIZE_CHARS = 100_000;

const VALID: Promise<ValidationResult> = Promise.resolve(Object.freeze({ ok: true as const }));
const PASSTHROUGH: Promise<ToolPermissionResult> = Promise.resolve(
  Object.freeze({ behavior: 'passthrough' as const }),
);

const TOOL_DEFAULTS = {
  aliases: [] as readonly string[],
  prompt: '',
  maxResultSizeChars: DEFAULT_TOOL_MAX_RESULT_SIZE_CHARS,
  shouldDefer: false,
  alwaysLoad: false,
  isMcp: false,
  /** Strings pass through; anything else is rendered as JSON. */
  mapToolResultToContent: (output: unknown, _meta?: unknown): ToolResultContent =>
    typeof output === 'string' ? output : JSON.stringify(output),
  /** No tool-specific checks (one shared, settled, frozen answer: nothing allocated per call). */
  validateInput: (_input?: unknown, _context?: ToolUseContext): Promise<ValidationResult> => VALID,
  /** No opinion: the general engine decides, and it asks when nothing allows. */
  checkPermissions: (_input?: unknown, _context?: ToolUseContext): Promise<ToolPermissionResult> =>
    PASSTHROUGH,
  /** Nothing known about the call: no rule content, no effects, not read-only (so it is never auto-allowed as read-only). */
  describeCall: async (_input?: unknown, _context?: ToolUseContext): Promise<CallDescription> => ({
    ruleContents: [],
    effects: [],
    findings: [],
    readOnly: false,
    summary: '',
  }),
  isEnabled: (): boolean => true,
  /** Assume unsafe to run alongside other calls. */
  isConcurrencySafe: (_input?: unknown, _context?: ToolUseContext): boolean => false,
  /** Assume it writes. */
  isReadOnly: (_input?: unknown, _context?: ToolUseContext): boolean => false,
  /** Not flagged destructive unless the tool says so (destructiveness is a UI warning, not an authority). */
  isDestructive: (_input?: unknown): boolean => false,
  /** Empty: the classifier never auto-approves a tool that does not describe itself. */
  toAutoClassifierInput: (_input?: unknown): string => '',
};

type ToolDefaults = typeof TOOL_DEFAULTS & { userFacingName: (input?: unknown) => string };

/** What a tool author writes: the required members plus any defaultable member they override. */
export type ToolDef<Input extends AnyObject = AnyObject, Output = unknown, Progress = unknown> = Omit<
  Tool<Input, Output, Progress>,
  DefaultableToolKeys
> &
  Partial<Pick<Tool<Input, Output, Progress>, DefaultableToolKeys>>;

/**
 * The type of a built tool: every defaultable member is present; where the definition gave one,
 * its own type wins, otherwise the default's type.
 */
export type BuiltTool<D> = Omit<D, DefaultableToolKeys> & {
  [K in DefaultableToolKeys]-?: K extends keyof D
    ? undefined extends D[K]
      ? ToolDefaults[K]
      : D[K]
    : ToolDefaults[K];
};

/**
 * Builds a tool from its definition, filling fail-closed defaults. `userFacingName` defaults to the tool name.
 * Throws TypeError when `name` is empty or `inputSchema` is missing.
 */
export function buildTool<D extends ToolDef<any, any, any>>(def: D): BuiltTool<D> {
  if (!def.name) throw new TypeError('buildTool: a tool needs a name');
  if (!def.inputSchema) throw new TypeError(`buildTool: tool ${def.name} needs an inputSchema`);
  const name = def.name;
  return {
    ...TOOL_DEFAULTS,
    userFacingName: () => name,
    ...def,
  } as unknown as BuiltTool<D>;
}
