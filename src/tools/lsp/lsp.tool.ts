/**
 * `LSP`: asks the language server configured for a file about code (definitions, references, hover
 * text, symbols, implementations, call hierarchy), with Claude Code's input (`operation`,
 * `filePath`, 1-based `line` and `character`, `query` for workspaceSymbol). A conditional tool
 * behind the `LSP` feature flag, enabled only when settings configure at least one server
 * (`lspServers`, docs/lsp.md). Read-only and concurrency-safe; its permission is a read of
 * `filePath` (Read rules govern it, so it does not prompt inside the working directories).
 *
 * Sequence of `call`: resolve the path (cwd, `~`, symlinks; must be the path the permission named)
 * → pick the server by extension or file pattern (none → an error naming what is configured) →
 * the session's `lsp:<name>` resource, started on first use or after a crash → sync the file from
 * disk (didOpen / didChange) → check the position against the file → the operation's requests
 * (an empty answer right after the server was shown new text is asked again once the server has
 * published that text's diagnostics, at most 3 s later) →
 * source lines for the locations found → `data` (1-based, absolute paths); the model reads the
 * compact rendering (format.ts).
 *
 * Outside its calls (`reminders.afterCall`): after a successful Edit, MultiEdit, Write or
 * NotebookEdit of a file a configured server handles, the new diagnostics of that file
 * (diagnostics.ts).
 */
import { readFile, stat } from 'node:fs/promises';
import { ResponseError } from 'vscode-jsonrpc/node';
import { z } from 'zod';
import { describeWorldOf } from '../../core/call-describer.js';
import { isAbortError } from '../../core/errors.js';
import { buildTool, ToolExecutionError, ToolInputError } from '../../core/index.js';
import { gantryTraits } from '../../core/tool-traits.js';
import { assertPermittedPath } from '../file-io/checked-open.js';
import { fileNotFoundMessage } from '../file-io/not-found.js';
import { resolveFilePath } from '../file-io/resolve-path.js';
import { LspServerGoneError, LspStartError } from './client.js';
import { describeLspServers, type LspServerConfig, serverForFile } from './config.js';
import { lspDescriber } from './describe.js';
import { diagnosticsAfterEdit } from './diagnostics.js';
import { renderLspOutput } from './format.js';
import { LSP_OPERATIONS, type LspLocationData, type LspOutput, runOperation } from './operations.js';
import { sessionServer } from './session.js';

export type { LspOutput } from './operations.js';

/** Most locations given their source line, and most files read for them. */
const MAX_LINE_TEXTS = 200;
const MAX_LINE_TEXT_FILES = 50;
/** Longest source line shown (characters). */
const MAX_LINE_TEXT_CHARS = 160;
/** Longest wait for a server to finish looking at a text it was just shown (ms). */
const FRESH_TEXT_WAIT_MS = 3_000;

/** True when an answer found nothing at all. */
function isEmpty(out: LspOutput): boolean {
  if (out.hover !== undefined) return out.hover === null;
  if (out.items !== undefined) return out.items.length === 0;
  return (out.locations ?? out.symbols ?? []).length === 0;
}

const LspInput = z.strictObject({
  operation: z
    .enum(LSP_OPERATIONS)
    .describe(
      'What to ask: goToDefinition, findReferences, hover, documentSymbol (the outline of filePath), ' +
        'workspaceSymbol (search symbols by name across the project), goToImplementation, ' +
        'prepareCallHierarchy (the function at the position), incomingCalls (who calls it), outgoingCalls (what it calls).',
    ),
  filePath: z.string().describe('The file to ask about: absolute, or relative to the working directory.'),
  line: z.number().int().min(1).describe('The line of the symbol, 1-based (the numbers Read shows).'),
  character: z.number().int().min(1).describe('The column of the symbol on that line, 1-based.'),
  query: z
    .string()
    .optional()
    .describe(
      'workspaceSymbol only: the name to search for (default: the identifier at line and character).',
    ),
});
export type LspInput = z.infer<typeof LspInput>;

export interface LspToolOptions {
  /** The configured servers (settings `lspServers`, checked by `parseLspServers`). */
  servers?: readonly LspServerConfig[];
  /** The session's environment for the server processes (default `process.env`). */
  env?: Readonly<Record<string, string | undefined>>;
}

function shorten(line: string): string {
  const t = line.trim();
  return t.length > MAX_LINE_TEXT_CHARS ? `${t.slice(0, MAX_LINE_TEXT_CHARS - 1)}…` : t;
}

/** Adds `lineText` to the first locations, reading each file once (the asked file from `text`). */
async function addLineTexts(locations: LspLocationData[], asked: string, text: string): Promise<void> {
  const files = new Map<string, Promise<string[] | undefined>>([
    [asked, Promise.resolve(text.split(/\r?\n/))],
  ]);
  for (const l of locations.slice(0, MAX_LINE_TEXTS)) {
    if (!files.has(l.filePath)) {
      if (files.size >= MAX_LINE_TEXT_FILES || !l.filePath.startsWith('/')) continue;
      files.set(
        l.filePath,
        readFile(l.filePath, 'utf8').then(
          (t) => t.split(/\r?\n/),
          () => undefined,
        ),
      );
    }
    const line = (await files.get(l.filePath))?.[l.line - 1];
    if (line !== undefined && line.trim() !== '') l.lineText = shorten(line);
  }
}

function operationError(server: string, operation: string, e: unknown): Error {
  if (isAbortError(e)) return e as Error;
  if (e instanceof LspServerGoneError)
    return new ToolExecutionError(`${e.message}\nIt is started again on the next LSP call.`);
  if (e instanceof ResponseError)
    return new ToolExecutionError(
      `The LSP server "${server}" answered ${operation} with an error: ${e.message}`,
    );
  if (e instanceof ToolExecutionError || e instanceof ToolInputError) return e;
  return new ToolExecutionError(`The LSP server "${server}" failed on ${operation}: ${(e as Error).message}`);
}

/** Builds the tool for the configured servers (see the module comment). */
export function createLspTool(options: LspToolOptions = {}) {
  const servers = options.servers ?? [];
  const env = options.env;
  return buildTool({
    name: 'LSP',
    aliases: gantryTraits('LSP').aliases,
    description:
      'Ask a language server about code: where a symbol is defined or implemented, every reference to it, ' +
      'its type and documentation (hover), the symbols of a file or of the whole project, and who calls a ' +
      'function or what it calls. Positions are 1-based, like the line numbers Read shows; point at the ' +
      `symbol's name. Works for the file types of the configured servers: ${describeLspServers(servers)}. ` +
      'After you edit such a file, the errors the server finds in it are reported to you.',
    inputSchema: LspInput,
    maxResultSizeChars: 50_000,
    isEnabled: () => servers.length > 0,
    isReadOnly: lspDescriber.isReadOnly,
    isConcurrencySafe: (_input: LspInput) => true,
    userFacingName: () => 'LSP',
    toAutoClassifierInput: lspDescriber.toAutoClassifierInput,
    async describeCall(input: LspInput, context) {
      return lspDescriber.describe(input, describeWorldOf(context));
    },
    reminders: {
      afterCall: (view) => diagnosticsAfterEdit(view, { servers, ...(env ? { env } : {}) }),
    },
    async *call(input: LspInput, context) {
      const p = resolveFilePath(input.filePath, context);
      assertPermittedPath(context, p.resolved, p.absolute);
      const match = serverForFile(servers, p.resolved) ?? serverForFile(servers, p.absolute);
      if (!match)
        throw new ToolExecutionError(
          `No language server is configured for ${input.filePath}. Configured: ${describeLspServers(servers)} (settings "lspServers").`,
        );
      const info = await stat(p.resolved).catch(() => undefined);
      if (!info)
        throw new ToolExecutionError(await fileNotFoundMessage(p.absolute, context.getAppState().cwd));
      if (!info.isFile()) throw new ToolExecutionError(`${input.filePath} is not a regular file.`);

      const server = sessionServer(context.services, match.server, env);
      let client: Awaited<ReturnType<typeof server.ensureStarted>>;
      try {
        client = await server.ensureStarted();
      } catch (e) {
        if (e instanceof LspStartError) throw new ToolExecutionError(e.message);
        throw e;
      }
      const signal = context.abortController.signal;
      let out: LspOutput;
      try {
        const before = server.diagnosticsSeq;
        const synced = await server.sync(client, p.resolved, match.languageId);
        const lines = synced.text.split(/\r?\n/);
        if (input.line > lines.length)
          throw new ToolInputError(
            `line ${input.line} is past the end of ${input.filePath} (${lines.length} lines).`,
            'line',
          );
        const request = {
          operation: input.operation,
          server: match.server.name,
          uri: synced.uri,
          filePath: p.resolved,
          line: input.line,
          character: input.character,
          ...(input.query !== undefined && input.query !== '' ? { query: input.query } : {}),
          text: synced.text,
          signal,
        };
        out = await runOperation(client, request);
        if (synced.changed && isEmpty(out)) {
          // Some servers (bash-language-server) analyse a new text after answering: wait until
          // they have published its diagnostics, then ask once more.
          await server.waitForDiagnostics(synced.uri, before, FRESH_TEXT_WAIT_MS, signal);
          out = await runOperation(client, request);
        }
        if (out.locations) await addLineTexts(out.locations, p.resolved, synced.text);
      } catch (e) {
        throw operationError(match.server.name, input.operation, e);
      }
      return { data: out };
    },
    mapToolResultToContent: (output: LspOutput, meta) =>
      renderLspOutput(output, meta.context.getAppState().cwd),
  });
}
