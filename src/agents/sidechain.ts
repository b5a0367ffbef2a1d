/**
 * Where a sub-agent's transcript goes, in Claude Code's layout next to its parent's file:
 *
 *   <dir>/<session>.jsonl                                 the parent (main thread)
 *   <dir>/<session>/subagents/agent-<agentId>.jsonl       the sub-agent's lines (`isSidechain: true`, `agentId`)
 *   <dir>/<session>/subagents/agent-<agentId>.meta.json   what started it and how it ended
 *
 * Nested agents' files go in the same folder (their meta file names the parent agent).
 * Nested agents' files go in the same folder (their meta names the parent agent).
 * The meta file is written atomically (temp file + rename) at the start and again at the end.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A fresh agent id: `a` followed by 16 hex digits (Claude Code's shape). */
export function newAgentId(): string {
  return `a${randomBytes(8).toString('hex')}`;
}

/** The sidechain paths for `agentId` under the parent transcript `parentTranscript` ('' → none). */
export function sidechainPaths(
  parentTranscript: string,
  agentId: string,
): { transcript: string; meta: string } | undefined {
  if (!parentTranscript) return undefined;
  const base = parentTranscript.endsWith('.jsonl')
    ? parentTranscript.slice(0, -'.jsonl'.length)
    : parentTranscript;
  // A nested agent's file sits beside its parent's, in the session's one `subagents/` folder.
  const parentDir = path.dirname(parentTranscript);
  const dir = path.basename(parentDir) === 'subagents' ? parentDir : path.join(base, 'subagents');
  return {
    transcript: path.join(dir, `agent-${agentId}.jsonl`),
    meta: path.join(dir, `agent-${agentId}.meta.json`),
  };
}

/** The meta file's fields. */
export interface SidechainMeta {
  agentType: string;
  isFork?: true;
  isBuiltIn: boolean;
  description: string;
  toolUseId: string;
  parentAgentId?: string;
  spawnDepth: number;
  requestShape: 'foreground' | 'background';
  requestNonInteractive: boolean;
  model: string;
  /** The permission mode it ran in (after narrowing). */
  permissionMode: string;
  /** Set when the requested mode was narrowed. */
  permissionNote?: string;
  worktree?: { path: string; branch: string };
  /** The definition's own MCP servers and how they started. */
  mcpServers?: { name: string; status: string; error?: string }[];
  /** What of the definition's servers and hooks was left out or failed. */
  scopeNotes?: string[];
  finished: boolean;
  status?: 'completed' | 'failed' | 'killed';
  error?: string;
}

/** Writes the meta file atomically. */
export function writeSidechainMeta(file: string, meta: SidechainMeta): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(3).toString('hex')}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(meta, null, 2)}\n`);
  renameSync(tmp, file);
}
