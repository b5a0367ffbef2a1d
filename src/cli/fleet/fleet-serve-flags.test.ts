/**
 * `gantry fleet serve` rejects a bad flag value with a usage error (exit 3, the fleet commands' usage status) before it opens a
 * database, so nothing is started. Runs the real binary.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { GANTRY_BIN } from '../../testing/print-fixtures.js';

describe('gantry fleet serve flag checks', () => {
  it.each([
    ['--keep-cancelled', '-1', 'a negative retention would drop journals of live cancels at once'],
    ['--keep-cancelled', 'soon', 'not a number'],
    ['--keep-cancelled', '', 'empty (an unset variable) would read as 0 hours and drop the journals at once'],
    ['--keep-cancelled', ' ', 'blank, the same'],
    ['--dead-after', '0', 'a worker cannot be gone after no time'],
  ])('%s %s is a usage error (%s)', (flag, value) => {
    const r = spawnSync(
      process.execPath,
      [GANTRY_BIN, 'fleet', 'serve', '--database', 'postgres://127.0.0.1:1/none', `${flag}=${value}`],
      {
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    expect(r.stderr).toContain(flag);
    expect(r.status).toBe(3);
  });
});
