/**
 * Remembered answers to "use the MCP servers of this project's `.mcp.json`?" (interactive sessions
 * only; `gantry -p` uses project servers without asking, as Claude Code's print mode does).
 *
 * File: `~/.gantry/mcp-project-approvals.json`
 * ```json
 * { "version": 1, "projects": { "/abs/project": { "github": { "decision": "approved",
 *   "configHash": "sha256:…", "at": "2026-12-01T10:00:00.000Z" } } } }
 * ```
 * The hash covers the server's entry as written (before variable expansion), so an entry that the
 * repository later changes (another command, another URL) is asked about again.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { isObject, readJsonFile, writeJsonFile } from './json-file.js';

export type ApprovalDecision = 'approved' | 'rejected';

/** Stable JSON (sorted keys) for hashing. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (isObject(value))
    return `{${Object.keys(value)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k])}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

/** `sha256:<hex>` of the canonical JSON of `value`. */
export function hashJson(value: unknown): string {
  return `sha256:${createHash('sha256').update(canonicalJson(value)).digest('hex')}`;
}

export interface ProjectApprovalStore {
  readonly file: string;
  /** The remembered decision for this server entry, or undefined (never asked, or the entry changed). */
  get(projectRoot: string, server: string, rawEntry: unknown): ApprovalDecision | undefined;
  /** Remembers a decision. Throws on I/O errors. */
  set(projectRoot: string, server: string, rawEntry: unknown, decision: ApprovalDecision): void;
}

/** The store under `<gantryHome>` (default `~/.gantry`). */
export function projectApprovalStore(gantryHome: string): ProjectApprovalStore {
  const file = path.join(gantryHome, 'mcp-project-approvals.json');
  const load = (): Record<string, Record<string, unknown>> => {
    const { value } = readJsonFile(file);
    if (!isObject(value) || !isObject(value.projects)) return {};
    return value.projects as Record<string, Record<string, unknown>>;
  };
  return {
    file,
    get(projectRoot, server, rawEntry) {
      const projects = load();
      const forProject = Object.hasOwn(projects, projectRoot) ? projects[projectRoot] : undefined;
      if (!isObject(forProject) || !Object.hasOwn(forProject, server)) return undefined;
      const record = forProject[server];
      if (!isObject(record) || record.configHash !== hashJson(rawEntry)) return undefined;
      return record.decision === 'approved' || record.decision === 'rejected' ? record.decision : undefined;
    },
    set(projectRoot, server, rawEntry, decision) {
      const projects = load();
      const forProject = isObject(projects[projectRoot]) ? { ...projects[projectRoot] } : {};
      forProject[server] = { decision, configHash: hashJson(rawEntry), at: new Date().toISOString() };
      writeJsonFile(file, { version: 1, projects: { ...projects, [projectRoot]: forProject } });
    },
  };
}
