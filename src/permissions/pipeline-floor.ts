/**
 * Pipeline step 3, the parts that hold in every mode besides protected paths (pipeline.ts):
 * - the destructive floor (core/destructive-floor): deny rows deny, ask rows ask; an ask row is
 *   lifted only by an allow rule without a wildcard that names the very sub-command;
 * - credential reads (core/secret-files.ts) and the shell analysis's environment-dump and
 *   secret-variable findings: ask, unless `secretReads` is `allow` or an allow rule names the path
 *   (a rule whose last segment is not only wildcards: `Read(./.env)`, `Read(~/.aws/credentials)`).
 */
import path from 'node:path';
import picomatch from 'picomatch';
import {
  evaluateDestructiveFloor,
  type FloorHit,
  SECRET_FINDING_IDS,
} from '../core/destructive-floor/index.js';
import type { DecisionReason, PermissionDecision } from '../core/permission-types.js';
import type { PathResolver } from '../core/paths.js';
import { matchSecretFile, SECRET_NAME_SAMPLES } from '../core/secret-files.js';
import type { CallView, FileEffect } from './call-view.js';
import { describeEffect, MODE_LABEL } from './explain.js';
import { ask, deny, type PipelineInput } from './pipeline-types.js';
import { allowPathCovers, matchShellAllow } from './rule-match.js';
import type { CompiledRule } from './rules/rule-set.js';

const STANDARD = { value: 'standard', ignored: [] } as const;

function floorMessage(h: FloorHit, input: PipelineInput, sub: string | undefined): string {
  const floor = input.floor ?? STANDARD;
  const where = sub ? ` in sub-command "${sub}"` : '';
  const ignored = floor.ignored.length ? ` (${floor.ignored.join('; ')})` : '';
  return h.behavior === 'deny'
    ? `Blocked by the destructive floor [${h.rowId}]: ${h.what}${where} — ${h.reason}. Refused in every mode; only user or managed settings can lower the floor ("destructiveFloor").${ignored}`
    : `Needs approval (destructive floor [${h.rowId}]): ${h.what}${where} — ${h.reason}. Asked in every mode, ${MODE_LABEL[input.mode]} included.${ignored}`;
}

/** An allow rule with no wildcard naming exactly this sub-command (`Bash(git push --force origin wip)`). */
function exactAllow(view: CallView, input: PipelineInput, i: number | undefined): CompiledRule | undefined {
  const sub = i === undefined ? undefined : view.subcommands[i];
  if (!sub) return undefined;
  const rule = matchShellAllow(input.rules, view.toolName, sub, false);
  return rule?.shell?.type === 'exact' ? rule : undefined;
}

/** The floor's `realpath` over each resolver (one function per resolver, not a closure per decision). */
const FLOOR_REALPATH = new WeakMap<PathResolver, (p: string) => string>();
function floorRealpathOf(resolver: PathResolver): (p: string) => string {
  let realpath = FLOOR_REALPATH.get(resolver);
  if (!realpath) {
    realpath = (p) => (p.startsWith('/') ? resolver.realpath(p) : p);
    FLOOR_REALPATH.set(resolver, realpath);
  }
  return realpath;
}

/** The destructive floor's decision, or undefined. */
export function floorStep(view: CallView, input: PipelineInput): PermissionDecision | undefined {
  const floor = input.floor ?? STANDARD;
  if (floor.value === 'off') return undefined;
  const hits = evaluateDestructiveFloor(
    view.description,
    {
      home: input.home,
      workingDirs: input.workingDirs.dirs,
      realpath: floorRealpathOf(input.resolver),
    },
    floor.value,
  );
  for (const h of hits) {
    if (h.behavior === 'ask' && exactAllow(view, input, h.subcommand)) continue;
    const sub = h.subcommand !== undefined ? view.subcommands[h.subcommand]?.text : undefined;
    const reason: DecisionReason = {
      type: 'check',
      checkId: `destructive-floor/${h.rowId}`,
      message: floorMessage(h, input, sub),
    };
    return h.behavior === 'deny' ? deny(reason) : ask(reason);
  }
  return undefined;
}

/** True when an allow rule names this secret file itself (not only a directory wildcard). */
function namedByAllow(input: PipelineInput, f: FileEffect): boolean {
  const rule = allowPathCovers(input.rules, f);
  const last = rule?.path?.pattern.glob.split('/').pop() ?? '';
  return rule !== undefined && !/^\*+$/.test(last);
}

/** The first secret sample name a glob's last segment matches (memoised per segment, bounded). */
const sampleCache = new Map<string, string | null>();
function secretSampleFor(name: string): string | undefined {
  const hit = sampleCache.get(name);
  if (hit !== undefined) return hit ?? undefined;
  const isMatch = picomatch(name, { dot: false });
  const found = SECRET_NAME_SAMPLES.find((s) => isMatch(s)) ?? null;
  if (sampleCache.size > 512) sampleCache.clear();
  sampleCache.set(name, found);
  return found ?? undefined;
}

const SECRET_HINT =
  'its contents would be sent to the model provider. Allow it with a Read rule naming the file, or set "secretReads": "allow" in user settings';

/** Credential reads and secret-printing findings (see module doc). */
export function secretStep(view: CallView, input: PipelineInput): DecisionReason | undefined {
  if (input.secretReads === 'allow') return undefined;
  for (const f of view.files) {
    if (f.access !== 'read' || f.fromExec) continue;
    if (f.effect.source === 'program' || f.effect.source === 'cwd') continue;
    const m =
      matchSecretFile(f.lexical, input.home) ??
      (f.resolved !== f.lexical ? matchSecretFile(f.resolved, input.home) : undefined);
    if (!m || namedByAllow(input, f)) continue;
    return {
      type: 'check',
      checkId: 'SECRET_FILE_READ',
      path: m.path,
      effect: f.effect,
      message: `Needs approval: ${describeEffect(f.effect)} — a credential file (${m.label}); ${SECRET_HINT}.`,
    };
  }
  for (const g of view.globs) {
    if (g.access !== 'read') continue;
    const name = path.posix.basename(g.glob);
    // A bare wildcard (`*`, `*.*`) names nothing in particular; `.e*`, `*.pem`, `id_*` do.
    if (name.replace(/[*?[\]{}!]/g, '').replace(/\./g, '').length < 1) continue;
    const sample = secretSampleFor(name);
    if (sample)
      return {
        type: 'check',
        checkId: 'SECRET_FILE_READ',
        path: g.glob,
        effect: g.effect,
        message: `Needs approval: ${describeEffect(g.effect)} can name a credential file (the glob matches ${sample}); ${SECRET_HINT}.`,
      };
  }
  for (const finding of view.description.findings) {
    if (!SECRET_FINDING_IDS.has(finding.id)) continue;
    const sub = finding.subcommand !== undefined ? view.subcommands[finding.subcommand] : undefined;
    if (sub && matchShellAllow(input.rules, view.toolName, sub, false)) continue;
    return {
      type: 'check',
      checkId: finding.id,
      message: `Needs approval: ${finding.message} [${finding.id}]${sub ? ` in sub-command "${sub.text}"` : ''}; the output would be sent to the model provider.`,
    };
  }
  return undefined;
}
