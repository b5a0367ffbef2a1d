/**
 * The merged verdict of the PreToolUse hooks for one call (the Claude Code hooks reference): precedence
 * deny > defer > ask > allow across all matching hooks; `defer` is treated as ask (Gantry has no
 * deferred-resume flow).
 */
export interface HookVerdict {
  decision?: 'allow' | 'ask' | 'deny';
  /** `permissionDecisionReason`, the exit-2 stderr, or the legacy `reason`. */
  reason?: string;
  /** The hook command that decided (for explanations). */
  hook: string;
  /** Replacement input (the Claude Code hooks reference `updatedInput`; replaces the whole input). */
  updatedInput?: Record<string, unknown>;
  /** Non-blocking problems (timeouts, invalid JSON, exit 1), for logs. */
  errors: string[];
  /** `additionalContext` strings from every hook, in order. */
  additionalContext: string[];
}
