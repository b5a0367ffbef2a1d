/**
 * Which session a run continues or starts, from Claude Code's session flags (Claude Code
 * documentation, "CLI reference", "Manage sessions"), with transcripts under
 * `~/.gantry/projects/<cwd-slug>/<session>.jsonl`:
 *
 * - nothing: a new session (a new UUID, or `--session-id`, which must not be in use yet);
 * - `--continue`: the most recently written transcript of this cwd;
 * - `--resume <id>`: that session of this cwd (or a path to a `.jsonl` transcript);
 * - `--fork-session` with either: the conversation is copied into a new session (a new UUID, or
 *   `--session-id`) whose lines carry the new id; the original file is left unchanged;
 * - `--no-session-persistence`: nothing is written (a resumed session is read, not appended to).
 *
 * Errors are `SessionTargetError`s with what to do next.
 */
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { latestTranscript, projectTranscriptDir, transcriptPathFor } from '../../loop/transcript/paths.js';
import { resumeSession } from '../../loop/transcript/reader.js';
import type { ResumedSession, TranscriptOptions } from '../../loop/types.js';

export class SessionTargetError extends Error {
  override readonly name = 'SessionTargetError';
}

export interface SessionFlags {
  sessionId?: string;
  continue?: boolean;
  resume?: string;
  forkSession?: boolean;
  noSessionPersistence?: boolean;
}

export interface SessionTarget {
  kind: 'new' | 'continue' | 'resume' | 'fork';
  sessionId: string;
  /** The restored session (continue, resume, fork). */
  resume?: ResumedSession;
  transcript: TranscriptOptions;
  /** Where this session's lines go (absent with `--no-session-persistence`). */
  transcriptPath?: string;
  /** Notes for stderr (a torn last line that was skipped, …). */
  notes: string[];
}

export interface SessionWorld {
  cwd: string;
  /** `~/.gantry` (or a test's). */
  gantryHome: string;
}

/** Copies a transcript into a new session's file with every `sessionId` rewritten. */
function forkTranscript(from: string, to: string, newId: string): void {
  const out: string[] = [];
  for (const line of readFileSync(from, 'utf8').split('\n')) {
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      continue;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) continue;
    const obj = parsed as Record<string, unknown>;
    if (typeof obj.sessionId === 'string') obj.sessionId = newId;
    out.push(JSON.stringify(obj));
  }
  mkdirSync(path.dirname(to), { recursive: true, mode: 0o700 });
  const tmp = `${to}.${process.pid}.tmp`;
  writeFileSync(tmp, out.length ? `${out.join('\n')}\n` : '', { mode: 0o600 });
  renameSync(tmp, to);
}

function findResumeFile(id: string, world: SessionWorld): string {
  if (id.endsWith('.jsonl')) {
    const file = path.resolve(world.cwd, id);
    if (existsSync(file)) return file;
    throw new SessionTargetError(`--resume: no transcript at ${file}`);
  }
  if (!/^[A-Za-z0-9._-]+$/.test(id)) throw new SessionTargetError(`--resume: "${id}" is not a session id`);
  const file = transcriptPathFor(world.gantryHome, world.cwd, id);
  if (existsSync(file)) return file;
  throw new SessionTargetError(
    `--resume: no session ${id} for this directory (looked in ${projectTranscriptDir(world.gantryHome, world.cwd)}). Run from the directory the session was started in, or pass the .jsonl path.`,
  );
}

function restore(file: string, notes: string[]): ResumedSession {
  let resumed: ReturnType<typeof resumeSession>;
  try {
    resumed = resumeSession(file);
  } catch (e) {
    throw new SessionTargetError(`cannot resume ${file}: ${(e as Error).message}`);
  }
  const { stats, ...session } = resumed;
  if (stats.malformed)
    notes.push(
      `${file}: ${stats.malformed} unreadable line(s) skipped${stats.tornLastLine ? ' (the last line was cut off)' : ''}`,
    );
  return session;
}

/** Resolves the session flags (see the module comment). */
export function resolveSessionTarget(flags: SessionFlags, world: SessionWorld): SessionTarget {
  const persist = !flags.noSessionPersistence;
  const notes: string[] = [];
  const transcriptFor = (id: string): { transcript: TranscriptOptions; transcriptPath?: string } => {
    if (!persist) return { transcript: { persist: false } };
    const file = transcriptPathFor(world.gantryHome, world.cwd, id);
    return { transcript: { persist: true, path: file }, transcriptPath: file };
  };
  const claimNewId = (): string => {
    const id = flags.sessionId ?? randomUUID();
    if (flags.sessionId && existsSync(transcriptPathFor(world.gantryHome, world.cwd, id)))
      throw new SessionTargetError(`--session-id ${id} is already in use; use --resume ${id} to continue it`);
    return id;
  };

  let source: string | undefined;
  if (flags.continue) {
    source = latestTranscript(world.gantryHome, world.cwd);
    if (!source)
      throw new SessionTargetError(
        `--continue: no earlier session for this directory (${projectTranscriptDir(world.gantryHome, world.cwd)} holds none)`,
      );
  } else if (flags.resume !== undefined) {
    source = findResumeFile(flags.resume, world);
  }

  if (!source) {
    const id = claimNewId();
    return { kind: 'new', sessionId: id, ...transcriptFor(id), notes };
  }

  if (flags.forkSession) {
    const id = claimNewId();
    const original = restore(source, notes);
    if (!persist)
      return {
        kind: 'fork',
        sessionId: id,
        resume: { ...original, sessionId: id },
        transcript: { persist: false },
        notes,
      };
    const file = transcriptPathFor(world.gantryHome, world.cwd, id);
    forkTranscript(source, file, id);
    const resume = restore(file, notes);
    return {
      kind: 'fork',
      sessionId: id,
      resume,
      transcript: { persist: true, path: file },
      transcriptPath: file,
      notes,
    };
  }

  const resume = restore(source, notes);
  const kind = flags.continue ? 'continue' : 'resume';
  if (!persist) return { kind, sessionId: resume.sessionId, resume, transcript: { persist: false }, notes };
  return {
    kind,
    sessionId: resume.sessionId,
    resume,
    transcript: { persist: true, path: source },
    transcriptPath: source,
    notes,
  };
}
