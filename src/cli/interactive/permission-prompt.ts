/**
 * The interactive face's answer to a permission ask (the loop's `canUseTool`): a select with
 *
 * - **Yes, once** — the call runs, nothing is saved;
 * - **Yes, always** — shown with the exact rule(s) and the settings file they go to (the engine's
 *   suggestion: usually `<project>/.claude/settings.local.json`); the rule is added to the session
 *   and written to that file atomically by the permission engine, then the call runs. When saving
 *   fails (an unparseable settings file) the call still runs once and the error is shown;
 * - **No** — then a one-line note for the model (Enter for none); the call is refused with it.
 *
 * Escape / Ctrl-C in the prompt, or an aborted turn, refuse the call and end the turn. Asks are
 * shown one at a time (parallel calls queue). An ask the classifier rated high-risk starts on "No".
 * AskUserQuestion and ExitPlanMode get their own dialogs (tool-dialogs.ts).
 */
import { isCancel, select, text } from '@clack/prompts';
import type { Readable, Writable } from 'node:stream';
import type { CanUseTool, CanUseToolOptions, PermissionResult, PermissionUpdate } from '../../loop/types.js';
import { destinationFile, type PermissionEngine, type PersistDestination } from '../../permissions/index.js';
import { describeCall } from './event-view.js';
import type { Screen } from './screen.js';
import { answerQuestions, approvePlan } from './tool-dialogs.js';

export interface AlwaysChoice {
  /** Rule texts as settings hold them (`Bash(npm test:*)`). */
  rules: string[];
  destination: PersistDestination | 'session';
  /** The settings file (absent for a session-only rule). */
  file?: string;
}

/** The "always" choice for an ask: the first rule-adding suggestion, and where it would be saved. */
export function alwaysChoice(
  suggestions: readonly PermissionUpdate[],
  world: { projectRoot: string; home: string },
): AlwaysChoice | undefined {
  const pick =
    suggestions.find((s) => s.type === 'addRules' && s.behavior === 'allow' && s.destination !== 'session') ??
    suggestions.find((s) => s.type === 'addRules' && s.behavior === 'allow');
  if (!pick || pick.type !== 'addRules' || !pick.rules.length) return undefined;
  const rules = pick.rules.map((r) =>
    r.ruleContent !== undefined ? `${r.toolName}(${r.ruleContent})` : r.toolName,
  );
  if (pick.destination === 'session') return { rules, destination: 'session' };
  return { rules, destination: pick.destination, file: destinationFile(pick.destination, world) };
}

export interface PermissionPromptDeps {
  screen: Screen;
  engine: PermissionEngine;
  input: Readable;
  output: Writable;
  /** The session's plan file (the plan approval dialog shows it). */
  planFile?: string;
  /** The session may switch to bypassPermissions (offered when approving a plan). */
  bypassAvailable?: boolean;
  color?: boolean;
}

type Choice = 'once' | 'always' | 'deny';

export function interactiveCanUseTool(deps: PermissionPromptDeps): CanUseTool {
  const { screen, engine } = deps;
  const world = { projectRoot: engine.settings.projectRoot, home: engine.settings.home };
  let queue: Promise<unknown> = Promise.resolve();

  const ask = async (
    toolName: string,
    input: Record<string, unknown>,
    options: CanUseToolOptions,
  ): Promise<PermissionResult> => {
    if (options.signal.aborted)
      return { behavior: 'deny', message: 'The turn was interrupted.', interrupt: true };
    if (toolName === 'AskUserQuestion' || toolName === 'ExitPlanMode') {
      screen.pause();
      try {
        return toolName === 'AskUserQuestion'
          ? await answerQuestions(input, options, deps)
          : await approvePlan(input, options, deps);
      } finally {
        screen.resume();
      }
    }
    const always = alwaysChoice(options.suggestions, world);
    const where = always?.file ?? 'this session only';
    const choices: { value: Choice; label: string; hint?: string }[] = [
      { value: 'once', label: 'Yes, once' },
    ];
    if (always)
      choices.push({
        value: 'always',
        label: `Yes, always: save ${always.rules.join(', ')} to ${where}`,
      });
    choices.push({ value: 'deny', label: 'No, and tell the model why' });

    screen.pause();
    try {
      const heading = `Allow ${describeCall(toolName, input, Math.max(30, screen.columns - 20))}?`;
      const why = options.decisionReason ? `\n${options.decisionReason}` : '';
      const risk = options.forceConfirmation
        ? '\nRated high risk: confirm only if you expect this call.'
        : '';
      const answer = await select<Choice>({
        message: `${heading}${why}${risk}`,
        options: choices,
        initialValue: options.forceConfirmation ? 'deny' : 'once',
        input: deps.input,
        output: deps.output,
        signal: options.signal,
      });
      if (isCancel(answer))
        return { behavior: 'deny', message: 'The user interrupted the turn.', interrupt: true };
      if (answer === 'once') return { behavior: 'allow' };
      if (answer === 'always' && always) {
        for (const rule of always.rules) {
          try {
            const r =
              always.destination === 'session'
                ? { problems: engine.addSessionRule(rule, 'allow') }
                : engine.acceptSuggestion({ rule, destination: always.destination });
            const errors = r.problems.filter((p) => p.severity === 'error');
            if (errors.length)
              screen.line(
                screen.style('red', `Could not add ${rule}: ${errors.map((e) => e.message).join('; ')}`),
              );
            else screen.line(screen.style('green', `Saved ${rule} to ${where}`));
          } catch (e) {
            screen.line(
              screen.style('red', `Could not save ${rule}: ${(e as Error).message} (allowed once)`),
            );
          }
        }
        return { behavior: 'allow' };
      }
      const note = await text({
        message: 'Note for the model (Enter for none)',
        placeholder: 'what to do instead',
        input: deps.input,
        output: deps.output,
        signal: options.signal,
      });
      if (isCancel(note))
        return { behavior: 'deny', message: 'The user interrupted the turn.', interrupt: true };
      const said = note.trim();
      return {
        behavior: 'deny',
        message: said ? `The user refused this call and said: ${said}` : 'The user refused this call.',
      };
    } finally {
      screen.resume();
    }
  };

  return (toolName, input, options) => {
    const next = queue.then(() => ask(toolName, input, options));
    queue = next.catch(() => undefined);
    return next;
  };
}
