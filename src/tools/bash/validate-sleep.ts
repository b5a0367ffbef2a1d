/**
 * Refuses a foreground `sleep` longer than 2 seconds, standalone or as the leading command
 * (docs/architecture.md `detectBlockedSleepPattern`). Sleeping blocks the turn for nothing:
 * the model should run the wait in the background or poll for the condition it waits for.
 *
 * `sleep 5 &` (backgrounded by the shell itself) and a `sleep` with a non-literal duration are left
 * alone; a duration that cannot be read is not a reason to refuse.
 */

/** Longest foreground sleep allowed, in seconds. */
export const MAX_FOREGROUND_SLEEP_SECONDS = 2;

const UNIT_SECONDS: Record<string, number> = { '': 1, s: 1, m: 60, h: 3600, d: 86_400 };

/** Seconds of one `sleep` operand (`5`, `1.5`, `2m`, `infinity`), or undefined when not a literal duration. */
export function sleepOperandSeconds(operand: string): number | undefined {
  if (operand === 'infinity' || operand === 'inf') return Number.POSITIVE_INFINITY;
  const match = /^(\d+(?:\.\d*)?|\.\d+)([smhd]?)$/.exec(operand);
  if (!match) return undefined;
  return Number(match[1]) * UNIT_SECONDS[match[2]!]!;
}

/**
 * The duration (seconds) of a leading foreground `sleep` in `command`, or undefined when the command
 * does not start with a literal `sleep` that runs in the foreground.
 */
export function leadingSleepSeconds(command: string): number | undefined {
  const match = /^\s*sleep((?:[ \t]+[^\s;&|()<>]+)+)[ \t]*(\|\||&&|&|;|\||\n|$)/.exec(command);
  if (!match) return undefined;
  if (match[2] === '&') return undefined; // `sleep 5 &`: the shell backgrounds it
  let total = 0;
  for (const operand of match[1]!.trim().split(/[ \t]+/)) {
    const seconds = sleepOperandSeconds(operand);
    if (seconds === undefined) return undefined;
    total += seconds;
  }
  return total;
}

/** The refusal message for a blocked sleep, or undefined when the command may run. */
export function blockedSleepMessage(command: string, runInBackground: boolean): string | undefined {
  if (runInBackground) return undefined;
  const seconds = leadingSleepSeconds(command);
  if (seconds === undefined || seconds <= MAX_FOREGROUND_SLEEP_SECONDS) return undefined;
  const shown = Number.isFinite(seconds) ? `${seconds}s` : 'forever';
  return (
    `Blocked: this command starts with a foreground sleep (${shown}), longer than ${MAX_FOREGROUND_SLEEP_SECONDS}s. ` +
    'To run something long, set run_in_background: true and check on it later with TaskOutput. ' +
    'To wait for a condition, poll for it in short steps instead, e.g. ' +
    '`until curl -sf localhost:3000 >/dev/null; do sleep 1; done`.'
  );
}
