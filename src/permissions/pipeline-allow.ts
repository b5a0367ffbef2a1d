/**
 * Pipeline steps 6 (acceptEdits) and 7 (allow rules / read-only), see pipeline.ts.
 */
import type { DecisionReason, SubcommandInfo } from '../core/permission-types.js';
import type { CallView } from './call-view.js';
import { ruleReason } from './explain.js';
import { hasSideEffects } from './pipeline-checks.js';
import {
  allow,
  DEFAULT_ACCEPT_EDITS_COMMANDS,
  type PipelineInput,
  type PipelineResult,
  type PipelineStep,
} from './pipeline-types.js';
import { allowPathCovers, allowRuleEligible, matchShellAllow, matchToolAllow } from './rule-match.js';
import type { CompiledRule } from './rules/rule-set.js';
import { isExemptDevicePath } from './working-dirs.js';

/**
 * True when sub-command `i` writes only through redirections into files inside the working
 * directories (`echo x > notes.txt`) and reaches no network: an edit, which acceptEdits allows.
 * Protected and configuration paths never get here (step 3 denies or asks first).
 */
function onlyProjectRedirects(view: CallView, input: PipelineInput, i: number): boolean {
  if (view.description.effects.some((e) => e.kind === 'network' && e.subcommand === i)) return false;
  return view.files
    .filter(
      (f) => f.access === 'write' && f.effect.subcommand === i && !isExemptDevicePath(f.resolved, 'write'),
    )
    .every(
      (f) =>
        f.effect.source === 'redirect' &&
        f.effect.kind === 'write' &&
        input.workingDirs.contains(f.lexical) &&
        input.workingDirs.contains(f.resolved),
    );
}

/** Step 6 acceptEdits: file-edit tools, or shell calls made only of read-only/allowed/simple fs commands. */
export function acceptEditsAllows(view: CallView, input: PipelineInput): boolean {
  if (view.network.length || view.unknown.length) return false;
  if (view.traits.editFamily)
    return view.files.length > 0 && view.files.every((f) => f.access === 'write' || f.access === 'read');
  if (!view.isShell || view.subcommands.length === 0) return false;
  const cmds = input.acceptEditsCommands ?? DEFAULT_ACCEPT_EDITS_COMMANDS;
  return view.subcommands.every((sub, i) => {
    if (sub.readOnly && !hasSideEffects(view, i)) return true;
    if ((sub.readOnly || sub.readOnlyProgram) && onlyProjectRedirects(view, input, i)) return true;
    if (cmds.has(sub.program) && allowRuleEligible(sub)) return true;
    return matchShellAllow(input.rules, view.toolName, sub, false) !== undefined;
  });
}

/** Step 7's allow at `step` (a module function: no closure per decision). */
function done(view: CallView, step: PipelineStep, reason: DecisionReason): PipelineResult {
  return { decision: allow(reason), step, classifierEligible: false, view, trace: [] };
}

/** Step 7: allow rules and read-only. */
export function allowStep(view: CallView, input: PipelineInput): PipelineResult | undefined {
  const req = input.request;
  const skipBroad = input.mode === 'auto';
  if (view.isShell) {
    const subs = view.subcommands;
    if (subs.length === 0) {
      if (req.description.readOnly && view.files.every((f) => f.access === 'read'))
        return done(view, 'read-only', { type: 'read-only', message: 'Allowed: the command is read-only.' });
      // No command at all (a Monitor on a WebSocket): tool-level allow rules decide, as for any tool.
      const noCommandHit = matchToolAllow(input.rules, view, skipBroad);
      if (noCommandHit)
        return done(view, 'allow-rule', ruleReason(noCommandHit.rule.rule, noCommandHit.detail));
      return undefined;
    }
    const rulesUsed: CompiledRule[] = [];
    const readOnlyNames: string[] = [];
    for (let i = 0; i < subs.length; i++) {
      const sub = subs[i] as SubcommandInfo;
      if (sub.readOnly && !hasSideEffects(view, i) && !sub.program.includes('/') && !sub.dynamicProgram) {
        readOnlyNames.push(sub.program);
        continue;
      }
      const rule = matchShellAllow(input.rules, view.toolName, sub, skipBroad);
      if (!rule) return undefined;
      rulesUsed.push(rule);
    }
    const first = rulesUsed[0];
    if (first) {
      const others = rulesUsed.length > 1 ? ` and ${rulesUsed.length - 1} more allow rule(s)` : '';
      const ro = readOnlyNames.length ? `; read-only: ${[...new Set(readOnlyNames)].join(', ')}` : '';
      const r = ruleReason(first.rule, `every sub-command needing a rule${others}${ro}`);
      return done(view, 'allow-rule', {
        ...r,
        message: `${r.message} Every path stays inside the working directories.`,
      });
    }
    return done(view, 'read-only', {
      type: 'read-only',
      message: `Allowed: every sub-command is read-only (${[...new Set(readOnlyNames)].join(', ')}) and every path is inside the working directories.`,
    });
  }
  const toolHit = matchToolAllow(input.rules, view, skipBroad);
  if (toolHit) return done(view, 'allow-rule', ruleReason(toolHit.rule.rule, toolHit.detail));
  // Path allow rules cover Gantry's own file tools only: an MCP tool's file effects come from its
  // schema's argument names (what it may touch), never from what it does, so they can restrict an
  // MCP call (deny, ask, protected paths) but never allow it (docs/mcp-client.md).
  if (view.files.length && !view.network.length && !view.unknown.length && !view.isMcp) {
    const covering = view.files.map((f) => allowPathCovers(input.rules, f));
    const first = covering[0];
    if (first && covering.every(Boolean))
      return done(
        view,
        'allow-rule',
        ruleReason(
          first.rule,
          `every path of this ${view.toolName} call (${view.files.map((f) => f.lexical).join(', ')})`,
        ),
      );
  }
  if (req.toolResult.behavior === 'allow')
    return done(view, 'allow-rule', {
      type: 'tool',
      message: `Allowed by the ${view.toolName} tool: ${req.toolResult.reason}`,
    });
  if (
    view.traits.noEffect &&
    !view.isMcp &&
    view.files.length === 0 &&
    !view.network.length &&
    !view.unknown.length
  )
    return done(view, 'read-only', {
      type: 'read-only',
      message: `Allowed: ${view.toolName} has no effect of its own on the machine (any tool call it leads to is decided on its own), and no deny or ask rule names it.`,
    });
  if (
    req.isReadOnly &&
    !view.isMcp &&
    !view.network.length &&
    // an unknown network target (a WebFetch URL that is not http(s)) is no less a network effect
    !view.unknown.length &&
    view.files.every((f) => f.access === 'read')
  )
    return done(view, 'read-only', {
      type: 'read-only',
      message: `Allowed: ${view.toolName} is read-only here and every path is inside the working directories.`,
    });
  return undefined;
}
