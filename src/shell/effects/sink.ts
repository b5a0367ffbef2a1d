/**
 * Collects the effects of one sub-command and turns words into absolute targets.
 *
 * Path resolution of a word: `$HOME`/`${HOME}`/`$PWD`/`${PWD}` are substituted; any other
 * expansion → `unknown` (target = the word as written) → unquoted brace expansion expanded
 * statically (brace-expand.ts) → `~`, `..` and relative paths resolved against the tracked cwd
 * (`expandPath`; relative with an unknown cwd → `unknown`) → symlinks created earlier in the same
 * command line (`ln -s`) and then the injectable `PathResolver` applied. When the resolved path
 * differs from the path as written, both are reported (a deny rule applies if either matches;
 * the Claude Code permissions docs "Symlinks").
 *
 * Globs: a glob read is reported as the absolute pattern (`/p/src/*.ts`, certainty known, detail
 * "glob") when no glob segment can match a dot-file and no `..` follows a glob segment; anything
 * else (glob writes/deletes, `.e*`, `[.]env`, `*\/..`) is `unknown`. `/dev/null`, `/dev/std*`,
 * `/dev/tty`, `/dev/fd/N` and `-` are not files and produce no effect.
 *
 * Source: docs/architecture.md; docs/security-round-2.md; the Claude Code permissions docs (redirect targets with globs
 * need approval).
 */
import type { Effect, EffectCertainty, EffectKind, EffectSource } from '../../core/effects.js';
import type { GitRepositoryInfo } from '../../core/permission-types.js';
import { expandPath, isPathInside, type PathResolver } from '../../core/paths.js';
import type { Word } from '../types.js';
import { expandBraceText } from '../brace-expand.js';

/** The world shared by all sub-commands of one command line. */
export interface EffectEnv {
  home: string;
  resolver: PathResolver;
  /** Symlinks created earlier in this command line (`ln -s T L`): absolute link → absolute target. */
  createdLinks: Map<string, string>;
  /**
   * `GIT_DIR`/`GIT_WORK_TREE` assigned earlier in the line (`export GIT_DIR=…; git log`): name →
   * value as written (dynamic values keep their `$`). Optional; absent means none.
   */
  gitEnv?: Map<string, { value: string; dynamic: boolean }>;
}

const NOT_FILES = /^\/dev\/(null|stdin|stdout|stderr|tty|fd\/\d+|zero|random|urandom|full)$/;

/** A path operand: a Word from the parser, or a literal (option value) with its dynamism. */
export type PathInput =
  | Word
  | { text: string; raw?: string; dynamic?: boolean; hasGlob?: boolean; braceExpansion?: boolean };

export interface ResolvedTargets {
  /** Absolute targets (resolved), possibly several after brace expansion. */
  targets: { target: string; literal?: string; glob: boolean; safeGlob: boolean }[];
  /** Set when the word cannot be resolved statically; the raw text. */
  unknown?: string;
}

function substituteKnownVariables(text: string, home: string, cwd: string | undefined): string {
  let t = text.replace(/\$\{HOME\}|\$HOME(?![A-Za-z0-9_])/g, home);
  if (cwd !== undefined) t = t.replace(/\$\{PWD\}|\$PWD(?![A-Za-z0-9_])/g, cwd);
  return t;
}

/** True when a glob pattern path cannot match a dot-file and no `..` follows a glob segment. */
function globIsSafe(pattern: string): boolean {
  let sawGlob = false;
  for (const seg of pattern.split('/')) {
    const isGlob = /[*?[]/.test(seg);
    if (isGlob && (seg.startsWith('.') || seg.startsWith('['))) return false;
    if (sawGlob && seg === '..') return false;
    if (isGlob) sawGlob = true;
  }
  return true;
}

export class EffectSink {
  readonly effects: Effect[] = [];
  /** Set by the git handler: the repository this sub-command runs against. */
  gitRepository?: GitRepositoryInfo;
  private readonly seen = new Set<string>();
  /** `file` calls made so far, by input object (see `file`). */
  private readonly calls = new WeakMap<PathInput, Set<string>>();

  constructor(
    readonly env: EffectEnv,
    /** Working directory of this sub-command (undefined = not statically known). */
    public cwd: string | undefined,
    readonly subcommand: number,
  ) {}

  add(effect: Effect): void {
    const key = `${effect.kind}\u0000${effect.target}\u0000${effect.certainty}\u0000${effect.source}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    // Built field by field: the same fields in the same order as the input, plus the sub-command.
    const e: Effect = {
      kind: effect.kind,
      target: effect.target,
      certainty: effect.certainty,
      source: effect.source,
    };
    if (effect.detail !== undefined) e.detail = effect.detail;
    e.subcommand = this.subcommand;
    this.effects.push(e);
  }

  private effect(
    kind: EffectKind,
    target: string,
    certainty: EffectCertainty,
    source: EffectSource,
    detail?: string,
  ): void {
    const e: Effect = { kind, target, certainty, source };
    if (detail !== undefined) e.detail = detail;
    this.add(e);
  }

  /** Applies links created earlier in the line, then the resolver. */
  private realpath(abs: string): string {
    let p = abs;
    for (let hops = 0; hops < 40 && this.env.createdLinks.size > 0; hops++) {
      let hit: [string, string] | undefined;
      for (const entry of this.env.createdLinks) if (isPathInside(p, entry[0])) hit = entry;
      if (!hit) break;
      const rest = p.slice(hit[0].length);
      p = hit[1] + rest;
    }
    return this.env.resolver.realpath(p);
  }

  /**
   * Tilde prefixes as bash expands them: `~`/`~/x` → home (left to expandPath), `~+` → the cwd,
   * `~-` (OLDPWD) and `~user` → undefined (unknown). A quoted or escaped tilde (the word as written
   * does not start with `~`) is a literal directory named `~` in the cwd.
   */
  private tilde(text: string, raw: string): string | undefined {
    if (!text.startsWith('~')) return text;
    if (!raw.startsWith('~')) return `./${text}`;
    if (text === '~' || text.startsWith('~/')) return text;
    const m = /^~([^/]*)(.*)$/s.exec(text) as RegExpExecArray;
    if (m[1] === '+' && this.cwd !== undefined) return `${this.cwd}${m[2] ?? ''}`;
    return undefined;
  }

  /** Absolute path of a static path text (no symlink resolution), or undefined when the cwd is unknown. */
  absolute(text0: string): string | undefined {
    const text = this.tilde(text0, text0);
    if (text === undefined) return undefined;
    if (
      this.cwd === undefined &&
      !text.startsWith('/') &&
      !text.startsWith('~') &&
      !text.startsWith('file://')
    )
      return undefined;
    return expandPath(text, { cwd: this.cwd ?? '/', home: this.env.home });
  }

  /** Resolves a path word to targets (see the module comment). */
  resolve(input: PathInput): ResolvedTargets {
    let text = input.text;
    const raw = input.raw ?? text;
    if (input.dynamic) {
      text = substituteKnownVariables(text, this.env.home, this.cwd);
      if (/[$`]/.test(text)) return { targets: [], unknown: raw };
    }
    let texts = [text];
    if (input.braceExpansion) {
      const expanded = expandBraceText(text);
      if (!expanded) return { targets: [], unknown: raw };
      texts = expanded;
    }
    const out: ResolvedTargets = { targets: [] };
    for (const text0 of texts) {
      if (text0 === '') continue;
      const t = this.tilde(text0, raw);
      if (t === undefined) return { targets: [], unknown: raw };
      const abs = this.absolute(t);
      if (abs === undefined) return { targets: [], unknown: raw };
      const glob = Boolean(input.hasGlob) && /[*?[]/.test(t);
      const real = this.realpath(abs);
      const entry: ResolvedTargets['targets'][number] = {
        target: real,
        glob,
        safeGlob: glob && globIsSafe(abs),
      };
      if (real !== abs) entry.literal = abs;
      out.targets.push(entry);
    }
    return out;
  }

  /**
   * Whether a path word names an existing directory: `true` for `/`, `.`, `..`, a trailing `/`,
   * the home directory and the cwd; otherwise the resolver's answer (`PathResolver.isDirectory`,
   * a stat); `undefined` when the word or the answer is unknown (callers then assume both).
   */
  isDirectory(input: PathInput): boolean | undefined {
    const text = input.text;
    if (!input.dynamic && (/\/$/.test(text) || ['.', '..', '/'].includes(text) || /\/\.\.?$/.test(text)))
      return true;
    const r = this.resolve(input);
    if (r.unknown !== undefined || r.targets.length !== 1) return undefined;
    const t = r.targets[0] as ResolvedTargets['targets'][number];
    if (t.glob) return undefined;
    if (t.target === this.realpath(expandPath(this.env.home, { cwd: '/' }))) return true;
    if (this.cwd !== undefined && t.target === this.realpath(this.cwd)) return true;
    return this.env.resolver.isDirectory?.(t.target);
  }

  /**
   * Records a file effect for a path word. Writes/deletes through globs and unresolvable words are
   * `unknown`; reads through a safe glob are the absolute pattern.
   */
  file(kind: EffectKind, input: PathInput, source: EffectSource, detail?: string): void {
    if (input.text === '-' || NOT_FILES.test(input.text)) return;
    // The same call again (the same Word: brace expansion hands out one Word per distinct result)
    // adds only effects `add` drops as duplicates: the result depends on the input, the cwd and
    // the links created so far (only ever added to), nothing else.
    const call = `${kind}\u0000${source}\u0000${detail ?? ''}\u0000${this.cwd ?? '\u0001'}\u0000${this.env.createdLinks.size}`;
    const made = this.calls.get(input);
    if (made?.has(call)) return;
    if (made) made.add(call);
    else this.calls.set(input, new Set([call]));
    const r = this.resolve(input);
    if (r.unknown !== undefined) {
      this.effect(kind, r.unknown, 'unknown', source, detail);
      return;
    }
    for (const t of r.targets) {
      if (NOT_FILES.test(t.target)) continue;
      const certain: EffectCertainty = !t.glob || (kind === 'read' && t.safeGlob) ? 'known' : 'unknown';
      const d = t.glob ? `${detail ?? ''}${detail ? ' ' : ''}(glob)` : detail;
      this.effect(kind, t.target, certain, source, d);
      if (t.literal !== undefined)
        this.effect(
          kind,
          t.literal,
          certain,
          source,
          `${d ?? ''}${d ? ' ' : ''}(path as written; a symlink)`,
        );
    }
  }

  /** An effect whose target is not a path word (a program, a host, a summary). */
  other(
    kind: EffectKind,
    target: string,
    certainty: EffectCertainty,
    source: EffectSource,
    detail?: string,
  ): void {
    this.effect(kind, target, certainty, source, detail);
  }

  /** A file effect on an already absolute or relative literal path (option values computed by handlers). */
  literal(kind: EffectKind, text: string, source: EffectSource, detail?: string): void {
    this.file(kind, { text }, source, detail);
  }
}
