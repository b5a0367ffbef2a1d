/**
 * Cron expressions (croner underneath): five fields only, clear errors, next-fire times in local
 * time, DST behaviour in a zone that has it (this file runs with TZ=Europe/Berlin), and the short
 * English schedule.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertFires, CronPatternError, humanSchedule, parseCron } from './cron-expression.js';

let savedTz: string | undefined;
beforeAll(() => {
  savedTz = process.env.TZ;
  process.env.TZ = 'Europe/Berlin';
});
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

/** A local (Berlin) wall time as epoch ms. */
const local = (iso: string) => new Date(iso).getTime();
const localString = (ms: number) => {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
};

describe('parseCron', () => {
  it.each([
    ['61 * * * *', /minute: 61/, 'croner names the field and the value'],
    ['* * *', /exactly five fields.*has 3/, 'too few fields'],
    ['0 * * * * *', /exactly five fields.*has 6/, 'six fields (seconds) are not accepted'],
    ['@daily', /exactly five fields/, 'nicknames are not accepted'],
    ['', /exactly five fields/, 'empty'],
    ['* 25 * * *', /hour: 25/, 'hour out of range'],
    ['x * * * *', /invalid cron expression "x \* \* \* \*"/, 'garbage in a field'],
  ])('%j is refused (%s)', (pattern, message, _reason) => {
    expect(() => parseCron(pattern)).toThrow(CronPatternError);
    expect(() => parseCron(pattern)).toThrow(message);
  });

  it('a pattern that never matches a date is refused when created', () => {
    const never = parseCron('0 0 31 2 *');
    expect(() => assertFires(never, local('2026-01-01T00:00:00'))).toThrow(/never fires/);
  });

  it('normalises spacing', () => {
    expect(parseCron('  */5   *  * * * ').expression).toBe('*/5 * * * *');
  });

  it.each([
    ['*/15 * * * *', '2026-06-01T10:07:00', ['2026-06-01 10:15', '2026-06-01 10:30'], 'every quarter hour'],
    [
      '0 9 * * 1-5',
      '2026-06-05T10:00:00',
      ['2026-06-08 09:00', '2026-06-09 09:00'],
      'Friday after nine → Monday',
    ],
    ['30 8 1 * *', '2026-01-31T12:00:00', ['2026-02-01 08:30', '2026-03-01 08:30'], 'first of each month'],
    [
      '0 12 13 * 5',
      '2026-02-10T00:00:00',
      ['2026-02-13 12:00', '2026-02-20 12:00'],
      'day-of-month OR day-of-week',
    ],
    [
      '30 2 * * *',
      '2026-03-28T12:00:00',
      ['2026-03-29 03:00', '2026-03-30 02:30'],
      'DST spring-forward: 02:30 does not exist on 29 March, fires at 03:00',
    ],
    [
      '30 2 * * *',
      '2026-10-24T12:00:00',
      ['2026-10-25 02:30', '2026-10-26 02:30'],
      'DST fall-back: 02:30 happens twice on 25 October, fires once',
    ],
  ])('%s after %s → %j (%s)', (pattern, from, expected, _reason) => {
    const cron = parseCron(pattern);
    const first = cron.nextAfter(local(from));
    if (first === undefined) throw new Error('no fire');
    const second = cron.nextAfter(first);
    if (second === undefined) throw new Error('no second fire');
    expect([localString(first), localString(second)]).toEqual(expected);
  });

  it('the fall-back day: 02:30 fires at its first occurrence (summer time), an hour before the second', () => {
    const fire = parseCron('30 2 * * *').nextAfter(local('2026-10-24T12:00:00'));
    expect(new Date(fire ?? 0).toISOString()).toBe('2026-10-25T00:30:00.000Z');
  });
});

describe('humanSchedule', () => {
  it.each([
    ['* * * * *', 'every minute (local time)', 'every minute'],
    ['*/5 * * * *', 'every 5 minutes (local time)', 'a minute step'],
    ['15 * * * *', 'every hour at minute 15 (local time)', 'hourly'],
    ['0 */2 * * *', 'every 2 hours at minute 0 (local time)', 'an hour step'],
    ['0 9 * * *', 'every day at 09:00 (local time)', 'daily'],
    ['30 8 * * 1-5', 'at 08:30, Monday to Friday (local time)', 'weekdays'],
    ['0 18 * * 0,6', 'at 18:00, Sunday, Saturday (local time)', 'a list of days'],
    ['0 7 1 * *', 'at 07:00 on day 1 of every month (local time)', 'monthly'],
    ['45 23 24 12 *', 'at 23:45 on December 24 (local time)', 'a date'],
    ['0 9-17 * * 1-5', 'cron "0 9-17 * * 1-5" (local time)', 'anything else reads as the expression'],
  ])('%s → %s (%s)', (expression, text, _reason) => {
    expect(humanSchedule(expression)).toBe(text);
  });
});
