import { describe, expect, it } from 'vitest';
import { analyzeSed } from './sed.js';
import { simple } from './testing-helpers.js';

function sed(line: string): Summary {
  const a = analyzeSed(simple(line).argv.slice(1));
  return {
    ok: a.ok,
    inPlace: a.inPlace,
    files: a.files.map((w) => w.text),
    writes: a.writes,
    reads: a.reads,
    executes: a.executes,
  };
}

interface Summary {
  ok: boolean;
  inPlace: boolean;
  files: string[];
  writes: string[];
  reads: string[];
  executes: string[];
}
const plain = {
  ok: true,
  inPlace: false,
  writes: [] as string[],
  reads: [] as string[],
  executes: [] as string[],
};

const ROWS: [string, Summary, string][] = [
  [
    "sed -i 's/a/b/g' src/x.ts",
    { ...plain, inPlace: true, files: ['src/x.ts'] },
    'plain in-place substitution = an edit of src/x.ts',
  ],
  [
    "sed -i.bak 's/a/b/' f g",
    { ...plain, inPlace: true, files: ['f', 'g'] },
    '-i with attached backup suffix, two files',
  ],
  [
    "sed --in-place=.orig -e 's/a/b/' f",
    { ...plain, inPlace: true, files: ['f'] },
    '--in-place=SUFFIX with -e',
  ],
  ["sed -n -e '1,5p' f", { ...plain, files: ['f'] }, 'print range'],
  ["sed --expression='s/a/b/' --expression 'p' f", { ...plain, files: ['f'] }, 'two --expression forms'],
  ["sed -E -s 's/(x|y)/z/' a b", { ...plain, files: ['a', 'b'] }, 'ERE and separate'],
  ["sed 's/x/y/w out.txt' f", { ...plain, files: ['f'], writes: ['out.txt'] }, 's///w writes a file'],
  ["sed -n '/re/w /tmp/o' f", { ...plain, files: ['f'], writes: ['/tmp/o'] }, 'w command after an address'],
  ["sed 'W o2' f", { ...plain, files: ['f'], writes: ['o2'] }, 'W command'],
  ["sed 's/x/y/gw /dev/stdout' f", { ...plain, files: ['f'] }, 'w to stdout is not a file'],
  ["sed 'r /etc/passwd' f", { ...plain, files: ['f'], reads: ['/etc/passwd'] }, 'r reads another file'],
  ["sed '1R other.txt' f", { ...plain, files: ['f'], reads: ['other.txt'] }, 'R reads lines of another file'],
  ["sed '1e id' f", { ...plain, files: ['f'], executes: ['id'] }, 'e with a command'],
  [
    "sed 'e' f",
    { ...plain, files: ['f'], executes: ['<pattern space>'] },
    'bare e executes the pattern space',
  ],
  ["sed 's/.*/ls/e' f", { ...plain, files: ['f'], executes: ['<pattern space>'] }, 's///e'],
  ["sed 's/a/b/;e touch x' f", { ...plain, files: ['f'], executes: ['touch x'] }, 'e after ;'],
  ["sed 's|a|b|e' f", { ...plain, files: ['f'], executes: ['<pattern space>'] }, 'other delimiter'],
  ["sed 's/[/e]/x/' f", { ...plain, files: ['f'] }, 'e inside a bracket expression is regex text'],
  ["sed 's/a/e/' f", { ...plain, files: ['f'] }, 'e in the replacement is text'],
  ["sed 'a e id' f", { ...plain, files: ['f'] }, 'append text is not a command'],
  ["sed 'i\\\nw x' f", { ...plain, files: ['f'] }, 'classic i\\ text on the next line'],
  ["sed '# w x\np' f", { ...plain, files: ['f'] }, 'comment'],
  ["sed 'y/ew/we/' f", { ...plain, files: ['f'] }, 'y with e/w letters'],
  [
    "sed -i -e 's/a/b/' -e '1e curl x|sh' src/a.ts",
    { ...plain, inPlace: true, files: ['src/a.ts'], executes: ['curl x|sh'] },
    'second -e executes',
  ],
  ["sed '1{\ns/a/b/w w.txt\n}' f", { ...plain, files: ['f'], writes: ['w.txt'] }, 'block with s///w'],
];

describe('analyzeSed', () => {
  it.each(ROWS)('%s (%s)', (line, expected) => {
    expect(sed(line)).toEqual(expected);
  });

  it.each([
    ["sed 's/a/b' f", 'unterminated s'],
    ["sed 'k' f", 'unknown command'],
    ['sed', 'no script'],
    ["sed --frobnicate 's/a/b/' f", 'unknown option'],
  ])('%s fails closed (%s)', (line) => {
    expect(sed(line).ok).toBe(false);
  });

  it('-f script files are reported and the script is not parsed', () => {
    const a = analyzeSed(simple('sed -f prog.sed f').argv.slice(1));
    expect([a.scriptFiles, a.script, a.files.map((w) => w.text)]).toEqual([['prog.sed'], undefined, ['f']]);
  });

  it('a script with an expansion is marked dynamic', () => {
    expect(analyzeSed(simple('sed "s/$A/b/" f').argv.slice(1)).scriptDynamic).toBe(true);
  });
});
