/**
 * Auto mode (the Claude Code permissions docs; docs/architecture.md): a classifier verdict becomes the decision — LOW allow,
 * MEDIUM ask, HIGH ask with `forceConfirmation`, an explicit `block` deny — each reason naming the
 * classifier, its risk and reasons, and why the pipeline would have asked.
 */
import type { DecisionReason, PermissionDecision } from '../../core/permission-types.js';
import type { ClassifierVerdict } from './types.js';

/** Maps a verdict to a decision. `fellBack`: this verdict tipped the session into asking. */
export function verdictDecision(
  verdict: ClassifierVerdict,
  classifierName: string,
  askReason: DecisionReason,
  fellBack: boolean,
): PermissionDecision {
  const why = verdict.reasons.join('; ');
  const by = `auto-mode classifier (${classifierName})`;
  const note = fellBack
    ? ' The classifier declined too often in this session; auto mode now falls back to asking.'
    : '';
  if (verdict.block)
    return {
      behavior: 'deny',
      reason: { type: 'classifier', message: `Denied by the ${by}: ${why}.${note}` },
    };
  if (verdict.risk === 'LOW')
    return {
      behavior: 'allow',
      reason: { type: 'classifier', message: `Allowed by the ${by}: LOW risk — ${why}.` },
    };
  return {
    behavior: 'ask',
    reason: {
      type: 'classifier',
      message: `Needs approval: the ${by} rates this ${verdict.risk} risk — ${why}. ${askReason.message}${note}`,
    },
    suggestions: [],
    ...(verdict.risk === 'HIGH' ? { forceConfirmation: true } : {}),
  };
}
