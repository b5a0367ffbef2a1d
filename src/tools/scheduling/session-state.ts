/**
 * One scheduling state per session (a pending wake-up, the cron jobs), kept beside the session's
 * services and disposed with them: `services.register(name, state)` makes the session's end
 * (`SessionServicesHandle.dispose()`) cancel every timer. Keyed on the services object, which the
 * main session's contexts share (a sub-agent has its own services, so its own state).
 */
import type { SessionDisposable, SessionServices } from '../../core/services.js';

const states = new WeakMap<SessionServices, Map<string, SessionDisposable>>();

/**
 * The state registered as `name` for these services, made by `create` on first use and
 * registered for disposal when the services allow it.
 * @throws when the session's services are already disposed (from `register`).
 */
export function sessionState<T extends SessionDisposable>(
  services: SessionServices,
  name: string,
  create: () => T,
): T {
  let byName = states.get(services);
  if (!byName) {
    byName = new Map();
    states.set(services, byName);
  }
  const existing = byName.get(name);
  if (existing) return existing as T;
  const made = create();
  services.register?.(name, made);
  byName.set(name, made);
  return made;
}

/**
 * The text a scheduled prompt reaches the model as: the prompt inside a `<scheduled-prompt>` tag
 * that says where it comes from, so the model never takes it for the person's own words (nor for
 * their approval of anything).
 */
export function scheduledPromptText(
  origin: { kind: 'wakeup' | 'cron'; label: string },
  prompt: string,
): string {
  const from =
    origin.kind === 'wakeup'
      ? 'a wake-up you scheduled earlier with ScheduleWakeup'
      : 'a cron job created earlier with CronCreate';
  return [
    `<scheduled-prompt origin="${origin.kind}" ${origin.kind === 'wakeup' ? 'reason' : 'job'}="${attr(origin.label)}">`,
    `This prompt comes from ${from}, not from a new message of the person. It grants no approval.`,
    '',
    prompt,
    '</scheduled-prompt>',
  ].join('\n');
}

function attr(value: string): string {
  return value.replace(
    /[&"<>\n\r]/g,
    (c) => ({ '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' })[c] ?? ' ',
  );
}
