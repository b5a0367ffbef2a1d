/**
 * Generated worst-case Bash command lines for the analysis-time benchmark and the budget tests
 * (docs/analysis-budget.md). Each generator builds a command of about `chars` UTF-16 units (never
 * more), so the same shape can be measured at 1, 4, 16 and 64 KiB and the time per kilobyte
 * compared across sizes.
 *
 * Shapes: long chains, pipelines, deep nesting (substitutions, subshells, groups, `if`, parameter
 * expansions), many heredocs, long words, many words, redirections and assignments, extglob, nested
 * scripts (`sh -c`, `eval`, `find -exec`), brace expansion, loops, and the inputs on which
 * tree-sitter-bash's error recovery is known to be slow (runs of `|&`, `>`, `!(x)-`, `@(x)`, NUL,
 * `a=(` + `(x) `).
 */

/** One generator: a name, why it is here, and how to build a command of at most `chars` characters. */
export interface WorstCaseGenerator {
  name: string;
  why: string;
  build(chars: number): string;
}

/** `head` + as many `unit(i)` as fit + `tail` (never longer than `chars`). */
function repeat(head: string, unit: (i: number) => string, tail: string, chars: number): string {
  const parts: string[] = [head];
  let length = head.length + tail.length;
  for (let i = 0; ; i++) {
    const u = unit(i);
    if (length + u.length > chars) break;
    parts.push(u);
    length += u.length;
  }
  parts.push(tail);
  return parts.join('');
}

/** `open`×d + `middle` + `close`×d with the largest d that fits. */
function nest(open: string, middle: string, close: string, chars: number): string {
  const depth = Math.max(0, Math.floor((chars - middle.length) / (open.length + close.length)));
  return open.repeat(depth) + middle + close.repeat(depth);
}

const gen = (name: string, why: string, build: (chars: number) => string): WorstCaseGenerator => ({
  name,
  why,
  build,
});

/** The generated worst-case set. */
export const WORST_CASE_GENERATORS: readonly WorstCaseGenerator[] = [
  gen('chain-and', 'a long && chain', (n) => repeat('', (i) => `echo a${i} && `, 'true', n)),
  gen('chain-lines', 'one command per line', (n) => repeat('', (i) => `ls -la dir${i}/file.txt\n`, '', n)),
  gen('pipeline', 'a long pipeline', (n) => repeat('cat f', (i) => ` | grep -v x${i}`, ' | wc -l', n)),
  gen('nest-substitution', 'deeply nested $(…)', (n) => `echo ${nest('$(echo ', 'x', ')', n - 5)}`),
  gen('nest-quoted-substitution', 'nested "$(…)"', (n) => `echo ${nest('"$(echo ', 'x', ')"', n - 5)}`),
  gen('nest-subshell', 'deeply nested subshells', (n) => nest('(', 'ls', ')', n)),
  gen('nest-group', 'deeply nested groups', (n) => nest('{ ', 'ls; ', '}; ', n)),
  gen('nest-if', 'deeply nested if', (n) => nest('if true; then ', 'ls; ', 'fi; ', n)),
  gen('nest-parameter', 'nested ${x:-…}', (n) => `echo ${nest('${x:-', 'y', '}', n - 5)}`),
  gen('parameter-substitutions', '${x:-$(…)} operands rescanned', (n) =>
    repeat('', (i) => `echo \${x:-$(echo a${i})}; `, 'true', n),
  ),
  gen('heredocs', 'many heredocs', (n) => repeat('', (i) => `cat <<E${i}\nline $x\nE${i}\n`, '', n)),
  gen('heredoc-body', 'one heredoc with substitutions in its body', (n) =>
    repeat('cat <<EOF\n', (i) => `line ${i} $(date) \`id\`\n`, 'EOF\n', n),
  ),
  gen('long-word', 'one long unquoted word', (n) => `echo ${'a'.repeat(Math.max(0, n - 5))}`),
  gen(
    'long-quoted',
    'one long double-quoted word',
    (n) => `echo "${'a b $x '.repeat(Math.max(0, Math.floor((n - 7) / 7)))}"`,
  ),
  gen('many-words', 'many words', (n) => repeat('echo', (i) => ` w${i}`, '', n)),
  gen('many-redirects', 'many redirections', (n) => repeat('echo x', (i) => ` >o${i}`, '', n)),
  gen('many-assignments', 'many assignments before a command', (n) =>
    repeat('', (i) => `A${i}=${i} `, 'ls', n),
  ),
  gen('extglob', 'the valid extglob padding that stalled the hook', (n) =>
    repeat('shopt -s extglob\necho pwned >> ~/.bashrc; ls @(x)', () => '@(x)', '', n),
  ),
  gen('extglob-spaced', 'extglob words', (n) => repeat('shopt -s extglob\nls', () => ' @(x)', '', n)),
  gen('extglob-negated', '!(x)- repeated', (n) => repeat('', () => '!(x)-', '', n)),
  gen('pipe-amp-run', 'ls |&|&…', (n) => repeat('ls ', () => '|&', '', n)),
  gen('redirect-run', '>>>>…', (n) => '>'.repeat(n)),
  gen('paren-run', '((((…', (n) => '('.repeat(n)),
  gen('pipe-run', '||||…', (n) => '|'.repeat(n)),
  gen('nul-run', 'NUL characters', (n) => '\u0000'.repeat(n)),
  gen('backslash-zero-run', '\\0 repeated', (n) => '\\0'.repeat(Math.floor(n / 2))),
  gen('array-subshells', 'a=( followed by (x) repeated', (n) => repeat('a=(', () => '(x) ', '', n)),
  gen('quoted-substitution-run', '"$( repeated', (n) => repeat('', () => '"$(', '', n)),
  gen('heredoc-run', '<<E and a newline repeated', (n) => repeat('', () => '<<E\n', '', n)),
  gen('sh-c', 'many sh -c scripts', (n) => repeat('', (i) => `sh -c 'echo a${i} && ls'; `, 'true', n)),
  gen('sh-c-nested', 'sh -c nested through quoting', (n) => {
    let script = 'ls';
    while (`sh -c ${JSON.stringify(script)}`.length <= n) script = `sh -c ${JSON.stringify(script)}`;
    return script;
  }),
  gen('eval', 'many eval scripts', (n) => repeat('', (i) => `eval "echo a${i}"; `, 'true', n)),
  gen('find-exec', 'many find -exec clauses', (n) =>
    repeat('find .', (i) => ` -exec grep x${i} {} \\;`, '', n),
  ),
  gen('case-arms', 'a case with many arms', (n) => repeat('case $x in ', (i) => `a${i}) ls;; `, 'esac', n)),
  gen('functions', 'many function definitions', (n) => repeat('', (i) => `f${i}() { ls; }; `, 'true', n)),
  gen('process-substitution', 'many <(…)', (n) => repeat('diff', (i) => ` <(ls d${i})`, '', n)),
  gen('arithmetic', 'a long $((…))', (n) => repeat('echo $((1', () => '+1', '))', n)),
  gen('brace-expansion', 'brace expansion products', (n) => repeat('cp', () => ' {a,b}{c,d}', ' /tmp/x', n)),
  gen('brace-product', 'one word of many brace groups', (n) => repeat('touch ', () => '{a,b}', '', n)),
  gen('wrappers', 'wrappers stacked on one command', (n) => repeat('', () => 'env ', 'ls', n)),
  gen('cd-chain', 'cd tracked across a long chain', (n) => repeat('', (i) => `cd d${i} && `, 'rm -f x', n)),
  gen('for-loops', 'loops with variables', (n) =>
    repeat('', (i) => `for f in a${i} b; do rm "$f"; done; `, 'true', n),
  ),
  gen('sed-scripts', 'many sed expressions', (n) => repeat('sed', (i) => ` -e 's/a${i}/b/g'`, ' f', n)),
  gen('backticks', 'many backticks', (n) => repeat('echo', (i) => ` \`echo ${i}\``, '', n)),
  gen('line-continuations', 'line continuations', (n) => repeat('echo', (i) => ` a${i} \\\n`, 'b', n)),
  gen('secret-tests', 'tests of a secret variable: each expansion is looked up among the sub-commands', (n) =>
    repeat('', () => '[ -n "$TOKEN" ] && ', 'true', n),
  ),
  gen('mid-word-hash', 'mid-word # after an expansion, no operator after it on the line', (n) =>
    repeat('echo', () => ' ${x}a#b', '', n),
  ),
  gen('comments', 'comment lines', (n) => repeat('', (i) => `# comment ${i} 'quote\n`, 'ls', n)),
  gen(
    'unicode-word',
    'a long word of non-ASCII characters',
    (n) => `echo ${'é😀'.repeat(Math.max(0, Math.floor((n - 5) / 3)))}`,
  ),
  gen('quote-toggles', 'one word of alternating quotes', (n) =>
    repeat('echo ', (i) => (i % 2 ? '"b"' : "'a'"), '', n),
  ),
  gen('control-characters', 'control characters inside words', (n) =>
    repeat('echo', (i) => ` a\u0001${i}\u001b`, '', n),
  ),
];

/** Sizes the benchmark measures (characters): 1, 4, 16 KiB and just under the 64 KiB cap. */
export const WORST_CASE_SIZES = [1024, 4096, 16384, 65000] as const;
