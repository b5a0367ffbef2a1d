/**
 * The filesystem boundary of one sandboxed command, as an ordered list of mount operations for
 * bubblewrap (the Claude Code sandboxing docs).
 *
 * Sequence: resolve every configured path (settings-root rules, then symlinks) → writable binds
 * for the working directories, `allowWrite`, the session temp dir and the harness's files → over
 * them, read-only binds for protected paths that exist at the top of each writable directory and of
 * the cwd and its ancestors inside them (protected-paths.ts: shell rc files, `.git/hooks`,
 * `.git/config`, `.claude/`, `.mcp.json`, `.env*` …), and for `denyWrite` → `denyRead` regions
 * hidden (empty read-only tmpfs over a directory, /dev/null over a file), `allowRead` re-bound
 * inside them → everything else stays read-only (`--ro-bind / /`, set by the caller).
 *
 * Ordering rule: operations are applied shallow → deep, so the more specific path wins; at the same
 * path, deny beats allow (siblings at one depth are ordered by path, so the plan is deterministic). tmpfs masks are remounted read-only at the very end (so deeper binds can
 * still create their mount points inside them).
 *
 * Known limit (documented, not silently ignored): a protected name that does NOT exist yet inside a
 * writable directory (a new `.envrc`, `.mcp.json`, `.git/`) cannot be blocked by a bind mount
 * without creating a placeholder in the user's tree, which we never do. Such creations are detected
 * after the command by {@link snapshotProtected}/{@link diffProtected} and reported in the result.
 */
import { lstatSync, readdirSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { isInsideAny, isPathInside } from '../core/paths.js';
import {
  GIT_PLANTING_NAMES,
  PROTECTED_DIR_ENTRIES,
  PROTECTED_DIR_EXCEPTIONS,
  PROTECTED_FILE_ENTRIES,
  type ProtectedPathEntry,
  protectedNameMatches,
  SANDBOX_GIT_PROTECTED,
} from '../core/protected-paths.js';
import {
  DEFAULT_SANDBOX_DENY_READ,
  resolveSandboxPath,
  type SandboxSettings,
} from '../core/sandbox-settings.js';

/** One mount operation (rendered by bwrap-args.ts). */
export type MountOp =
  | { op: 'bind'; path: string }
  | { op: 'ro-bind'; path: string; why: string }
  | { op: 'mask-dir'; path: string }
  | { op: 'mask-file'; path: string };

/** What a read-only bind or a mask protects, for violation messages. */
export interface ProtectedRecord {
  path: string;
  why: string;
}

/** The computed boundary. */
export interface FilesystemPlan {
  /** Mount operations in application order (see the module comment). */
  ops: MountOp[];
  /** Writable directories (real paths) that exist and are bound writable (harness files not listed). */
  writable: string[];
  /** Read-only islands inside writable areas, with the reason (protected name or denyWrite). */
  readOnly: ProtectedRecord[];
  /** Hidden (denyRead) paths that exist. */
  hidden: string[];
  /** Directories whose top level was scanned for protected names (for the post-run audit). */
  anchors: string[];
}

export interface FilesystemPlanInput {
  settings: SandboxSettings;
  /** Project root and additional working directories (absolute). */
  workingDirectories: readonly string[];
  /** Directory the command starts in (absolute). */
  cwd: string;
  /** Per-session temp dir (exists; exported as TMPDIR). */
  sessionTmpDir: string;
  /** Files the harness must be able to write (exist). */
  harnessFiles: readonly string[];
  /**
   * Home directories: the first resolves `~` in the settings; every one gets the default `denyRead`
   * list (the real home and the command's `$HOME` may differ).
   */
  homes: readonly string[];
  /** Root for relative settings paths (the project root). */
  settingsRoot: string;
  /**
   * Paths of the harness that must stay read-only even when a writable directory contains them
   * (the session root with the seccomp program and the proxy socket, when the project is under
   * the temp dir). Their writable parts (the session TMPDIR) are deeper and stay writable.
   */
  harnessReadOnly?: readonly string[];
}

/** Real path (symlinks resolved by the kernel), or undefined when the path does not exist. */
function realpathOrUndefined(p: string): string | undefined {
  try {
    return realpathSync.native(p);
  } catch {
    return undefined;
  }
}

function entryIsDir(p: string): boolean | undefined {
  try {
    return lstatSync(p).isDirectory();
  } catch {
    return undefined;
  }
}

/** Protected names at the top level of `dir`: [absolute path, entry] pairs for what exists. */
export function protectedEntriesIn(
  dir: string,
): { path: string; entry: ProtectedPathEntry; isDir: boolean }[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: { path: string; entry: ProtectedPathEntry; isDir: boolean }[] = [];
  for (const name of names) {
    const full = path.join(dir, name);
    const dirEntry = PROTECTED_DIR_ENTRIES.find((e) => e.name === name || e.name.startsWith(`${name}/`));
    if (dirEntry) {
      if (dirEntry.name.includes('/')) {
        const nested = path.join(dir, dirEntry.name);
        const isDir = entryIsDir(nested);
        if (isDir !== undefined) out.push({ path: nested, entry: dirEntry, isDir });
      } else {
        out.push({ path: full, entry: dirEntry, isDir: entryIsDir(full) ?? false });
      }
      continue;
    }
    const fileEntry = PROTECTED_FILE_ENTRIES.find((e) => protectedNameMatches(e.name, name));
    if (fileEntry) out.push({ path: full, entry: fileEntry, isDir: entryIsDir(full) ?? false });
  }
  return out;
}

/** Read-only binds for one protected entry that exists (a `.git` directory keeps objects/refs writable). */
function protectOps(found: { path: string; entry: ProtectedPathEntry; isDir: boolean }): ProtectedRecord[] {
  const why = `${found.entry.name}: ${found.entry.why}`;
  if (found.entry.name === '.git' && found.isDir) {
    const out: ProtectedRecord[] = [];
    for (const sub of SANDBOX_GIT_PROTECTED) {
      const p = path.join(found.path, sub);
      if (entryIsDir(p) !== undefined) out.push({ path: p, why: `.git/${sub}: runs code on git operations` });
    }
    let modules: string[] = [];
    try {
      modules = readdirSync(path.join(found.path, 'modules'));
    } catch {
      modules = [];
    }
    for (const m of modules) {
      for (const sub of SANDBOX_GIT_PROTECTED) {
        const p = path.join(found.path, 'modules', m, sub);
        if (entryIsDir(p) !== undefined)
          out.push({ path: p, why: `submodule .git/${sub}: runs code on git operations` });
      }
    }
    return out;
  }
  return [{ path: found.path, why }];
}

/** Cwd and its ancestors that lie inside a writable root, plus the roots themselves. */
function anchorDirs(writableDirs: readonly string[], cwd: string): string[] {
  const anchors = new Set<string>(writableDirs);
  let c = cwd;
  for (;;) {
    if (isInsideAny(c, writableDirs)) anchors.add(c);
    const up = path.dirname(c);
    if (up === c) break;
    c = up;
  }
  return [...anchors];
}

/** True when `dir` has the layout of a git directory (bare repository planting, the Claude Code sandboxing docs). */
function looksLikeGitDir(dir: string): boolean {
  return ['HEAD', 'objects', 'refs'].every((n) => entryIsDir(path.join(dir, n)) !== undefined);
}

const RANK: Record<MountOp['op'], number> = { bind: 0, 'ro-bind': 1, 'mask-dir': 2, 'mask-file': 2 };
const depth = (p: string) => p.split('/').filter(Boolean).length;

/**
 * Computes the plan (see the module comment). Reads the filesystem (lstat, readdir, realpath);
 * never writes. Paths that do not exist are skipped (nothing to bind or hide).
 */
export function planFilesystem(input: FilesystemPlanInput): FilesystemPlan {
  const { settings } = input;
  const home = input.homes[0] ?? '/';
  const resolve = (p: string) => resolveSandboxPath(p, { root: input.settingsRoot, home });
  const real = (p: string) => realpathOrUndefined(p);

  const writableDirs: string[] = [];
  const addWritable = (p: string) => {
    const r = real(p);
    if (r && !writableDirs.includes(r)) writableDirs.push(r);
  };
  for (const d of input.workingDirectories) addWritable(d);
  for (const d of settings.filesystem.allowWrite) addWritable(resolve(d));
  addWritable(input.sessionTmpDir);
  const writableFiles = input.harnessFiles.map((f) => real(f)).filter((f): f is string => !!f);

  const ops: MountOp[] = [];
  for (const w of [...writableDirs, ...writableFiles]) ops.push({ op: 'bind', path: w });

  const readOnly: ProtectedRecord[] = [];
  const addReadOnly = (p: string, why: string) => {
    const r = real(p);
    if (!r || !isInsideAny(r, writableDirs)) return; // already read-only, or gone
    if (readOnly.some((x) => x.path === r)) return;
    readOnly.push({ path: r, why });
    ops.push({ op: 'ro-bind', path: r, why });
  };

  const cwdReal = real(input.cwd) ?? input.cwd;
  const anchors = anchorDirs(writableDirs, cwdReal);
  for (const anchor of anchors) {
    // addReadOnly resolves symlinks: a link at a protected name protects its target (the Claude Code sandboxing docs).
    for (const found of protectedEntriesIn(anchor))
      for (const rec of protectOps(found)) addReadOnly(rec.path, rec.why);
    if (looksLikeGitDir(anchor)) {
      for (const n of GIT_PLANTING_NAMES)
        addReadOnly(path.join(anchor, n), `${n}: git directory layout (runs code)`);
    }
  }
  // Exceptions inside protected directories (`.claude/worktrees`) stay writable.
  for (const anchor of anchors) {
    for (const exception of PROTECTED_DIR_EXCEPTIONS) {
      const r = real(path.join(anchor, exception));
      if (r && isInsideAny(r, writableDirs)) ops.push({ op: 'bind', path: r });
    }
  }
  for (const d of settings.filesystem.denyWrite)
    addReadOnly(resolve(d), 'listed in sandbox.filesystem.denyWrite');
  for (const d of input.harnessReadOnly ?? [])
    addReadOnly(d, "the sandbox's own files (seccomp program, proxy socket)");

  const hidden: string[] = [];
  const denyRead = [
    ...input.homes.flatMap((h) =>
      DEFAULT_SANDBOX_DENY_READ.map((d) => resolveSandboxPath(d, { root: input.settingsRoot, home: h })),
    ),
    ...settings.filesystem.denyRead.flatMap((d) =>
      d.startsWith('~')
        ? input.homes.map((h) => resolveSandboxPath(d, { root: input.settingsRoot, home: h }))
        : [resolve(d)],
    ),
  ];
  for (const d of denyRead) {
    const r = real(d);
    if (!r || hidden.includes(r)) continue;
    hidden.push(r);
    ops.push({ op: entryIsDir(r) ? 'mask-dir' : 'mask-file', path: r });
  }
  for (const d of settings.filesystem.allowRead) {
    const r = real(resolve(d));
    if (r && hidden.some((h) => isPathInside(r, h) && r !== h)) {
      ops.push({ op: 'ro-bind', path: r, why: 'listed in sandbox.filesystem.allowRead' });
    }
  }

  const ordered = ops
    .map((op, index) => ({ op, index }))
    .sort(
      (a, b) =>
        depth(a.op.path) - depth(b.op.path) ||
        (a.op.path < b.op.path ? -1 : a.op.path > b.op.path ? 1 : 0) ||
        RANK[a.op.op] - RANK[b.op.op] ||
        a.index - b.index,
    )
    .map((x) => x.op);
  return { ops: ordered, writable: writableDirs, readOnly, hidden, anchors };
}

/** lstat signature of each protected name at the top of the anchors (for the post-run audit). */
export type ProtectedSnapshot = Map<string, string>;

/** Records which protected names exist at the top of `anchors`, with an identity signature. */
export function snapshotProtected(anchors: readonly string[]): ProtectedSnapshot {
  const snap: ProtectedSnapshot = new Map();
  for (const anchor of anchors) {
    for (const found of protectedEntriesIn(anchor)) {
      try {
        const s = lstatSync(found.path);
        // Directories change mtime whenever something inside changes (git writes .git/index): identity only.
        snap.set(
          found.path,
          s.isDirectory() ? `${s.ino}:${s.mode}` : `${s.ino}:${s.mtimeMs}:${s.size}:${s.mode}`,
        );
      } catch {
        // vanished between readdir and lstat
      }
    }
    for (const n of ['HEAD', 'objects', 'refs']) {
      const p = path.join(anchor, n);
      try {
        const s = lstatSync(p);
        snap.set(p, `${s.ino}:${s.mode}`);
      } catch {
        // absent
      }
    }
  }
  return snap;
}

/** A protected path that appeared or changed while a sandboxed command ran. */
export interface ProtectedChange {
  path: string;
  change: 'created' | 'replaced';
}

/** Protected names created or replaced between two snapshots (deletions are not reported). */
export function diffProtected(before: ProtectedSnapshot, after: ProtectedSnapshot): ProtectedChange[] {
  const out: ProtectedChange[] = [];
  for (const [p, sig] of after) {
    const old = before.get(p);
    if (old === undefined) out.push({ path: p, change: 'created' });
    else if (old !== sig) out.push({ path: p, change: 'replaced' });
  }
  return out;
}
