/**
 * Matching a prepared call against one behavior's rules.
 *
 * Deny and ask rules (`matchRestrictive`) look at everything a call touches: the tool name
 * (bare/glob/MCP), parameter rules, every sub-command of a shell call (normalised text; for deny
 * and ask also the command word reduced to its basename, the stripped wrappers put back, and the
 * flag-aware form), Read/Edit path rules over the file effects (lexical or resolved path), and
 * WebFetch domain rules over network effects. Allow rules (`matchShellAllow`, `allowPathCovers`) are
 * stricter: the literal normalised text only, no basename reduction, only transparent wrappers and
 * harmless env assignments in front (docs/security-round-2.md).
 */
import path from 'node:path';
import type { Effect } from '../core/effects.js';
import type { PermissionBehavior, SubcommandInfo } from '../core/permission-types.js';
import type { CallView, FileEffect } from './call-view.js';
import { recursiveRead, ruleCertainlyBelow } from './recursive-reads.js';
import { hostOf } from './rules/domain-pattern.js';
import { globsOverlap } from './rules/glob-overlap.js';
import type { CompiledRule, RuleSet } from './rules/rule-set.js';
import { flagAwareMatch, matchShellPattern, type ShellPattern } from './rules/shell-pattern.js';

export interface RuleHit {
  rule: CompiledRule;
  /** What matched, for the explanation (`sub-command "rm -rf build"`, `read of /p/.env`). */
  detail: string;
  subcommand?: number;
  effect?: Effect;
  path?: string;
}

/** Wrappers an allow rule may see through (docs/security-round-2.md; the Claude Code permissions docs). */
export const TRANSPARENT_WRAPPERS = new Set([
  'timeout',
  'time',
  'nice',
  'nohup',
  'stdbuf',
  'ionice',
  'setsid',
  'flock',
  'taskset',
  'command',
  'builtin',
  'env',
  'noglob',
  'xargs',
]);

const base = (w: string): string => path.posix.basename(w.split(/\s+/)[0] ?? w);

/** Texts a deny/ask rule is tested against for one sub-command (see module doc). */
function restrictiveTexts(sub: SubcommandInfo): string[] {
  const texts = [sub.text];
  let core = sub.text;
  if (sub.program.includes('/')) {
    const b = path.posix.basename(sub.program);
    core = sub.text.startsWith(sub.program)
      ? b + sub.text.slice(sub.program.length)
      : [b, ...sub.argv.slice(1)].join(' ');
    texts.push(core);
  }
  const wrappers = sub.wrappers.map(base);
  for (let i = wrappers.length - 1; i >= 0; i--) texts.push(`${wrappers.slice(i).join(' ')} ${core}`);
  return texts;
}

function restrictiveShellMatch(p: ShellPattern, sub: SubcommandInfo): boolean {
  for (const t of restrictiveTexts(sub)) if (matchShellPattern(p, t)) return true;
  return sub.argv.length > 0 && flagAwareMatch(p, sub.argv);
}

const scalarInput = (v: unknown): string | undefined =>
  typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined;

function matchToolRule(rule: CompiledRule, view: CallView, restrictive: boolean): RuleHit | undefined {
  switch (rule.kind) {
    case 'tool':
      return { rule, detail: `the ${view.toolName} tool` };
    case 'param': {
      const p = rule.param;
      if (!p) return undefined;
      const v = view.input[p.name];
      return p.test(v) ? { rule, detail: `${p.name}=${scalarInput(v) ?? JSON.stringify(v)}` } : undefined;
    }
    case 'shell': {
      const pattern = rule.shell;
      if (!pattern) return undefined;
      if (view.subcommands.length) {
        for (let i = 0; i < view.subcommands.length; i++) {
          const sub = view.subcommands[i] as SubcommandInfo;
          if (restrictive ? restrictiveShellMatch(pattern, sub) : matchShellPattern(pattern, sub.text))
            return { rule, detail: `sub-command "${sub.text}"`, subcommand: i };
        }
        return undefined;
      }
      for (const text of view.description.ruleContents)
        if (matchShellPattern(pattern, text)) return { rule, detail: `command "${text}"` };
      return undefined;
    }
    case 'content': {
      const pattern = rule.content;
      if (!pattern) return undefined;
      for (const text of view.description.ruleContents)
        if (matchShellPattern(pattern, text)) return { rule, detail: `"${text}"` };
      return undefined;
    }
    case 'domain':
      return matchDomain(rule, view);
    default:
      return undefined;
  }
}

function matchDomain(rule: CompiledRule, view: CallView): RuleHit | undefined {
  const test = rule.domain;
  if (!test) return undefined;
  for (const text of view.description.ruleContents) {
    if (!text.startsWith('domain:')) continue;
    const h = hostOf(text);
    if (h && test(h)) return { rule, detail: `host ${h}` };
  }
  for (const e of view.network) {
    const h = hostOf(e.target);
    if (h && test(h)) return { rule, detail: `network access to ${h}`, effect: e };
  }
  return undefined;
}

function pathHit(rule: CompiledRule, f: FileEffect, p: string): RuleHit {
  const verb = f.effect.kind === 'exec' ? 'execution' : f.effect.kind;
  return { rule, detail: `${verb} of ${p}`, effect: f.effect, path: p };
}

/**
 * First deny or ask rule that matches any part of the call (see module doc).
 * `skip` filters rules out (e.g. bare Bash ask rules for sandboxed commands, the Claude Code sandboxing docs).
 */
export function matchRestrictive(
  set: RuleSet,
  behavior: Exclude<PermissionBehavior, 'allow'>,
  view: CallView,
  skip?: (rule: CompiledRule) => boolean,
): RuleHit | undefined {
  for (const rule of set.forTool(behavior, view.toolName)) {
    if (skip?.(rule)) continue;
    const hit = matchToolRule(rule, view, true);
    if (hit) return hit;
  }
  for (const rule of set.pathRules(behavior)) {
    if (skip?.(rule)) continue;
    const access = rule.path?.access;
    const pattern = rule.path?.pattern;
    if (!pattern) continue;
    for (const f of view.files) {
      // A Read rule governs reads and writes of the path; an Edit rule governs writes.
      if (access === 'Edit' && f.access !== 'write') continue;
      if (pattern.test(f.lexical)) return pathHit(rule, f, f.lexical);
      if (f.resolved !== f.lexical && pattern.test(f.resolved)) return pathHit(rule, f, f.resolved);
    }
    // A recursive content read of a directory (`grep -r KEY .`) reaches the denied path below it.
    if (access === 'Read')
      for (const f of view.files) {
        if (f.access !== 'read' || f.fromExec || f.effect.subcommand === undefined) continue;
        const sub = view.subcommands[f.effect.subcommand];
        const rr = sub ? recursiveRead(sub) : undefined;
        if (!rr) continue;
        const below =
          ruleCertainlyBelow(pattern.glob, f.resolved, rr.hidden) ??
          ruleCertainlyBelow(pattern.glob, f.lexical, rr.hidden);
        if (below)
          return {
            rule,
            detail: `recursive read of ${f.resolved} (it reaches ${below})`,
            effect: f.effect,
            path: below,
          };
      }
    // An unexpanded glob (`cat ./s*/k`, `cat .e*`) is covered when some path could match both.
    for (const g of view.globs) {
      if (access === 'Edit' && g.access !== 'write') continue;
      if (globsOverlap(g.glob, pattern.glob))
        return {
          rule,
          detail: `${g.effect.kind} of ${g.glob} (the glob can name a path the rule covers)`,
          effect: g.effect,
          path: g.glob,
        };
    }
  }
  if (view.traits.ruleKind !== 'domain' && view.network.length)
    for (const rule of set.domainRules(behavior)) {
      if (skip?.(rule)) continue;
      const hit = matchDomain(rule, view);
      if (hit) return hit;
    }
  return undefined;
}

/** Harmless leading assignments only, transparent wrappers only, a static plain command word. */
export function allowRuleEligible(sub: SubcommandInfo): boolean {
  if (sub.dynamicProgram) return false;
  if (sub.envAssignments.some((a) => a.dangerous)) return false;
  return sub.wrappers.every((w) => TRANSPARENT_WRAPPERS.has(base(w)));
}

/** First allow rule matching this sub-command's normalised text (literal; no basename reduction). */
export function matchShellAllow(
  set: RuleSet,
  toolName: string,
  sub: SubcommandInfo,
  skipBroad: boolean,
): CompiledRule | undefined {
  if (!allowRuleEligible(sub)) return undefined;
  for (const rule of set.forTool('allow', toolName)) {
    if (skipBroad && rule.broad) continue;
    if (rule.kind === 'tool') return rule;
    if (rule.kind === 'shell' && rule.shell && matchShellPattern(rule.shell, sub.text)) return rule;
  }
  return undefined;
}

/** Allow rules of kind tool/param/content/domain for a non-shell call (first match). */
export function matchToolAllow(set: RuleSet, view: CallView, skipBroad: boolean): RuleHit | undefined {
  for (const rule of set.forTool('allow', view.toolName)) {
    if (skipBroad && rule.broad) continue;
    if (rule.kind === 'shell' || rule.kind === 'param') continue;
    const hit = matchToolRule(rule, view, false);
    if (hit) return hit;
  }
  return undefined;
}

/**
 * The allow path rule covering a file effect: reads by `Read(...)` or `Edit(...)`, writes by
 * `Edit(...)`; both the lexical and the resolved path must match (the Claude Code permissions docs).
 */
export function allowPathCovers(set: RuleSet, f: FileEffect): CompiledRule | undefined {
  for (const rule of set.pathRules('allow')) {
    const p = rule.path;
    if (!p) continue;
    if (f.access === 'write' && p.access !== 'Edit') continue;
    if (p.pattern.test(f.lexical) && (f.resolved === f.lexical || p.pattern.test(f.resolved))) return rule;
  }
  return undefined;
}
