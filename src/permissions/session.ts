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

/**
 * The most recent decisions by tool_use id: two plain maps of up to `half` entries each; when the
 * current one is full it becomes the previous one (the older one is dropped whole). At most
 * `2 × half` entries, at least the last `half`. One `Map.set` per decision: no recency bookkeeping
 * (a decision is recorded once and looked up rarely), no eviction walk.
 */
export class RecentDecisions {
  private current = new Map<string, RecordedDecision>();
  private previous = new Map<string, RecordedDecision>();
  constructor(private readonly half: number) {}

  get(toolUseId: string): RecordedDecision | undefined {
    return this.current.get(toolUseId) ?? this.previous.get(toolUseId);
  }

  has(toolUseId: string): boolean {
    return this.current.has(toolUseId) || this.previous.has(toolUseId);
  }

  /** The kept decisions, oldest generation first. */
  *entries(): IterableIterator<[string, RecordedDecision]> {
    yield* this.previous;
    yield* this.current;
  }

  set(toolUseId: string, d: RecordedDecision): void {
    if (this.current.size >= this.half && !this.current.has(toolUseId)) {
      this.previous = this.current;
      this.current = new Map();
    }
    this.current.set(toolUseId, d);
    // a re-recorded id answers with its newest decision only
    this.previous.delete(toolUseId);
  }

  /** Entries kept (an id in both generations counts once: `set` removes it from the older). */
  get size(): number {
    return this.current.size + this.previous.size;
  }
}

export class PermissionSession {
  /** Decisions by tool_use id (the last 5,000 at least, 10,000 at most). */
  readonly toolDecisions = new RecentDecisions(5_000);
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
