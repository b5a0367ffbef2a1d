import { beforeAll, describe, expect, it } from 'vitest';
import { mapPathResolver } from '../../core/paths.js';
import { initShellParser } from '../parser.js';
import { parseAndSplit } from '../split.js';
import { computeEffects } from './index.js';

beforeAll(async () => {
  await initShellParser();
});

const opts = { cwd: '/p', home: '/h', resolver: mapPathResolver({}) };

/** File effects (exec omitted) as `kind[?] target`. */
function fileEffects(command: string): string[] {
  const split = parseAndSplit(command);
  return computeEffects(split.commands, opts, Infinity, command)
    .effects.filter((e) => e.kind !== 'exec')
    .map((e) => `${e.kind}${e.certainty === 'unknown' ? '?' : ''} ${e.target}`);
}

describe('for-loop variables bound to their static word list', () => {
  it.each([
    ['for f in src/*.ts; do wc -l "$f"; done', ['read /p/src/*.ts'], 'glob item read as a glob (K-807)'],
    ['for f in *.md; do head -1 "$f"; done', ['read /p/*.md'], 'quoted variable (K-1138)'],
    [
      'for d in src docs; do ls $d; done',
      ['read /p/src', 'read /p/docs'],
      'unquoted variable, two items (K-1139)',
    ],
    ['for f in a b; do cat ${f}; done', ['read /p/a', 'read /p/b'], 'braced variable'],
    ['for f in ~/.ssh/id_rsa; do cat "$f"; done', ['read /h/.ssh/id_rsa'], 'items resolve like operands (~)'],
    ['for f in ../x; do cat "$f"; done', ['read /x'], 'items outside the project stay visible'],
    [
      'for f in a; do f=/etc/passwd; cat "$f"; done',
      ['env f', 'read? "$f"'],
      'reassigned in the body: unknown',
    ],
    ['for f in a; do f+=/x; cat "$f"; done', ['env f', 'read? "$f"'], 'appended to in the body: unknown'],
    [
      'for f in a; do xf=1 cat "$f"; done',
      ['env xf', 'read /p/a'],
      'another name ending in f is no assignment to f',
    ],
    ['for f in a; do cat "$f" ff=1; done', ['read /p/a', 'read /p/ff=1'], 'ff= assigns ff, not f'],
    ['for f in a; do read f; cat "$f"; done', ['env f', 'read? "$f"'], 'read may set it: unknown'],
    ['for f in "$X"; do cat "$f"; done', ['read? "$f"'], 'a dynamic list: unknown'],
    ['for f in a; do cat "$f.bak"; done', ['read? "$f.bak"'], 'only whole-word variables are bound'],
    ['for f in a; do :; done; cat "$f"', ['read? "$f"'], 'after the loop the variable is not bound'],
    ['for f in a; do for g in b; do cat "$f"; done; done', ['read? "$f"'], 'nested loops: unknown'],
  ])('%s → %j (%s)', (line, expected) => {
    expect(fileEffects(line)).toEqual(expected);
  });
});
