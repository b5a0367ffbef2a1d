/**
 * Cron expressions for the Cron tools: exactly five fields (minute hour day-of-month month
 * day-of-week) in the machine's local time, parsed and stepped with croner (docs/scheduling.md,
 * docs/dependencies.md). When both day fields are restricted a day matching either fires (the
 * classic cron rule, croner's default). DST: a time that does not exist on a spring-forward day
 * fires at the first minute after the gap (`30 2 * * *` → 03:00); a time that exists twice on a
 * fall-back day fires once, at its first occurrence.
 *
 * `parseCron` throws {@link CronPatternError} with a message fit for the model: wrong field count,
 * croner's own complaint (`Invalid value for minute: 61`), or a pattern that never fires.
 */
import { Cron } from 'croner';

export class CronPatternError extends Error {
  override readonly name = 'CronPatternError';
}

export interface ParsedCron {
  /** The expression as given (trimmed, single spaces). */
  readonly expression: string;
  /** The first fire strictly after `afterMs` (epoch ms), or undefined when there is none. */
  nextAfter(afterMs: number): number | undefined;
}

const FIELD_NAMES = 'minute hour day-of-month month day-of-week';

export function parseCron(raw: string): ParsedCron {
  const fields = raw.trim().split(/\s+/).filter(Boolean);
  if (fields.length !== 5)
    throw new CronPatternError(
      `a cron expression has exactly five fields (${FIELD_NAMES}), in local time; "${raw}" has ${fields.length}`,
    );
  const expression = fields.join(' ');
  let cron: Cron;
  try {
    cron = new Cron(expression);
  } catch (error) {
    const message = error instanceof Error ? error.message.replace(/^CronPattern:\s*/, '') : String(error);
    throw new CronPatternError(`invalid cron expression "${expression}": ${message}`);
  }
  const parsed: ParsedCron = {
    expression,
    nextAfter(afterMs) {
      const next = cron.nextRun(new Date(afterMs));
      return next ? next.getTime() : undefined;
    },
  };
  return parsed;
}

/** Checks that `parsed` fires at all after `nowMs`; throws {@link CronPatternError} otherwise. */
export function assertFires(parsed: ParsedCron, nowMs: number): number {
  const next = parsed.nextAfter(nowMs);
  if (next === undefined)
    throw new CronPatternError(`the cron expression "${parsed.expression}" never fires (no such date)`);
  return next;
}

const DAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const MONTHS = [
  '',
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

const num = (s: string): number | undefined => (/^\d{1,2}$/.test(s) ? Number(s) : undefined);
const two = (n: number): string => String(n).padStart(2, '0');

function dayList(field: string): string | undefined {
  const range = /^(\d)-(\d)$/.exec(field);
  if (range) {
    const from = DAYS[Number(range[1])];
    const to = DAYS[Number(range[2])];
    return from && to ? `${from} to ${to}` : undefined;
  }
  const names = field.split(',').map((d) => (num(d) !== undefined ? DAYS[Number(d)] : undefined));
  return names.every(Boolean) ? names.join(', ') : undefined;
}

/**
 * A short English reading of a five-field expression for common shapes ("every 5 minutes",
 * "every day at 09:00", "at 09:00, Monday to Friday"); anything else reads as the expression
 * itself. Always ends with "(local time)".
 */
export function humanSchedule(expression: string): string {
  const [minute = '', hour = '', dom = '', month = '', dow = ''] = expression.split(' ');
  const m = num(minute);
  const h = num(hour);
  const anyDay = dom === '*' && month === '*' && dow === '*';
  let text: string | undefined;
  if (anyDay && minute === '*' && hour === '*') text = 'every minute';
  else if (anyDay && hour === '*' && /^\*\/\d+$/.test(minute)) text = `every ${minute.slice(2)} minutes`;
  else if (anyDay && hour === '*' && m !== undefined) text = `every hour at minute ${m}`;
  else if (anyDay && /^\*\/\d+$/.test(hour) && m !== undefined)
    text = `every ${hour.slice(2)} hours at minute ${m}`;
  else if (m !== undefined && h !== undefined) {
    const at = `${two(h)}:${two(m)}`;
    if (anyDay) text = `every day at ${at}`;
    else if (dom === '*' && month === '*') {
      const days = dayList(dow);
      if (days) text = `at ${at}, ${days}`;
    } else if (dow === '*' && num(dom) !== undefined) {
      const mo = num(month);
      if (month === '*') text = `at ${at} on day ${dom} of every month`;
      else if (mo !== undefined && MONTHS[mo]) text = `at ${at} on ${MONTHS[mo]} ${Number(dom)}`;
    }
  }
  return `${text ?? `cron "${expression}"`} (local time)`;
}
