/**
 * Diagnostics after an edit (docs/lsp.md "Diagnostics after edits"): when Edit, MultiEdit, Write or
 * NotebookEdit changed a file a configured language server handles, the server is shown the new
 * text (started first when it is not running) and the diagnostics it publishes for the file are
 * turned into a short report for the model, added right after the turn's tool results.
 *
 * What is reported: errors and warnings (information and hints are left out), at most
 * {@link MAX_REPORTED_DIAGNOSTICS} lines. Nothing is reported when the file has none and had none
 * before, or when the set is the one already reported for this file; when earlier reported problems
 * are all gone, one line says so. A server that cannot start, or does not publish within its
 * `diagnosticsTimeoutMs`, adds nothing (the LSP tool reports start-up errors when it is used).
 */
import type { Diagnostic } from 'vscode-languageserver-protocol';
import { displayPath, expandPath } from '../../core/paths.js';
import type { AfterCallView } from '../../core/reminders.js';
import { canonicalToolName } from '../../core/tool-traits.js';
import { type LspServerConfig, serverForFile } from './config.js';
import type { LspServer } from './server.js';
import { sessionServer } from './session.js';

/** Most diagnostic lines in one report. */
export const MAX_REPORTED_DIAGNOSTICS = 30;

/** The file tools whose successful calls change a file, and the input field naming it. */
const EDITING_TOOLS: ReadonlyMap<string, string> = new Map([
  ['Edit', 'file_path'],
  ['MultiEdit', 'file_path'],
  ['Write', 'file_path'],
  ['NotebookEdit', 'notebook_path'],
]);

const SEVERITY = ['error', 'warning', 'info', 'hint'] as const;

/** What was last reported per server and file URI (a key of the diagnostics set). */
const reported = new WeakMap<LspServer, Map<string, string>>();

function severityName(d: Diagnostic): string {
  return SEVERITY[(d.severity ?? 1) - 1] ?? 'error';
}

/** One diagnostic as a line: `12:5 error TS2322: message (source)`. */
export function diagnosticLine(d: Diagnostic): string {
  const code =
    d.code !== undefined && d.code !== ''
      ? ` ${typeof d.code === 'number' && d.source === 'typescript' ? `TS${d.code}` : d.code}`
      : '';
  const message = (typeof d.message === 'string' ? d.message : d.message.value)
    .replace(/\s*\n\s*/g, ' ')
    .trim();
  return `${d.range.start.line + 1}:${d.range.start.character + 1} ${severityName(d)}${code}: ${message}${d.source ? ` (${d.source})` : ''}`;
}

/** The errors and warnings of `all`, in file order. */
export function reportable(all: readonly Diagnostic[]): Diagnostic[] {
  return all
    .filter((d) => (d.severity ?? 1) <= 2)
    .sort(
      (a, b) => a.range.start.line - b.range.start.line || a.range.start.character - b.range.start.character,
    );
}

export interface DiagnosticsAfterEditOptions {
  servers: readonly LspServerConfig[];
  env?: Readonly<Record<string, string | undefined>>;
}

/** The report for one call (see the module comment); undefined when there is nothing to say. */
export async function diagnosticsAfterEdit(
  view: AfterCallView,
  options: DiagnosticsAfterEditOptions,
): Promise<string | undefined> {
  const tool = canonicalToolName(view.toolName);
  const field = EDITING_TOOLS.get(tool);
  if (!field || !view.services.resources) return undefined;
  const raw = view.input[field];
  if (typeof raw !== 'string' || raw === '') return undefined;
  const file = expandPath(raw, { cwd: view.cwd });
  const match = serverForFile(options.servers, file);
  if (!match) return undefined;
  const server = sessionServer(view.services, match.server, options.env);
  let client: Awaited<ReturnType<LspServer['ensureStarted']>>;
  try {
    client = await server.ensureStarted();
  } catch {
    return undefined;
  }
  const before = server.diagnosticsSeq;
  const synced = await server.sync(client, file, match.languageId);
  const diagnostics = synced.changed
    ? await server.waitForDiagnostics(synced.uri, before, match.server.diagnosticsTimeoutMs, view.signal)
    : server.diagnosticsFor(synced.uri);
  if (!diagnostics) return undefined;
  const shown = reportable(diagnostics);
  const key = JSON.stringify(shown.map(diagnosticLine));
  const perFile = reported.get(server) ?? new Map<string, string>();
  reported.set(server, perFile);
  const previous = perFile.get(synced.uri);
  perFile.set(synced.uri, key);
  const name = displayPath(file, view.cwd);
  if (!shown.length)
    return previous !== undefined && previous !== '[]'
      ? `The LSP server "${match.server.name}" reports no more errors or warnings in ${name} after this ${tool}.`
      : undefined;
  if (previous === key) return undefined;
  const lines = shown.slice(0, MAX_REPORTED_DIAGNOSTICS).map((d) => `  ${diagnosticLine(d)}`);
  if (shown.length > MAX_REPORTED_DIAGNOSTICS)
    lines.push(`  … and ${shown.length - MAX_REPORTED_DIAGNOSTICS} more`);
  const errors = shown.filter((d) => (d.severity ?? 1) === 1).length;
  const warnings = shown.length - errors;
  const counts = [
    errors ? `${errors} error${errors === 1 ? '' : 's'}` : '',
    warnings ? `${warnings} warning${warnings === 1 ? '' : 's'}` : '',
  ]
    .filter(Boolean)
    .join(' and ');
  return [
    `The LSP server "${match.server.name}" reports ${counts} in ${name} after this ${tool} (line:character, 1-based):`,
    ...lines,
  ].join('\n');
}
