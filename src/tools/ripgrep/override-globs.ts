/**
 * ripgrep's `--glob` semantics for the JavaScript fallback (ripgrep guide "Manual filtering: globs"):
 *
 * - gitignore-style globs, matched against the path relative to the search root: a glob without a
 *   `/` matches the file name at any depth (`*.ts`); a glob with a `/` (or a leading `/`) is anchored
 *   at the root (`src/*.ts`, `/README.md`); `**`, `*`, `?`, `[…]` and `{a,b}` as usual;
 * - a leading `!` excludes; when several globs match, the one given last wins;
 * - when at least one including glob exists, a file that matches none is excluded; directories are
 *   never excluded for not matching an including glob, only pruned by a matching `!` glob.
 *
 * Also the file-type table (`--type`) for the fallback: the globs ripgrep 15 uses for common types.
 */
import picomatch from 'picomatch';

/** What the `--glob` list says about a file. */
export type GlobVerdict = 'include' | 'exclude' | 'none';

interface CompiledGlob {
  negated: boolean;
  test(relPath: string): boolean;
}

function compileOne(glob: string, caseInsensitive: boolean): CompiledGlob {
  let g = glob;
  const negated = g.startsWith('!');
  if (negated) g = g.slice(1);
  else if (g.startsWith('\\!')) g = g.slice(1);
  let anchored = false;
  if (g.startsWith('/')) {
    anchored = true;
    g = g.slice(1);
  }
  if (g.endsWith('/')) g = g.slice(0, -1);
  const hasSlash = g.includes('/');
  const options = { dot: true, nocase: caseInsensitive };
  if (!anchored && !hasSlash) {
    const isMatch = picomatch(g, options);
    return { negated, test: (rel) => isMatch(rel.slice(rel.lastIndexOf('/') + 1)) };
  }
  const isMatch = picomatch(g, options);
  return { negated, test: (rel) => isMatch(rel) };
}

/** A compiled list of ripgrep `--glob` arguments. */
export interface OverrideGlobs {
  /**
   * Verdict for a file: `include` (a glob includes it: ignore files and `--type` are not consulted,
   * as in ripgrep), `exclude` (a `!` glob matched last, or including globs exist and none matched),
   * `none` (no glob decides: ignore rules and types apply).
   */
  fileVerdict(relPath: string): GlobVerdict;
  /** False when a `!` glob prunes this directory. */
  dirAllowed(relDir: string): boolean;
}

/** Compiles `globs` (ripgrep `--glob` arguments, in command-line order). */
export function compileOverrideGlobs(globs: readonly string[], caseInsensitive = false): OverrideGlobs {
  const compiled = globs.map((g) => compileOne(g, caseInsensitive));
  const hasIncludes = compiled.some((c) => !c.negated);
  const lastMatch = (rel: string): CompiledGlob | undefined => {
    for (let i = compiled.length - 1; i >= 0; i--) {
      const c = compiled[i] as CompiledGlob;
      if (c.test(rel)) return c;
    }
    return undefined;
  };
  return {
    fileVerdict(rel) {
      const hit = lastMatch(rel);
      if (hit) return hit.negated ? 'exclude' : 'include';
      return hasIncludes ? 'exclude' : 'none';
    },
    dirAllowed(rel) {
      const hit = lastMatch(rel);
      return !(hit?.negated ?? false);
    },
  };
}

/**
 * ripgrep 15's globs for common `--type` names (`rg --type-list`), so the fallback filters the same
 * files. Other names are reported as unknown by the fallback (ripgrep knows more).
 */
export const FILE_TYPE_GLOBS: Readonly<Record<string, readonly string[]>> = {
  c: ['*.[chH]', '*.[chH].in', '*.cats'],
  clojure: ['*.clj', '*.cljc', '*.cljs', '*.cljx'],
  cpp: [
    '*.[ChH]',
    '*.[ChH].in',
    '*.[ch]pp',
    '*.[ch]pp.in',
    '*.[ch]xx',
    '*.[ch]xx.in',
    '*.cc',
    '*.cc.in',
    '*.hh',
    '*.hh.in',
    '*.inl',
  ],
  cs: ['*.cs'],
  css: ['*.css', '*.scss'],
  csv: ['*.csv'],
  dart: ['*.dart'],
  docker: ['*Dockerfile*'],
  elixir: ['*.eex', '*.ex', '*.exs', '*.heex', '*.leex', '*.livemd'],
  erlang: ['*.erl', '*.hrl'],
  go: ['*.go'],
  graphql: ['*.graphql', '*.graphqls'],
  haskell: ['*.c2hs', '*.cpphs', '*.hs', '*.hsc', '*.lhs'],
  html: ['*.ejs', '*.htm', '*.html'],
  java: ['*.java', '*.jsp', '*.jspx', '*.properties'],
  js: ['*.cjs', '*.js', '*.jsx', '*.mjs', '*.vue'],
  json: ['*.json', '*.sarif', 'composer.lock'],
  jsonl: ['*.jsonl'],
  kotlin: ['*.kt', '*.kts'],
  lua: ['*.lua'],
  make: [
    '*.mak',
    '*.mk',
    'Makefile.*',
    '[Gg][Nn][Uu]makefile',
    '[Mm]akefile',
    '[Mm]akefile.am',
    '[Mm]akefile.in',
  ],
  markdown: ['*.markdown', '*.md', '*.mdown', '*.mdwn', '*.mdx', '*.mkd', '*.mkdn'],
  md: ['*.markdown', '*.md', '*.mdown', '*.mdwn', '*.mdx', '*.mkd', '*.mkdn'],
  nix: ['*.nix'],
  ocaml: ['*.ml', '*.mli', '*.mll', '*.mly'],
  perl: ['*.PL', '*.perl', '*.pl', '*.plh', '*.plx', '*.pm', '*.t'],
  php: ['*.php', '*.php3', '*.php4', '*.php5', '*.php7', '*.php8', '*.pht', '*.phtml'],
  protobuf: ['*.proto'],
  py: ['*.py', '*.pyi'],
  r: ['*.R', '*.Rmd', '*.Rnw', '*.r', '*.rmd', '*.rnw'],
  ruby: ['*.gemspec', '*.rake', '*.rb', '*.rbw', '.irbrc', 'Gemfile', 'Rakefile', 'config.ru'],
  rust: ['*.rs'],
  scala: ['*.sbt', '*.scala'],
  sh: ['*.bash', '*.bashrc', '*.csh', '*.ksh', '*.sh', '*.tcsh', '*.zsh', '.bashrc', '.profile', '.zshrc'],
  sql: ['*.psql', '*.sql'],
  svelte: ['*.svelte', '*.svelte.ts'],
  swift: ['*.swift'],
  toml: ['*.toml', 'Cargo.lock'],
  ts: ['*.cts', '*.mts', '*.ts', '*.tsx'],
  txt: ['*.txt'],
  vue: ['*.vue'],
  xml: ['*.dtd', '*.rng', '*.sch', '*.xhtml', '*.xjb', '*.xml', '*.xml.dist', '*.xsd', '*.xsl', '*.xslt'],
  yaml: ['*.yaml', '*.yml'],
  zig: ['*.zig'],
};
