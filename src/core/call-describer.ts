/**
 * The describer contract: one pure function per tool that states what a call would do, as data
 * (`CallDescription`: rule contents, effects, findings). The tool's `describeCall` calls it with the
 * session's world; `gantry check`, `gantry hook` and `gantry replay` call the same function for a
 * host's call of that tool without loading the tool itself (so the hook stays small). See
 * docs/tool-traits.md "Describers".
 *
 * A describer gets the input as the host sent it: in the guard it has not been checked against the
 * tool's schema, so every field is read defensively (a missing or mistyped field gives an `unknown`
 * effect, which never allows). It never throws for an object input.
 */
import { homedir } from 'node:os';
import type { AppState } from './context.js';
import { fsPathResolver, type PathResolver } from './paths.js';
import type { CallDescription } from './permission-types.js';

/** Where a call is described: the session's directories and how symlinks resolve. */
export interface DescribeWorld {
  /** The session's current working directory (absolute). */
  cwd: string;
  /** The user's home directory (absolute), for `~`. */
  home: string;
  /** Symlink resolution (the real filesystem, or a declared map in tests and the security corpus). */
  resolver: PathResolver;
  /** Deadline of a shell analysis (ms; default: the process-wide one, docs/analysis-budget.md). */
  analysisDeadlineMs?: number;
}

/** A tool's describer: `(input, world) → CallDescription`. Never throws for an object input. */
export type CallDescriber = (
  input: Readonly<Record<string, unknown>>,
  world: DescribeWorld,
) => CallDescription | Promise<CallDescription>;

/** A describer plus the two pure predicates a permission request derives from the tool. */
export interface ToolDescriberEntry {
  /** Canonical tool name. */
  readonly name: string;
  readonly describe: CallDescriber;
  /** The tool's `isReadOnly` for this input (omitted: the description's `readOnly` decides). */
  readonly isReadOnly?: (input: Readonly<Record<string, unknown>>) => boolean;
  /** The tool's `toAutoClassifierInput` (omitted: '' — the classifier never auto-approves it). */
  readonly toAutoClassifierInput?: (input: Readonly<Record<string, unknown>>) => string;
}

/** A describer entry that states both predicates (what Gantry's tools with input-independent flags use). */
export type FullToolDescriberEntry = Required<ToolDescriberEntry>;

/**
 * The world of a running session (a class: its `home` getter lives on the prototype, so a world
 * costs one small object per call). `home` is looked up when a describer reads it (a `~` path; the
 * lookup reads the environment, so a changed HOME still counts); most calls name no such path.
 */
class SessionWorld implements DescribeWorld {
  readonly resolver: PathResolver = fsPathResolver;
  constructor(readonly cwd: string) {}
  get home(): string {
    return homedir();
  }
}

/** The world of a running session: its cwd, the OS home, the real filesystem. */
export function describeWorldOf(context: { getAppState(): Pick<AppState, 'cwd'> }): DescribeWorld {
  return new SessionWorld(context.getAppState().cwd);
}

/** The string in `input[field]`, or undefined when it is absent, not a string, or empty. */
export function stringField(input: Readonly<Record<string, unknown>>, field: string): string | undefined {
  const v = Object.hasOwn(input, field) ? input[field] : undefined;
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** `input[field]` when it is a string (possibly empty), else ''. For classifier texts of unchecked input. */
export function textField(input: Readonly<Record<string, unknown>>, field: string): string {
  const v = Object.hasOwn(input, field) ? input[field] : undefined;
  return typeof v === 'string' ? v : '';
}
