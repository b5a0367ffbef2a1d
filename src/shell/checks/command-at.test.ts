import { beforeAll, describe, expect, it } from 'vitest';
import { initShellParser } from '../parser.js';
import { parseAndSplit } from '../split.js';
import type { SimpleCommand, SplitResult } from '../types.js';
import { depthZeroOwners } from './command-at.js';
import { SECRET_VARIABLE } from './index.js';

beforeAll(async () => {
  await initShellParser();
});

/** The straightforward answer: scan every sub-command, keep the last depth-0 one holding the offset. */
function scan(split: SplitResult, offset: number): number {
  let found = -1;
  split.commands.forEach((c, i) => {
    if ((c.depth ?? 0) === 0 && c.start <= offset && offset < c.end) found = i;
  });
  return found;
}

function expectSameAsScan(split: SplitResult, offsets: number[]): void {
  const owners = depthZeroOwners(split, offsets);
  for (const o of offsets) expect(owners.get(o), `offset ${o}`).toBe(scan(split, o));
}

const everyOffset = (text: string): number[] => Array.from({ length: text.length + 2 }, (_, i) => i - 1);

describe('depthZeroOwners', () => {
  const rows: [command: string, why: string][] = [
    ['ls', 'one command'],
    ['echo a; echo b && echo c | wc -l', 'a list: disjoint spans'],
    ['echo $(ls $(pwd)) x', 'substitutions: nested spans, the inner ones listed before the outer'],
    ['sh -c "rm x; ls" && [ -n "$TOKEN" ]', 'a script one level deeper: its commands are not depth 0'],
    ['eval "echo $A_TOKEN"; test -z "$SECRET"', 'eval (depth 1) before a depth-0 test'],
    ['cat <<E\n$TOKEN\nE\n[ -n "$X" ] || exit', 'a heredoc body between commands'],
    ['(cd a && (ls; pwd)) | (grep x)', 'subshells: gaps between spans'],
    ['for f in a b; do rm "$f"; done; f() { ls; }', 'loops and functions'],
    ['find . -exec grep x {} \\; -exec rm {} +', 'launched commands share the span of find'],
    ['', 'no command at all'],
    ['echo "unterminated', 'a parse error'],
  ];
  it.each(rows)('answers like a scan of every sub-command: %j (%s)', (command) => {
    const split = parseAndSplit(command);
    expectSameAsScan(split, everyOffset(split.source ?? command));
  });

  it('answers like the scan on random spans, including equal starts, empty spans and deeper scripts', () => {
    let seed = 12345;
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return seed % n;
    };
    for (let round = 0; round < 200; round++) {
      const commands: SimpleCommand[] = [];
      for (let k = rnd(12); k > 0; k--) {
        const start = rnd(40);
        commands.push({ start, end: start + rnd(15), depth: rnd(4) === 0 ? 1 : 0 } as SimpleCommand);
      }
      const split = { commands } as unknown as SplitResult;
      expectSameAsScan(
        split,
        Array.from({ length: 60 }, () => rnd(60) - 2),
      );
    }
  });

  it('returns an empty map for no offsets and -1 where no command is', () => {
    const split = parseAndSplit('ls; pwd');
    expect(depthZeroOwners(split, []).size).toBe(0);
    expect(depthZeroOwners(split, [100]).get(100)).toBe(-1);
  });
});

describe('SECRET_VARIABLE on many test commands', () => {
  // Reason per row: which note the answer depends on.
  const rows: [command: string, fires: boolean, why: string][] = [
    [`${'[ -n "$TOKEN" ] && '.repeat(400)}true`, false, 'every expansion is inside a test of -n'],
    [`${'[ -n "$TOKEN" ] && '.repeat(400)}echo $TOKEN`, true, 'the last one is printed'],
    [`echo $API_KEY; ${'[ -z "$TOKEN" ] && '.repeat(300)}true`, true, 'the first one is printed'],
    [`${'[ -n "$A" ] && '.repeat(300)}[ "$TOKEN" = x ]`, true, 'a test without -n/-z still expands it'],
    [`${'test -n "$TOKEN" || '.repeat(300)}sh -c 'echo $TOKEN'`, true, 'the one in sh -c is depth 1'],
  ];
  it.each(rows)('%#: fires=%s (%s)', (command, fires) => {
    expect(SECRET_VARIABLE.detect(command, parseAndSplit(command)).length > 0).toBe(fires);
  });
});
