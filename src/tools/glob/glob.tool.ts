/**
 * `Glob {pattern, path?}`: file names matching a glob, sorted by modification time (the Claude Code tools reference).
 *
 * Sequence: plan (glob-pattern.ts: the pattern's static directory prefix joins the root) → resolve the
 * root (`~`, cwd-relative, symlinks) → list files with their mtimes on GNU find walking the tree
 * (several walkers side by side), or on ripgrep (`--files --glob=/<pattern>`) with find stat-ing what
 * it lists (docs/dependencies.md "GNU find"), or, without such a find, ripgrep or the JavaScript
 * fallback and a stat of each match inside the verified root → keep the first 100 by mtime (bounded memory) → paths for
 * the model, relative to the cwd → `{filenames, durationMs, numFiles, truncated}` (observed Claude Code transcripts).
 *
 * Observable behaviour (the Claude Code tools reference; transcripts of Claude Code 2.1.38): dot-files included; .gitignore
 * NOT honoured (`compat.globRespectGitignore` turns it on); files only; oldest first, as recorded
 * (`compat.globSortOrder = 'newest-first'` flips it); 100 results then a truncation note
 * (`compat.globMaxResults`); 20 s time limit with partial results (`compat.globTimeoutMs`); empty →
 * "No files found". Our choice: VCS directories (`.git`, …) are skipped unless the pattern names one
 * (`compat.globIncludeVcsDirs = true` lists them, as recorded sessions show for `**\/*`).
 * Symbolic links inside the tree are not followed (ripgrep's default): a link never widens the search.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { describeWorldOf } from '../../core/call-describer.js';
import {
  buildTool,
  type CallDescription,
  invalidPathMessage,
  type ToolUseContext,
} from '../../core/index.js';
import { assertPermittedPath, type CheckedDirectory, openCheckedDirectory } from '../file-io/checked-open.js';
import {
  compatChoice,
  formatResultPath,
  hasNullByte,
  isAbsentPath,
  isNonNegativeInteger,
  listFiles,
  type MtimeOrder,
  mtimeOf,
  pathKind,
  RankedFiles,
  type ResolveSearchEngineOptions,
  resolvedCwd,
  resolveSearchPath,
  searchEngineProvider,
} from '../ripgrep/index.js';
import { type GlobSearchPlan, globDescriber, planGlobSearch } from './describe.js';
import { vcsDirectoriesToExclude } from './glob-pattern.js';

/** Most paths returned (the Claude Code tools reference). */
export const GLOB_MAX_RESULTS = 100;
/** Time limit of one Glob call (the Claude Code tools reference, `CLAUDE_CODE_GLOB_TIMEOUT_SECONDS` default). */
export const GLOB_TIMEOUT_MS = 20_000;

const GlobInput = z.strictObject({
  pattern: z
    .string()
    .describe('The glob pattern to match file paths against, e.g. "**/*.ts" or "src/**/*.{js,jsx}".'),
  path: z
    .string()
    .optional()
    .describe(
      'The directory to search in. Omit it to search the current working directory; do not pass "undefined" or "null".',
    ),
});
export type GlobInput = z.infer<typeof GlobInput>;

/** Structured result (observed Claude Code transcripts `toolUseResult` of Glob; the Claude Code tools reference). */
export interface GlobOutput {
  /** Matching paths as shown to the model (relative to the cwd when inside it), in mtime order. */
  filenames: string[];
  durationMs: number;
  numFiles: number;
  truncated: boolean;
  /** Files that matched in total (≥ numFiles). */
  totalMatches: number;
  /** Present and true when the time limit cut the listing short. */
  timedOut?: boolean;
  /** Which end of the mtime order comes first (named in the truncation note). */
  order: MtimeOrder;
}

/** Options of a Glob tool instance (tests force the JavaScript fallback with `engine: 'javascript'`). */
export type GlobToolOptions = ResolveSearchEngineOptions;

const prompt = readFileSync(new URL('./glob.prompt.md', import.meta.url), 'utf8').trim();

/** The directory a call really searches (symlinks resolved) and the pattern left to match under it. */
function resolveGlob(input: GlobInput, context: ToolUseContext): GlobSearchPlan {
  return planGlobSearch(input.pattern, input.path, describeWorldOf(context));
}

/** Builds a Glob tool. */
export function createGlobTool(options: GlobToolOptions = {}) {
  const engine = searchEngineProvider(options);
  return buildTool({
    name: 'Glob',
    description: prompt,
    inputSchema: GlobInput,
    isReadOnly: globDescriber.isReadOnly,
    isConcurrencySafe: () => true,
    userFacingName: () => 'Search',
    toAutoClassifierInput: globDescriber.toAutoClassifierInput,

    async validateInput(input: GlobInput, context) {
      const badPath = input.path === undefined ? undefined : invalidPathMessage('path', input.path);
      if (badPath) return { ok: false, field: 'path', message: badPath };
      if (hasNullByte(input.pattern) || hasNullByte(input.path)) {
        return {
          ok: false,
          message: 'The pattern and path must not contain NUL characters. Remove them and retry.',
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
          message: `Directory does not exist: ${input.path}. The current working directory is ${cwd}; pass an existing directory as path, or omit path to search the working directory.`,
        };
      }
      if (kind !== 'directory') {
        return {
          ok: false,
          field: 'path',
          message: `Path is not a directory: ${abs}. Glob's path must be the directory to search in; pass its parent directory as path and the file name as pattern, or use Read to open the file.`,
        };
      }
      return { ok: true };
    },

    async describeCall(input: GlobInput, context): Promise<CallDescription> {
      return globDescriber.describe(input, describeWorldOf(context));
    },

    async *call(input: GlobInput, context) {
      const started = Date.now();
      const order = compatChoice<MtimeOrder>(
        context,
        'globSortOrder',
        ['oldest-first', 'newest-first'],
        'oldest-first',
      );
      const limit = compatChoice(context, 'globMaxResults', isNonNegativeInteger, GLOB_MAX_RESULTS);
      const timeoutMs = compatChoice(context, 'globTimeoutMs', isNonNegativeInteger, GLOB_TIMEOUT_MS);
      const respectIgnore = compatChoice(context, 'globRespectGitignore', [true, false], false);
      const includeVcs = compatChoice(context, 'globIncludeVcsDirs', [true, false], false);
      const pathStyle = compatChoice(
        context,
        'searchPathStyle',
        ['relative', 'absolute'] as const,
        'relative',
      );
      const { root, relPattern } = resolveGlob(input, context);
      assertPermittedPath(context, root, root);
      const ranked = new RankedFiles(limit, order);
      let timedOut = false;
      // The search reads the root through a descriptor verified to be the checked directory.
      let dir: CheckedDirectory | undefined;
      if (pathKind(root) === 'directory') dir = await openCheckedDirectory(root);
      try {
        if (dir) {
          const io = dir.ioPath;
          const outcome = await listFiles(await engine(), {
            root,
            ioRoot: io,
            pattern: relPattern,
            caseInsensitive: process.platform === 'darwin' || process.platform === 'win32',
            respectIgnore,
            excludeDirs: vcsDirectoriesToExclude(relPattern, includeVcs),
            signal: context.abortController.signal,
            timeoutMs,
            wantMtime: true,
            // The mtime comes with the listing when it can (GNU find); else a stat inside the checked
            // root. Files are ranked by their path relative to the root (the same order as the
            // absolute paths, which only the kept ones are turned into below).
            onFile: (rel, mtimeMs) => {
              ranked.offer(rel, mtimeMs ?? mtimeOf(`${io}/${rel}`));
              return true;
            },
          });
          timedOut = outcome.timedOut;
        }
      } finally {
        await dir?.close();
      }
      const cwd = resolvedCwd(context);
      const prefix = root === '/' ? '' : root;
      const filenames = ranked.sorted().map((f) => formatResultPath(`${prefix}/${f.path}`, cwd, pathStyle));
      const data: GlobOutput = {
        filenames,
        durationMs: Date.now() - started,
        numFiles: filenames.length,
        truncated: ranked.total > filenames.length,
        totalMatches: ranked.total,
        order,
        ...(timedOut ? { timedOut: true } : {}),
      };
      return { data };
    },

    mapToolResultToContent(output: GlobOutput) {
      const lines = [...output.filenames];
      if (lines.length === 0) lines.push('No files found');
      if (output.truncated) {
        lines.push(
          `(Results are truncated: showing ${output.numFiles} of ${output.totalMatches} matching files, ${output.order.replace('-', ' ')}. Use a more specific pattern or path to narrow the search.)`,
        );
      }
      if (output.timedOut) {
        lines.push(
          '(The search timed out; these results are incomplete. Search a smaller directory or use a more specific pattern.)',
        );
      }
      return lines.join('\n');
    },
  });
}

/** The Glob tool with the default engine (ripgrep when available). */
export const GlobTool = createGlobTool();
