/**
 * Destructive-floor rows about the machine itself: removing or recursively re-permissioning `/`,
 * the home directory or their top-level children; creating filesystems on and writing raw to block
 * devices; fork bombs; piping a secret into a network effect. All deny at the standard level.
 */
import type { Effect } from '../effects.js';
import { matchProtectedPath } from '../protected-paths.js';
import { matchSecretFile } from '../secret-files.js';
import {
  effectsOf,
  type FloorCall,
  type FloorContext,
  type FloorSub,
  globBase,
  hasFlag,
  isRootOrHome,
  isTopLevelChild,
  isWorkingDir,
  operands,
  removalScope,
} from './call.js';
import type { FloorMatch, FloorRow } from './types.js';

/** The target as named and as resolved through symlinks. */
function targets(e: Effect, ctx: FloorContext): string[] {
  const r = ctx.realpath?.(e.target);
  return r && r !== e.target ? [e.target, r] : [e.target];
}

const subAt = (call: FloorCall, e: Effect): FloorSub | undefined =>
  e.subcommand === undefined ? undefined : call.subs[e.subcommand];

/** Block devices and raw memory: writing them destroys a disk (or the running system). */
const BLOCK_DEVICE =
  /^\/dev\/(?:(?:sd|hd|vd|xvd)[a-z]|nvme\d|mmcblk\d|md\d|dm-\d|loop\d|nbd\d|sr\d|disk\/|mapper\/|mem$|kmem$|port$)/;

export const isBlockDevice = (p: string): boolean => BLOCK_DEVICE.test(p);

const removeRootOrHome: FloorRow = {
  id: 'remove-root-or-home',
  level: 'deny',
  needs: { effects: ['delete'] },
  reason: 'removing / or the home directory destroys the system or every file the user owns',
  match(call) {
    const out: FloorMatch[] = [];
    for (const e of call.effects) {
      if (e.kind !== 'delete' || e.certainty !== 'known') continue;
      if (removalScope(subAt(call, e), e) === 'filtered') continue;
      const t = targets(e, call.ctx).find((p) => isRootOrHome(p, call.ctx));
      if (t)
        out.push({
          ...(e.subcommand !== undefined ? { subcommand: e.subcommand } : {}),
          what: `removes ${t}`,
        });
    }
    return out;
  },
};

const removeTopLevel: FloorRow = {
  id: 'remove-top-level',
  level: 'deny',
  needs: { effects: ['delete'] },
  reason:
    "recursively removing a top-level directory of / or of the home directory (/usr, ~/.ssh, ~/Documents, or everything matched by /* or ~/*) destroys the system or large parts of the user's files",
  match(call) {
    const out: FloorMatch[] = [];
    for (const e of call.effects) {
      if (e.kind !== 'delete' || removalScope(subAt(call, e), e) !== 'tree') continue;
      const at = e.subcommand !== undefined ? { subcommand: e.subcommand } : {};
      const base = globBase(e.target);
      if (base !== undefined && isRootOrHome(base, call.ctx)) {
        out.push({ ...at, what: `recursively removes everything matching ${e.target}` });
        continue;
      }
      if (e.certainty !== 'known') continue;
      // A working directory that happens to sit at the top of home (`~/project`) is the project
      // root: asked by recursive-removal-outside, not refused here.
      const t = targets(e, call.ctx).find((p) => isTopLevelChild(p, call.ctx) && !isWorkingDir(p, call.ctx));
      if (t) out.push({ ...at, what: `recursively removes ${t}` });
    }
    return out;
  },
};

const MODE_PROGRAMS = new Set(['chmod', 'chown', 'chgrp', 'setfacl', 'chattr']);

const recursiveModeChange: FloorRow = {
  id: 'recursive-mode-change',
  level: 'deny',
  needs: { programs: [...MODE_PROGRAMS] },
  reason:
    'recursively changing permissions or ownership of /, the home directory or their top-level children breaks the system (sudo, ssh and services check them) or exposes every file',
  match(call) {
    const out: FloorMatch[] = [];
    for (const s of call.subs) {
      if (!MODE_PROGRAMS.has(s.name) || !hasFlag(s.args, 'R', 'recursive')) continue;
      for (const e of effectsOf(call, s.index)) {
        if (e.kind !== 'write') continue;
        const base = globBase(e.target);
        const hit =
          (base !== undefined && isRootOrHome(base, call.ctx)) ||
          (e.certainty === 'known' &&
            targets(e, call.ctx).some((p) => isRootOrHome(p, call.ctx) || isTopLevelChild(p, call.ctx)));
        if (hit) out.push({ subcommand: s.index, what: `${s.name} -R on ${e.target}` });
      }
    }
    return out;
  },
};

const blockDeviceWrite: FloorRow = {
  id: 'block-device-write',
  level: 'deny',
  needs: { effects: ['write', 'delete'] },
  reason: 'writing raw to a block device (dd of=/dev/sda, > /dev/nvme0n1, shred /dev/…) overwrites a disk',
  match(call) {
    const out: FloorMatch[] = [];
    for (const e of call.effects) {
      if ((e.kind !== 'write' && e.kind !== 'delete') || e.certainty !== 'known') continue;
      const t = targets(e, call.ctx).find(isBlockDevice);
      if (t)
        out.push({
          ...(e.subcommand !== undefined ? { subcommand: e.subcommand } : {}),
          what: `writes the block device ${t}${e.detail ? ` (${e.detail})` : ''}`,
        });
    }
    return out;
  },
};

/** Programs that create a filesystem or erase signatures on what they are given. */
const FS_CREATORS = /^(?:mkfs(?:\..+)?|mke2fs|mkswap|mkdosfs|mkntfs|mkexfatfs|wipefs|blkdiscard)$/;

const filesystemCreation: FloorRow = {
  id: 'filesystem-creation',
  level: 'deny',
  needs: { programs: FS_CREATORS },
  reason:
    'creating a filesystem or wiping signatures (mkfs, mkswap, wipefs, blkdiscard) on a device erases it; on an image file inside the project it is an ordinary write',
  match(call) {
    const out: FloorMatch[] = [];
    for (const s of call.subs) {
      if (!FS_CREATORS.test(s.name)) continue;
      const ops = operands(s.args);
      const device = ops.find((o) => o.startsWith('/dev/') || o.includes('$') || o.includes('`'));
      const resolved = ops.map((o) => call.ctx.realpath?.(o) ?? o).find(isBlockDevice);
      if (device ?? resolved) out.push({ subcommand: s.index, what: `${s.name} ${device ?? resolved}` });
    }
    return out;
  },
};

/** Does function `from` call (directly or through others) function `to`? (call graph of bodies) */
function reaches(bodies: ReadonlyMap<string, FloorSub[]>, from: string, to: string): boolean {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length) {
    const f = stack.pop() as string;
    for (const s of bodies.get(f) ?? []) {
      if (!bodies.has(s.info.program)) continue;
      if (s.info.program === to) return true;
      if (!seen.has(s.info.program)) {
        seen.add(s.info.program);
        stack.push(s.info.program);
      }
    }
  }
  return false;
}

/** Interpreter one-liners that fork in a loop (`perl -e 'fork while fork'`, `os.fork()` in `while`). */
const INTERPRETER_FORK = /\bfork\b/;
const INTERPRETER_LOOP = /\b(?:while|for|loop|until)\b/;
export const INTERPRETERS = /^(?:perl|python[0-9.]*|ruby|node|php|bash|sh|zsh)$/;

const forkBomb: FloorRow = {
  id: 'fork-bomb',
  level: 'deny',
  reason:
    'a function that calls itself more than once per call, or in the background or a pipe, multiplies processes until the machine stops responding (a fork bomb)',
  match(call) {
    const out: FloorMatch[] = [];
    if (!call.subs.some((s) => s.info.inFunction !== undefined || INTERPRETERS.test(s.name))) return out;
    // Call graph of shell functions: body of F → functions it calls.
    const bodies = new Map<string, FloorSub[]>();
    for (const s of call.subs) {
      const f = s.info.inFunction;
      if (f === undefined) continue;
      const list = bodies.get(f) ?? [];
      list.push(s);
      bodies.set(f, list);
    }
    for (const [f, body] of bodies) {
      // Calls in F's body that lead back to F.
      const recursive = body.filter(
        (s) => bodies.has(s.info.program) && (s.info.program === f || reaches(bodies, s.info.program, f)),
      );
      if (recursive.length === 0) continue;
      const spawning =
        recursive.length >= 2 ||
        recursive.some((s) => s.info.background || s.info.connector === '|' || s.info.via === 'pipeline');
      const invoked = call.subs.some((s) => s.info.program === f && s.info.inFunction !== f);
      if (spawning && invoked)
        out.push({ subcommand: recursive[0]?.index ?? 0, what: `function ${f} spawns copies of itself` });
    }
    for (const s of call.subs) {
      if (!INTERPRETERS.test(s.name)) continue;
      const code = s.args.filter((a) => INTERPRETER_FORK.test(a) && INTERPRETER_LOOP.test(a));
      if (code.length && s.args.some((a) => a === '-e' || a === '-c' || a === '-E' || a === '-r'))
        out.push({ subcommand: s.index, what: `${s.name} one-liner forks in a loop` });
    }
    return out;
  },
};

/** Finding ids of the shell analysis that mark a whole-environment dump or a secret variable printed. */
export const SECRET_FINDING_IDS: ReadonlySet<string> = new Set(['ENVIRONMENT_DUMP', 'SECRET_VARIABLE']);

/** Sub-commands whose output carries a secret: a secret or protected credential file read, an env dump. */
function secretSources(call: FloorCall): Map<number, string> {
  const out = new Map<number, string>();
  for (const e of call.effects) {
    if (e.kind !== 'read' || e.certainty !== 'known' || e.subcommand === undefined) continue;
    if (e.source === 'program' || e.source === 'cwd') continue;
    const secret = targets(e, call.ctx)
      .map((p) => matchSecretFile(p, call.ctx.home)?.label ?? credentialProtected(p))
      .find(Boolean);
    if (secret) out.set(e.subcommand, `${e.target} (${secret})`);
  }
  for (const f of call.input.findings)
    if (SECRET_FINDING_IDS.has(f.id) && f.subcommand !== undefined && !out.has(f.subcommand))
      out.set(f.subcommand, f.id === 'ENVIRONMENT_DUMP' ? 'the whole environment' : 'a secret variable');
  return out;
}

/**
 * Protected files of the deny class (credentials, registry and shell start-up files, which often
 * export tokens). Key directories (`.ssh`, `.gnupg`) are left to the secret-file list, which knows
 * their public parts (`id_rsa.pub`, `known_hosts`).
 */
function credentialProtected(p: string): string | undefined {
  const m = matchProtectedPath(p);
  if (m?.entry.class !== 'deny' || m.entry.name === '.ssh' || m.entry.name === '.gnupg') return undefined;
  return m.entry.why;
}

const SUBSTITUTION_VIA = /^(?:\$\(\)|backtick|<\(\)|>\(\))/;

/** Does the output of sub-command `from` reach sub-command `to` (same command, a pipe, a substitution)? */
function flowsInto(call: FloorCall, from: number, to: number): boolean {
  if (from === to) return true;
  if (to < from) return false;
  const src = call.subs[from];
  if (!src) return false;
  if (SUBSTITUTION_VIA.test(src.info.via)) {
    // A substitution body is emitted before the command that uses its output.
    for (let k = from + 1; k <= to; k++) {
      const s = call.subs[k];
      if (s && !SUBSTITUTION_VIA.test(s.info.via)) return k === to || flowsInto(call, k, to);
    }
    return false;
  }
  for (let k = from + 1; k <= to; k++) {
    const s = call.subs[k];
    if (!s) return false;
    if (SUBSTITUTION_VIA.test(s.info.via)) continue;
    if (s.info.connector !== '|' && s.info.connector !== '|&') return false;
  }
  return true;
}

const secretToNetwork: FloorRow = {
  id: 'secret-to-network',
  level: 'deny',
  needs: { effects: ['network'] },
  reason:
    'sending a credential file or the environment to the network (cat ~/.ssh/id_rsa | curl -d @-, env | nc …) leaks it to whoever listens',
  match(call) {
    const sinks = call.effects.filter((e) => e.kind === 'network' && e.subcommand !== undefined);
    if (!sinks.length) return [];
    const sources = secretSources(call);
    if (!sources.size) return [];
    const out: FloorMatch[] = [];
    for (const [from, what] of sources)
      for (const n of sinks)
        if (flowsInto(call, from, n.subcommand as number)) {
          out.push({
            subcommand: n.subcommand as number,
            what: `${what} flows into network access (${n.target})`,
          });
          break;
        }
    return out;
  },
};

export const FILESYSTEM_ROWS: readonly FloorRow[] = [
  removeRootOrHome,
  removeTopLevel,
  recursiveModeChange,
  blockDeviceWrite,
  filesystemCreation,
  forkBomb,
  secretToNetwork,
];
