/**
 * The host's answers over the control protocol, as the loop's callbacks:
 *
 * - `stdioCanUseTool`: with `--permission-prompt-tool stdio`, every ask becomes a `can_use_tool`
 *   request; the host's `{behavior:"allow", updatedInput?, updatedPermissions?}` or
 *   `{behavior:"deny", message, interrupt?}` is the answer. An error answer, a malformed answer,
 *   an abort and an ended input are denies (fail closed), each with its reason.
 * - `hookCallbacksFrom`: the `hooks` of the host's `initialize` request
 *   (`{Event: [{matcher?, hookCallbackIds, timeout?, onFailure?}]}`) become callback hooks; when
 *   the event fires, one `hook_callback` request per id is sent and the host's answer (Claude
 *   Code's hook JSON output) is applied by the loop. A failed callback (error answer or unusable
 *   answer) throws — reported, the action goes on — unless its matcher says `onFailure: "block"`,
 *   which turns the failure into a block of what the event guards.
 */
import type {
  CanUseTool,
  HookCallback,
  HookCallbackMatcher,
  HookCallbacks,
  HookEventName,
  HookJSONOutput,
  PermissionMode,
  PermissionResult,
  PermissionUpdate,
} from '../../loop/types.js';
import type { ControlChannel } from './control-channel.js';

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Gantry's decision-reason types → the protocol's `decision_reason_type` values. */
const REASON_TYPES: Readonly<Record<string, string>> = {
  rule: 'rule',
  mode: 'mode',
  hook: 'hook',
  check: 'safetyCheck',
  'safety-check': 'safetyCheck',
  'working-directory': 'workingDir',
  classifier: 'classifier',
  sandbox: 'sandboxOverride',
};

export function protocolReasonType(type: string): string {
  return Object.hasOwn(REASON_TYPES, type) ? (REASON_TYPES[type] as string) : 'other';
}

const MODES = new Set(['default', 'acceptEdits', 'plan', 'dontAsk', 'bypassPermissions', 'auto']);
const DESTINATIONS = new Set(['userSettings', 'projectSettings', 'localSettings', 'session']);

/**
 * Keeps the permission updates the loop understands; drops anything else, and a switch to
 * bypassPermissions unless it was enabled at launch.
 */
export function parsePermissionUpdates(value: unknown, bypassAvailable = false): PermissionUpdate[] {
  if (!Array.isArray(value)) return [];
  const out: PermissionUpdate[] = [];
  for (const u of value) {
    if (!isObj(u)) continue;
    if (u.type === 'addRules' && Array.isArray(u.rules) && typeof u.destination === 'string') {
      if (!DESTINATIONS.has(u.destination)) continue;
      if (u.behavior !== 'allow' && u.behavior !== 'deny' && u.behavior !== 'ask') continue;
      const rules = u.rules
        .filter((r): r is Record<string, unknown> => isObj(r) && typeof r.toolName === 'string')
        .map((r) => ({
          toolName: r.toolName as string,
          ...(typeof r.ruleContent === 'string' ? { ruleContent: r.ruleContent } : {}),
        }));
      if (rules.length)
        out.push({
          type: 'addRules',
          rules,
          behavior: u.behavior,
          destination: u.destination as 'userSettings' | 'projectSettings' | 'localSettings' | 'session',
        });
    } else if (u.type === 'setMode' && typeof u.mode === 'string' && MODES.has(u.mode)) {
      if (u.mode === 'bypassPermissions' && !bypassAvailable) continue;
      out.push({ type: 'setMode', mode: u.mode as PermissionMode, destination: 'session' });
    }
  }
  return out;
}

/** The host's `can_use_tool` answer as a loop `PermissionResult` (fail closed on anything odd). */
export function parsePermissionAnswer(
  answer: Record<string, unknown>,
  bypassAvailable = false,
): PermissionResult {
  if (answer.behavior === 'allow') {
    const updatedPermissions = parsePermissionUpdates(answer.updatedPermissions, bypassAvailable);
    return {
      behavior: 'allow',
      ...(isObj(answer.updatedInput) ? { updatedInput: answer.updatedInput } : {}),
      ...(updatedPermissions.length ? { updatedPermissions } : {}),
    };
  }
  if (answer.behavior === 'deny') {
    return {
      behavior: 'deny',
      message:
        typeof answer.message === 'string' && answer.message ? answer.message : 'The host denied this call.',
      ...(answer.interrupt === true ? { interrupt: true } : {}),
    };
  }
  return {
    behavior: 'deny',
    message: `The host's permission answer had no valid behavior (${JSON.stringify(answer).slice(0, 200)}), so the call was denied.`,
  };
}

/** `canUseTool` over the control channel (see the module comment). */
export function stdioCanUseTool(channel: ControlChannel, options: { bypassAvailable: boolean }): CanUseTool {
  const { bypassAvailable } = options;
  return async (toolName, input, ask) => {
    const request = {
      subtype: 'can_use_tool',
      tool_name: toolName,
      display_name: toolName,
      input,
      tool_use_id: ask.toolUseID,
      permission_suggestions: ask.suggestions,
      decision_reason: ask.decisionReason,
      decision_reason_type: protocolReasonType(ask.decisionReasonType),
      ...(ask.blockedPath !== undefined ? { blocked_path: ask.blockedPath } : {}),
      ...(ask.forceConfirmation ? { default_to_no: true, classifier_approvable: false } : {}),
      ...(ask.agentID !== undefined ? { agent_id: ask.agentID } : {}),
      ...(ask.agentType !== undefined ? { agent_type: ask.agentType } : {}),
    };
    try {
      return parsePermissionAnswer(await channel.request(request, ask.signal), bypassAvailable);
    } catch (e) {
      return { behavior: 'deny', message: `Permission was not granted: ${(e as Error).message}` };
    }
  };
}

/** Hook events the loop fires (the others a host may register are reported and not called). */
const LOOP_EVENTS: ReadonlySet<string> = new Set<HookEventName>([
  'SessionStart',
  'UserPromptSubmit',
  'PreToolUse',
  'PostToolUse',
  'PostToolUseFailure',
  'Stop',
  'SubagentStart',
  'SubagentStop',
  'PreCompact',
  'PostCompact',
  'SessionEnd',
  'TaskCreated',
  'TaskCompleted',
  'WorktreeCreate',
  'WorktreeRemove',
]);

/** Events where `onFailure: "block"` has nothing to block. */
const NOT_BLOCKABLE: ReadonlySet<string> = new Set(['Stop', 'SubagentStop']);

/** The hook output that blocks what `event` guards. */
export function blockingOutput(event: HookEventName, reason: string): HookJSONOutput {
  if (event === 'PreToolUse')
    return {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: reason,
      },
    };
  return { decision: 'block', reason };
}

export interface HostHooks {
  hooks: HookCallbacks;
  /** Event names registered but never fired by Gantry (for a stderr note). */
  unsupportedEvents: string[];
  /** Matchers registered. */
  matcherCount: number;
}

/** Builds callback hooks from `initialize.hooks` (see the module comment). */
export function hookCallbacksFrom(raw: unknown, channel: ControlChannel): HostHooks {
  const hooks: HookCallbacks = {};
  const unsupportedEvents: string[] = [];
  let matcherCount = 0;
  if (!isObj(raw)) return { hooks, unsupportedEvents, matcherCount };
  for (const [event, matchers] of Object.entries(raw)) {
    if (!LOOP_EVENTS.has(event)) {
      unsupportedEvents.push(event);
      continue;
    }
    if (!Array.isArray(matchers)) continue;
    const list: HookCallbackMatcher[] = [];
    for (const m of matchers) {
      if (!isObj(m) || !Array.isArray(m.hookCallbackIds)) continue;
      const ids = m.hookCallbackIds.filter((id): id is string => typeof id === 'string');
      if (!ids.length) continue;
      const block = m.onFailure === 'block' && !NOT_BLOCKABLE.has(event);
      const callbacks: HookCallback[] = ids.map((id) => async (input, toolUseID, { signal }) => {
        let answer: Record<string, unknown>;
        try {
          answer = await channel.request(
            {
              subtype: 'hook_callback',
              callback_id: id,
              input,
              ...(toolUseID !== undefined ? { tool_use_id: toolUseID } : {}),
            },
            signal,
          );
        } catch (e) {
          if (block)
            return blockingOutput(event as HookEventName, `Hook ${id} failed: ${(e as Error).message}`);
          throw e;
        }
        return answer as HookJSONOutput;
      });
      list.push({
        ...(typeof m.matcher === 'string' ? { matcher: m.matcher } : {}),
        hooks: callbacks,
        ...(typeof m.timeout === 'number' && m.timeout > 0 ? { timeout: m.timeout } : {}),
      });
      matcherCount++;
    }
    if (list.length) hooks[event as HookEventName] = list;
  }
  return { hooks, unsupportedEvents, matcherCount };
}
