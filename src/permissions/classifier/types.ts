/**
 * The auto-mode classifier interface (docs/architecture.md: LOW → allow,
 * MEDIUM → ask, HIGH → forced confirmation). Pluggable: the built-in scorer is deterministic and
 * local; a model-based classifier (a later issue) implements the same interface and may also
 * `block` (Claude Code's auto-mode denial), which the engine turns into a deny.
 */
import type { CallDescription, DecisionReason } from '../../core/permission-types.js';

export type RiskLevel = 'LOW' | 'MEDIUM' | 'HIGH';

export interface ClassifierRequest {
  toolName: string;
  input: Record<string, unknown>;
  description: CallDescription;
  /** The tool's compact text for classifiers (`Tool.toAutoClassifierInput`). */
  classifierInput: string;
  /** An MCP tool (the request's `isMcp`, or an `mcp__` name). Absent = not known to be one. */
  isMcp?: boolean;
  cwd: string;
  workingDirectories: readonly string[];
  home: string;
  /** Why the pipeline would have asked. */
  askReason: DecisionReason;
}

export interface ClassifierVerdict {
  risk: RiskLevel;
  /** Human-readable reasons, most important first. */
  reasons: string[];
  /** A classifier's explicit refusal (deny instead of ask). The built-in scorer never blocks. */
  block?: boolean;
}

export interface AutoModeClassifier {
  readonly name: string;
  classify(request: ClassifierRequest): ClassifierVerdict | Promise<ClassifierVerdict>;
}
