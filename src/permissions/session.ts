/**
 * Whole-session permission state: the decisions taken per tool_use id, denial counts,
 * and the auto-mode classifier's cache and fallback (after 3 consecutive or 20 total classifier
 * denials the session falls back to asking, the Claude Code permissions docs).
 *
 * A "classifier denial" is any verdict that does not approve the call (MEDIUM, HIGH or an explicit
 * block). A LOW verdict resets the consecutive count.
 */
import { BoundedMap } from '../core/bounded-map.js';
import type { PermissionBehavior } from '../core/permission-types.js';
import type { ClassifierVerdict } from './classifier/types.js';

export const CLASSIFIER_MAX_CONSECUTIVE_DENIALS = 3;
export const CLASSIFIER_MAX_TOTAL_DENIALS = 20;

export interface RecordedDecision {
  behavior: PermissionBehavior;
  /** What decided (the reason type, e.g. `rule`, `read-only`, `classifier`). */
  source: string;
  toolName: string;
}

export class PermissionSession {
  /** Decisions by tool_use id (bounded). */
  readonly toolDecisions = new BoundedMap<string, RecordedDecision>({ max: 10_000 });
  /** Deny decisions per tool name. */
  readonly denialCounts = new Map<string, number>();
  readonly classifier = {
    consecutiveDenials: 0,
    totalDenials: 0,
    /** True once the limits were reached: auto mode asks instead of consulting the classifier. */
    fallenBack: false,
    cache: new BoundedMap<string, ClassifierVerdict>({ max: 2_000 }),
  };

  record(toolUseId: string, d: RecordedDecision): void {
    if (toolUseId) this.toolDecisions.set(toolUseId, d);
    if (d.behavior === 'deny')
      this.denialCounts.set(d.toolName, (this.denialCounts.get(d.toolName) ?? 0) + 1);
  }

  /** Counts a classifier verdict; returns true when this verdict tipped the session into fallback. */
  recordClassifier(verdict: ClassifierVerdict): boolean {
    const c = this.classifier;
    if (verdict.risk === 'LOW' && !verdict.block) {
      c.consecutiveDenials = 0;
      return false;
    }
    c.consecutiveDenials++;
    c.totalDenials++;
    if (
      !c.fallenBack &&
      (c.consecutiveDenials >= CLASSIFIER_MAX_CONSECUTIVE_DENIALS ||
        c.totalDenials >= CLASSIFIER_MAX_TOTAL_DENIALS)
    ) {
      c.fallenBack = true;
      return true;
    }
    return false;
  }

  /** Re-enables the classifier (e.g. after the user acknowledged the fallback). */
  resetClassifier(): void {
    this.classifier.consecutiveDenials = 0;
    this.classifier.totalDenials = 0;
    this.classifier.fallenBack = false;
  }
}
