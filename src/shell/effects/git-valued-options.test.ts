/**
 * The valued options of git's clone/fetch/pull/push (vcs.ts, a table built on the first of those
 * sub-commands): the option's value is never taken for the remote, so the host contacted is the
 * URL's and the clone's folder is named after it. One row per sub-command of the table.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand } from '../analyze.js';
import { initShellParser } from '../parser.js';

const world = { cwd: '/p', home: '/h' };
beforeAll(async () => {
  await initShellParser();
});

/** [command line, the effects expected as [kind, target], why]. */
const ROWS: Array<[string, Array<[string, string]>, string]> = [
  [
    'git clone --branch main https://h/r',
    [
      ['exec', 'git'],
      ['network', 'h'],
      ['write', '/p/r'],
    ],
    'clone: --branch takes main, the URL is the remote and names the folder',
  ],
  [
    'git fetch --depth 3 https://h/r',
    [
      ['exec', 'git'],
      ['network', 'h'],
    ],
    'fetch: --depth takes 3',
  ],
  [
    'git pull --depth 3 https://h/r',
    [
      ['exec', 'git'],
      ['network', 'h'],
      ['write', '/p'],
    ],
    'pull: --depth takes 3, the work tree is written',
  ],
  [
    'git push -o ci.skip https://h/r',
    [
      ['exec', 'git'],
      ['network', 'h'],
    ],
    'push: -o takes a push option',
  ],
];

describe('git valued sub-command options', () => {
  it.each(ROWS)('%s', (line, expected) => {
    const a = analyzeCommand(line, world);
    expect(a.effects.map((e) => [e.kind, (e as { target?: string }).target])).toEqual(expected);
  });
});
