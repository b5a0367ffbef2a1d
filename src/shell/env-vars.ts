/**
 * Environment variables that change what a command runs or loads (docs/security-round-2.md "Normalising before
 * rule matching": an assignment to such a name is a finding). Each entry says why; the table test in
 * env-vars.test.ts checks every row and a set of harmless names.
 */

/** Exact names, with the reason each is dangerous. */
export const DANGEROUS_ENV_NAMES: ReadonlyMap<string, string> = new Map([
  ['LD_PRELOAD', 'loads a shared library into every dynamically linked program'],
  ['LD_LIBRARY_PATH', 'changes where the dynamic linker finds libraries'],
  ['LD_AUDIT', 'loads an audit library into every dynamically linked program'],
  ['NODE_OPTIONS', 'passes --require/--import/--loader to every node process'],
  ['NODE_PATH', 'changes where node resolves modules'],
  ['BASH_ENV', 'a file bash sources before running a non-interactive script'],
  ['ENV', 'a file sh/dash source at start-up'],
  ['ZDOTDIR', 'moves the zsh start-up files'],
  ['PROMPT_COMMAND', 'a command bash runs before each prompt'],
  ['PS4', 'expanded (with command substitution) on every xtrace line'],
  ['SHELLOPTS', 'turns on shell options (xtrace, …) in child bash'],
  ['BASHOPTS', 'turns on shopt options in child bash'],
  ['IFS', 'changes word splitting of unquoted expansions'],
  ['PATH', 'changes which program a bare command name runs'],
  ['CDPATH', 'changes where cd goes'],
  ['GLOBIGNORE', 'changes glob results'],
  ['PYTHONSTARTUP', 'a file the python REPL runs'],
  ['PYTHONPATH', 'changes where python imports modules from'],
  ['PYTHONHOME', 'changes the python standard library location'],
  ['PYTHONINSPECT', 'drops python into an interactive prompt'],
  ['PYTHONBREAKPOINT', 'a callable python runs on breakpoint()'],
  ['PERL5OPT', 'perl command-line options (-M loads modules)'],
  ['PERL5LIB', 'changes where perl loads modules from'],
  ['PERLLIB', 'changes where perl loads modules from'],
  ['PERL5DB', 'code perl runs under the debugger'],
  ['RUBYOPT', 'ruby command-line options (-r loads code)'],
  ['RUBYLIB', 'changes where ruby loads code from'],
  ['JAVA_TOOL_OPTIONS', 'JVM options (-javaagent loads code)'],
  ['_JAVA_OPTIONS', 'JVM options (-javaagent loads code)'],
  ['JDK_JAVA_OPTIONS', 'JVM options (-javaagent loads code)'],
  ['CLASSPATH', 'changes where java loads classes from'],
  ['GOFLAGS', 'go flags (-toolexec runs a program)'],
  ['GOROOT', 'changes the go toolchain'],
  ['GOTOOLCHAIN', 'makes go download and run another toolchain'],
  ['RUSTC_WRAPPER', 'a program cargo runs instead of rustc'],
  ['RUSTC', 'the compiler cargo runs'],
  ['RUSTFLAGS', 'compiler flags (linker, plugins)'],
  ['RUSTDOCFLAGS', 'rustdoc flags'],
  ['CC', 'the C compiler build tools run'],
  ['CXX', 'the C++ compiler build tools run'],
  ['LD', 'the linker build tools run'],
  ['MAKEFLAGS', 'make options (--eval runs code)'],
  ['PAGER', 'the program git/man/less-using tools run to page output'],
  ['MANPAGER', 'the program man runs to page output'],
  ['MANOPT', 'man options (-P sets the pager)'],
  ['LESSOPEN', 'an input preprocessor less runs on every file'],
  ['LESSCLOSE', 'a post-processor less runs'],
  ['LESSKEYIN', 'a lesskey file less reads (can set a shell)'],
  ['LESS', 'less options'],
  ['SYSTEMD_PAGER', 'the pager systemctl/journalctl run'],
  ['EDITOR', 'the editor many tools launch'],
  ['VISUAL', 'the editor many tools launch'],
  ['BROWSER', 'the browser many tools launch'],
  ['SHELL', 'the shell tools spawn for sub-commands'],
  ['TERMINAL', 'the terminal program tools launch'],
  ['RIPGREP_CONFIG_PATH', 'an rg config file (can set --pre)'],
  ['GREP_OPTIONS', 'grep options'],
  ['SSH_ASKPASS', 'a program ssh runs to read a password'],
  ['SUDO_ASKPASS', 'a program sudo runs to read a password'],
  ['NPM_CONFIG_SCRIPT_SHELL', 'the shell npm runs scripts with'],
  ['BUN_OPTIONS', 'bun options'],
  ['DENO_OPTIONS', 'deno options'],
  ['HOME', 'moves every dotfile (~/.gitconfig, ~/.npmrc …) a tool reads'],
  ['XDG_CONFIG_HOME', 'moves the config files tools read'],
  ['DOCKER_HOST', 'points docker at another daemon'],
  ['KUBECONFIG', 'points kubectl at another cluster config'],
  ['PYTHONUSERBASE', 'changes where python finds user site-packages'],
  ['PYTHONEXECUTABLE', 'changes the interpreter path python reports and re-executes'],
  ['PYTHONWARNINGS', 'warning filters import the modules they name'],
  ['BASH_CMDS', 'makes a command name run the file its entry names (the command hash table)'],
  ['BASH_ALIASES', 'makes a command name run other words (the alias table)'],
  ['BASH_LOADABLES_PATH', 'changes where enable -f loads builtins from'],
  ['EXECIGNORE', 'changes which files command lookup skips'],
  ['BASH_XTRACEFD', 'sends xtrace output to another descriptor'],
  ['HISTFILE', 'moves the file bash writes its history to'],
  ['INPUTRC', 'names a readline init file (key bindings can run commands)'],
]);

/** Name prefixes, with the reason. */
export const DANGEROUS_ENV_PREFIXES: ReadonlyArray<readonly [string, string]> = [
  ['LD_', 'dynamic-linker variables load or redirect code'],
  ['DYLD_', 'macOS dynamic-linker variables load code'],
  ['GIT_', 'git variables set config, pagers, editors, ssh/proxy commands, hooks paths and the repository'],
  ['NPM_CONFIG_', 'npm configuration (script-shell, prefix, registry)'],
  ['YARN_', 'yarn configuration'],
  ['PNPM_', 'pnpm configuration'],
  ['CARGO_', 'cargo configuration (target runners, build wrappers)'],
  ['BASH_FUNC_', 'exported bash functions replace commands in child shells'],
  ['PIP_', 'pip configuration (index, options)'],
  ['DOCKER_', 'docker client configuration'],
];

/** Names under a dangerous prefix that are known to be harmless (commit metadata, colours, verbosity). */
export const HARMLESS_ENV_EXCEPTIONS: ReadonlySet<string> = new Set([
  'GIT_AUTHOR_NAME',
  'GIT_AUTHOR_EMAIL',
  'GIT_AUTHOR_DATE',
  'GIT_COMMITTER_NAME',
  'GIT_COMMITTER_EMAIL',
  'GIT_COMMITTER_DATE',
  'GIT_TERMINAL_PROMPT',
  'GIT_OPTIONAL_LOCKS',
  'GIT_FLUSH',
  'GIT_MERGE_VERBOSITY',
  'GIT_LFS_SKIP_SMUDGE',
  // Trace variables only write a trace (stderr, or the file an absolute path names, which is a
  // write effect of the command: effects/env-effects.ts).
  'GIT_TRACE',
  'GIT_TRACE2',
  'GIT_TRACE2_EVENT',
  'GIT_TRACE2_PERF',
  'GIT_TRACE_PACKET',
  'GIT_TRACE_PACK_ACCESS',
  'GIT_TRACE_PERFORMANCE',
  'GIT_TRACE_SETUP',
  'GIT_TRACE_SHALLOW',
  'GIT_TRACE_CURL',
  'GIT_TRACE_FSMONITOR',
  'GIT_TRACE_REFS',
  'CARGO_TERM_COLOR',
  'CARGO_TERM_VERBOSE',
  'CARGO_INCREMENTAL',
]);

/**
 * Why assigning `name` changes what runs or loads, or undefined for a harmless name.
 * Pure; case-sensitive as the environment is.
 */
export function dangerousEnvReason(name: string): string | undefined {
  const exact = DANGEROUS_ENV_NAMES.get(name);
  if (exact) return exact;
  if (HARMLESS_ENV_EXCEPTIONS.has(name)) return undefined;
  // npm reads npm_config_* case-insensitively.
  const upper = name.toUpperCase();
  for (const [prefix, why] of DANGEROUS_ENV_PREFIXES) {
    if (name.startsWith(prefix) || (prefix === 'NPM_CONFIG_' && upper.startsWith(prefix))) return why;
  }
  return undefined;
}

/** True when assigning `name` changes what a command runs or loads. */
export function isDangerousEnvName(name: string): boolean {
  return dangerousEnvReason(name) !== undefined;
}
