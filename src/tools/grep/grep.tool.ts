/**
 * `Grep {pattern, path?, glob?, type?, output_mode?, -i?, -n?, -A?, -B?, -C?, context?, -o?,
 * multiline?, head_limit?, offset?}`: content search on ripgrep (the Claude Code tools reference; docs/architecture.md for the
 * 20,000-character result cap).
 *
 * Sequence: validate (NUL characters, the path exists) → resolve the root (`~`, cwd-relative,
 * symlinks; file or directory) → run on ripgrep or the JavaScript fallback with: hidden files,
 * .gitignore honoured, VCS directories excluded, `--crlf`, lines over 500 bytes cut to a preview →
 * collect the page (grep-search.ts) → render (grep-output.ts).
 *
 * Behaviour: `output_mode` defaults to files_with_matches; `-n` defaults to true; context options
 * apply to content mode only (`context` wins over `-C`; `-A`/`-B` override one side); `head_limit`
 * defaults to 250 (`compat.grepHeadLimitDefault`; 0 = no limit); paths relative to the cwd
 * (`compat.searchPathStyle = 'absolute'` for absolute); the `glob` field may hold several globs
 * separated by spaces or commas (`*.ts,*.tsx`; braces keep commas: `*.{ts,tsx}`), surrounding quotes
 * are dropped. A bad regex, glob or type is an error with ripgrep's diagnostic (the Claude Code tools reference, v2.1.208+).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { describeWorldOf } from '../../core/call-describer.js';
import { buildTool, type CallDescription, invalidPathMessage } from '../../core/index.js';
import {
  assertPermittedPath,
  type CheckedDirectory,
  type CheckedFile,
  openCheckedDirectory,
  openCheckedFile,
  PathChangedError,
} from '../file-io/checked-open.js';
import {
  compatChoice,
  DEFAULT_MAX_COLUMNS,
  hasNullByte,
  isAbsentPath,
  isNonNegativeInteger,
  type MtimeOrder,
  pathKind,
  type ResolveSearchEngineOptions,
  resolvedCwd,
  resolveSearchPath,
  searchEngineProvider,
  VCS_DIRECTORIES,
} from '../ripgrep/index.js';
import { grepDescriber } from './describe.js';
import { type GrepOutput, renderGrepOutput } from './grep-output.js';
import { runGrep } from './grep-search.js';

/** Default page size (the Claude Code tools reference, Claude Code 2.1.x). */
export const GREP_DEFAULT_HEAD_LIMIT = 250;
/** Result cap before the runtime spills to disk (docs/architecture.md). */
export const GREP_MAX_RESULT_SIZE_CHARS = 20_000;
/** Time limit of one search; partial results are returned with a note. */
export const GREP_TIMEOUT_MS = 20_000;

const count = () => z.number().int().min(0);

const GrepInput = z.strictObject({
  pattern: z.string().describe('The regular expression to search for (ripgrep / Rust regex syntax).'),
  path: z
    .string()
    .optional()
    .describe('File or directory to search in. Defaults to the current working directory.'),
  glob: z
    .string()
    .optional()
    .describe('Only search files matching this glob, e.g. "*.js" or "**/*.{ts,tsx}" (ripgrep --glob).'),
  type: z
    .string()
    .optional()
    .describe(
      'Only search files of this type, e.g. js, py, rust, go, java (ripgrep --type). More efficient than glob for standard types.',
    ),
  output_mode: z
    .enum(['content', 'files_with_matches', 'count'])
    .optional()
    .describe(
      'content: matching lines; files_with_matches: matching file paths (default); count: matching lines per file.',
    ),
  '-B': count().optional().describe('Lines of context before each match (content mode only).'),
  '-A': count().optional().describe('Lines of context after each match (content mode only).'),
  '-C': count().optional().describe('Alias of context.'),
  context: count().optional().describe('Lines of context before and after each match (content mode only).'),
  '-n': z.boolean().optional().describe('Show line numbers (content mode only). Defaults to true.'),
  '-i': z.boolean().optional().describe('Case-insensitive search.'),
  '-o': z
    .boolean()
    .optional()
    .describe('Print only the matched parts of lines, one per line (content mode only).'),
  multiline: z
    .boolean()
    .optional()
    .describe(
      'Let patterns span lines; "." also matches newlines (rg -U --multiline-dotall). Default false.',
    ),
  head_limit: count()
    .optional()
    .describe(
      `Return at most this many lines (content), files (files_with_matches) or rows (count). Defaults to ${GREP_DEFAULT_HEAD_LIMIT}; 0 means no limit.`,
    ),
  offset: count()
    .optional()
    .describe('Skip this many lines / files / rows before applying head_limit. Defaults to 0.'),
});
export type GrepInput = z.infer<typeof GrepInput>;

/** Options of a Grep tool instance (tests force the JavaScript fallback with `engine: 'javascript'`). */
export type GrepToolOptions = ResolveSearchEngineOptions;

const prompt = readFileSync(new URL('./grep.prompt.md', import.meta.url), 'utf8').trim();

/** Splits the `glob` field into ripgrep globs: whitespace- or comma-separated; braces keep their commas. */
export function splitGlobField(glob: string | undefined): string[] {
  if (glob === undefined) return [];
  const out: string[] = [];
  for (const raw of glob.trim().split(/\s+/)) {
    const unquoted = raw.replace(/^(["'])(.*)\1$/, '$2');
    if (!unquoted) continue;
    if (unquoted.includes('{') && unquoted.includes('}')) out.push(unquoted);
    else out.push(...unquoted.split(',').filter(Boolean));
  }
  return out;
}

/** Builds a Grep tool. */
export function createGrepTool(options: GrepToolOptions = {}) {
  const engine = searchEngineProvider(options);
  return buildTool({
    name: 'Grep',
    description: prompt,
    inputSchema: GrepInput,
    maxResultSizeChars: GREP_MAX_RESULT_SIZE_CHARS,
    isReadOnly: grepDescriber.isReadOnly,
    isConcurrencySafe: () => true,
    userFacingName: () => 'Search',
    toAutoClassifierInput: grepDescriber.toAutoClassifierInput,

    async validateInput(input: GrepInput, context) {
      const badPath = input.path === undefined ? undefined : invalidPathMessage('path', input.path);
      if (badPath) return { ok: false, field: 'path', message: badPath };
      if (hasNullByte(input.pattern) || hasNullByte(input.path) || hasNullByte(input.glob)) {
        return {
          ok: false,
          message: 'pattern, path and glob must not contain NUL characters. Remove them and retry.',
        };
      }
      const cwd = context.getAppState().cwd;
      if (isAbsentPath(input.path, cwd)) return { ok: true };
      const abs = resolveSearchPath(input.path, context);
      const kind = pathKind(abs);
      if (kind === 'missing') {
        return {
          ok: false,
          field: 'path',
          message: `Path does not exist: ${input.path}. The current working directory is ${cwd}; pass an existing file or directory as path, or omit path to search the working directory.`,
        };
      }
      if (kind === 'other') {
        return {
          ok: false,
          field: 'path',
          message: `Path is neither a file nor a directory: ${abs}. Pass a regular file or a directory.`,
        };
      }
      return { ok: true };
    },

    async describeCall(input: GrepInput, context): Promise<CallDescription> {
      return grepDescriber.describe(input, describeWorldOf(context));
    },

    async *call(input: GrepInput, context) {
      const root = resolveSearchPath(input.path, context);
      assertPermittedPath(context, root, root);
      const rootIsFile = pathKind(root) === 'file';
      // The search reads the root through a descriptor verified to be the checked path.
      let dir: CheckedDirectory | undefined;
      let file: CheckedFile | undefined;
      if (rootIsFile) {
        const opened = await openCheckedFile(root);
        if (opened === 'missing') throw new PathChangedError(root, 'it no longer exists');
        file = opened;
      } else if (pathKind(root) === 'directory') {
        dir = await openCheckedDirectory(root);
      } else {
        // It was there when validated: it went away or changed kind since.
        throw new PathChangedError(root, 'it is no longer a file or a directory');
      }
      try {
        return await runChecked(input, context, root, rootIsFile, dir?.ioPath ?? file?.ioPath);
      } finally {
        await dir?.close();
        await file?.close();
      }
    },

    mapToolResultToContent: (output: GrepOutput) => renderGrepOutput(output),
  });

  async function runChecked(
    input: GrepInput,
    context: Parameters<typeof resolveSearchPath>[1],
    root: string,
    rootIsFile: boolean,
    ioRoot: string | undefined,
  ): Promise<{ data: GrepOutput }> {
    const mode = input.output_mode ?? 'files_with_matches';
    const content = mode === 'content';
    const both = input.context ?? input['-C'] ?? 0;
    const data: GrepOutput = await runGrep({
      engine: await engine(),
      mode,
      headLimit:
        input.head_limit ??
        compatChoice(context, 'grepHeadLimitDefault', isNonNegativeInteger, GREP_DEFAULT_HEAD_LIMIT),
      offset: input.offset ?? 0,
      lineNumbers: input['-n'] ?? true,
      baseDir: rootIsFile ? path.dirname(root) : root,
      ...(ioRoot !== undefined ? { io: rootIsFile ? { file: ioRoot } : { dir: ioRoot } } : {}),
      cwd: resolvedCwd(context),
      pathStyle: compatChoice(context, 'searchPathStyle', ['relative', 'absolute'] as const, 'relative'),
      filesOrder: compatChoice<MtimeOrder>(
        context,
        'grepSortOrder',
        ['newest-first', 'oldest-first'],
        'newest-first',
      ),
      request: {
        root,
        ...(ioRoot !== undefined ? { ioRoot } : {}),
        rootIsFile,
        pattern: input.pattern,
        caseInsensitive: input['-i'] ?? false,
        multiline: input.multiline ?? false,
        globs: splitGlobField(input.glob),
        ...(input.type ? { type: input.type } : {}),
        respectIgnore: true,
        excludeDirs: VCS_DIRECTORIES,
        onlyMatching: content && (input['-o'] ?? false),
        before: content ? (input['-B'] ?? both) : 0,
        after: content ? (input['-A'] ?? both) : 0,
        maxColumns: DEFAULT_MAX_COLUMNS,
        signal: context.abortController.signal,
        timeoutMs: compatChoice(context, 'grepTimeoutMs', isNonNegativeInteger, GREP_TIMEOUT_MS),
      },
    });
    return { data };
  }
}

/** The Grep tool with the default engine (ripgrep when available). */
export const GrepTool = createGrepTool();
