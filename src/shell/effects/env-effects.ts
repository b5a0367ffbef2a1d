/**
 * Effects of environment assignments (`NAME=value cmd`, `env NAME=value cmd`, `export NAME=value`)
 * whose name changes what a program loads, runs or writes (docs/shell-analysis.md "Environment
 * effects"). Data: one row per name (or prefix), each with its reason. Two kinds:
 *
 * - `loads`: the variable points a program at other code, configuration or a manifest (a config
 *   file can name programs to run): an `exec` effect of unknown certainty, so the call asks even
 *   under an allow rule for the program.
 * - `writes-file` / `writes-dir`: the program writes the named file (`GIT_TRACE=/path`,
 *   `SSLKEYLOGFILE`), or files into the named directory: a write of the value (known when the
 *   value is a literal path; `writes-dir` names are unknown, `DIR/*`). Trace variables write a file
 *   only when the value is an absolute path (`1`/`2`/`true` mean stderr or a descriptor).
 *
 * Source: the manuals of each program (git(1) ENVIRONMENT, ld.so(8), npm-config(7), pip
 * "Configuration", cargo "Environment variables", curl(1) SSLKEYLOGFILE, less(1), node(1), bundle
 * config(1), composer, uv, gradle, the AWS CLI "Configuration and credential file settings",
 * terraform "CLI Configuration File", php.ini, lua(1), vim(1)).
 */
import type { EnvAssignment } from '../../core/permission-types.js';
import type { SimpleCommand } from '../types.js';
import type { EffectSink } from './sink.js';

type EnvKind = 'loads' | 'writes-file' | 'writes-dir' | 'writes-trace';

/** Exact names: [name, kind, reason]. */
export const ENV_EFFECT_NAMES: ReadonlyArray<readonly [string, EnvKind, string]> = [
  ['LD_PRELOAD', 'loads', 'loads a shared library into every dynamically linked program'],
  ['LD_AUDIT', 'loads', 'loads an audit library into every dynamically linked program'],
  ['LD_LIBRARY_PATH', 'loads', 'changes where the dynamic linker finds libraries'],
  ['DYLD_INSERT_LIBRARIES', 'loads', 'loads a library into every program (macOS)'],
  ['DYLD_LIBRARY_PATH', 'loads', 'changes where the dynamic linker finds libraries (macOS)'],
  ['BASH_ENV', 'loads', 'bash sources this file before a non-interactive script'],
  ['ENV', 'loads', 'sh sources this file at start-up'],
  ['PROMPT_COMMAND', 'loads', 'bash runs this command before each prompt'],
  ['PS4', 'loads', 'expanded, with command substitution, on every xtrace line'],
  ['SHELLOPTS', 'loads', 'turns on shell options (xtrace …) in child bash'],
  ['BASHOPTS', 'loads', 'turns on shopt options in child bash'],
  ['ZDOTDIR', 'loads', 'moves the zsh start-up files'],
  ['INPUTRC', 'loads', 'a readline init file whose bindings can run commands'],
  ['NODE_OPTIONS', 'loads', 'node options (--require/--import load code)'],
  ['NODE_PATH', 'loads', 'changes where node resolves modules'],
  ['PYTHONSTARTUP', 'loads', 'a file python runs at start-up'],
  ['PYTHONPATH', 'loads', 'changes where python imports modules from'],
  ['PYTHONHOME', 'loads', 'changes the python standard library'],
  ['PERL5OPT', 'loads', 'perl options (-M loads modules)'],
  ['PERL5LIB', 'loads', 'changes where perl loads modules from'],
  ['PERLLIB', 'loads', 'changes where perl loads modules from'],
  ['PERL5DB', 'loads', 'code perl runs under the debugger'],
  ['RUBYOPT', 'loads', 'ruby options (-r loads code)'],
  ['RUBYLIB', 'loads', 'changes where ruby loads code from'],
  ['JAVA_TOOL_OPTIONS', 'loads', 'JVM options (-javaagent loads code)'],
  ['_JAVA_OPTIONS', 'loads', 'JVM options (-javaagent loads code)'],
  ['JDK_JAVA_OPTIONS', 'loads', 'JVM options (-javaagent loads code)'],
  ['BUN_OPTIONS', 'loads', 'bun options (--preload loads code)'],
  ['DENO_OPTIONS', 'loads', 'deno options (permissions, imports)'],
  ['PIP_CONFIG_FILE', 'loads', 'points pip at another configuration file'],
  ['PIP_INDEX_URL', 'loads', 'makes pip install packages from another index'],
  ['PIP_EXTRA_INDEX_URL', 'loads', 'makes pip consider packages from another index'],
  ['PIP_FIND_LINKS', 'loads', 'makes pip install packages from another location'],
  ['CARGO_HOME', 'loads', 'points cargo at another home (config.toml can set runners and wrappers)'],
  ['RUSTC_WRAPPER', 'loads', 'a program cargo runs instead of rustc'],
  ['RUSTC', 'loads', 'the compiler cargo runs'],
  ['GOFLAGS', 'loads', 'go flags (-toolexec runs a program)'],
  ['GOTOOLCHAIN', 'loads', 'makes go download and run another toolchain'],
  ['YARN_RC_FILENAME', 'loads', 'points yarn at another configuration file'],
  ['GIT_DIR', 'loads', 'points git at another repository, whose config can name programs'],
  ['GIT_WORK_TREE', 'loads', 'points git at another work tree'],
  ['GIT_CONFIG', 'loads', 'points git at another configuration file'],
  ['GIT_CONFIG_GLOBAL', 'loads', 'replaces the global git configuration'],
  ['GIT_CONFIG_SYSTEM', 'loads', 'replaces the system git configuration'],
  ['GIT_CONFIG_COUNT', 'loads', 'adds git configuration entries (GIT_CONFIG_KEY_n/VALUE_n)'],
  ['GIT_CONFIG_PARAMETERS', 'loads', 'adds git configuration entries'],
  ['GIT_SSH', 'loads', 'the program git runs for ssh transport'],
  ['GIT_SSH_COMMAND', 'loads', 'the command git runs for ssh transport'],
  ['GIT_PROXY_COMMAND', 'loads', 'the command git runs to connect'],
  ['GIT_EXTERNAL_DIFF', 'loads', 'the program git diff runs'],
  ['GIT_ASKPASS', 'loads', 'the program git runs to ask for a password'],
  ['GIT_EDITOR', 'loads', 'the editor git runs'],
  ['GIT_SEQUENCE_EDITOR', 'loads', 'the editor git rebase runs'],
  ['GIT_PAGER', 'loads', 'the pager git runs'],
  ['GIT_EXEC_PATH', 'loads', 'where git finds its sub-command programs'],
  ['GIT_TEMPLATE_DIR', 'loads', 'templates (hooks) git init and clone copy'],
  ['GIT_ALTERNATE_OBJECT_DIRECTORIES', 'loads', 'object stores git reads from'],
  ['PAGER', 'loads', 'the pager many programs run'],
  ['MANPAGER', 'loads', 'the pager man runs'],
  ['EDITOR', 'loads', 'the editor many programs run'],
  ['VISUAL', 'loads', 'the editor many programs run'],
  ['LESSOPEN', 'loads', 'an input preprocessor less runs on every file'],
  ['LESSCLOSE', 'loads', 'a post-processor less runs'],
  ['SSH_ASKPASS', 'loads', 'a program ssh runs to read a password'],
  ['SUDO_ASKPASS', 'loads', 'a program sudo runs to read a password'],
  ['RIPGREP_CONFIG_PATH', 'loads', 'an rg config file (can set --pre)'],
  ['KUBECONFIG', 'loads', 'points kubectl at another cluster configuration (exec credential plugins)'],
  ['DOCKER_CONFIG', 'loads', 'points docker at another configuration (credential helpers)'],
  ['CURL_HOME', 'loads', 'points curl at another .curlrc'],
  ['WGETRC', 'loads', 'points wget at another configuration file'],
  ['PSQLRC', 'loads', 'a file psql runs at start-up (its meta-commands can run programs)'],
  ['XDG_CONFIG_HOME', 'loads', 'moves the configuration files many programs read'],
  ['MAKEFLAGS', 'loads', 'make options (--eval runs code)'],
  ['MANOPT', 'loads', 'man options (-P/-H name the pager or browser it runs)'],
  ['BROWSER', 'loads', 'the browser many programs run'],
  ['SHELL', 'loads', 'the shell editors, terminals and REPLs start for shell escapes'],
  ['FCEDIT', 'loads', 'the editor the fc builtin runs'],
  ['SUDO_EDITOR', 'loads', 'the editor sudoedit runs'],
  ['KUBE_EDITOR', 'loads', 'the editor kubectl edit runs'],
  ['VIMINIT', 'loads', 'Ex commands vim runs at start-up (:! runs programs)'],
  ['EXINIT', 'loads', 'Ex commands vi and ex run at start-up'],
  ['GCONV_PATH', 'loads', 'glibc loads character-conversion modules from the named directory'],
  ['PYTHONUSERBASE', 'loads', 'moves the user site directory (its .pth files run code)'],
  ['LUA_INIT', 'loads', 'code (or @file) lua runs at start-up'],
  ['LUA_PATH', 'loads', 'changes where lua loads modules from'],
  ['LUA_CPATH', 'loads', 'changes where lua loads native modules from'],
  ['R_PROFILE_USER', 'loads', 'an R file R runs at start-up'],
  ['R_PROFILE', 'loads', 'a site R file R runs at start-up'],
  ['PHPRC', 'loads', 'points php at another php.ini (auto_prepend_file runs code)'],
  ['PHP_INI_SCAN_DIR', 'loads', 'adds php.ini files (auto_prepend_file runs code)'],
  ['GEM_HOME', 'loads', 'changes where rubygems loads gems from'],
  ['GEM_PATH', 'loads', 'changes where rubygems loads gems from'],
  ['BUNDLE_GEMFILE', 'loads', 'points bundler at another Gemfile (Ruby code bundler evaluates)'],
  ['BUNDLE_APP_CONFIG', 'loads', 'points bundler at another configuration directory'],
  ['COMPOSER', 'loads', 'points composer at another composer.json (its scripts run)'],
  ['COMPOSER_HOME', 'loads', 'points composer at another home (global configuration and plugins)'],
  ['PIPENV_PIPFILE', 'loads', 'points pipenv at another Pipfile (its scripts run)'],
  ['POETRY_CONFIG_DIR', 'loads', 'points poetry at another configuration directory'],
  ['UV_CONFIG_FILE', 'loads', 'points uv at another configuration file'],
  ['UV_INDEX_URL', 'loads', 'makes uv install packages from another index'],
  ['UV_EXTRA_INDEX_URL', 'loads', 'makes uv consider packages from another index'],
  ['UV_INDEX', 'loads', 'makes uv consider packages from other indexes'],
  ['GOPROXY', 'loads', 'makes go download modules from another proxy'],
  ['GOENV', 'loads', 'points go at another environment file (GOFLAGS, GOPROXY)'],
  ['RUSTFLAGS', 'loads', 'rustc flags (-C linker= runs a program)'],
  ['RUSTDOCFLAGS', 'loads', 'rustdoc flags (--runtool, linker options run programs)'],
  [
    'RUSTUP_TOOLCHAIN',
    'loads',
    'makes cargo and rustc run another toolchain (a custom one is any directory)',
  ],
  ['RUSTUP_HOME', 'loads', 'points rustup at another home (its toolchains are what runs)'],
  ['JAVA_HOME', 'loads', 'the JVM that build tools and launch scripts run'],
  ['JAVA_OPTS', 'loads', 'JVM options launch scripts pass (-javaagent loads code)'],
  ['GRADLE_OPTS', 'loads', 'JVM options for gradle (-javaagent loads code)'],
  ['GRADLE_USER_HOME', 'loads', 'points gradle at another home (its init scripts run)'],
  ['MAVEN_OPTS', 'loads', 'JVM options for maven (-javaagent loads code)'],
  ['MAVEN_ARGS', 'loads', 'maven options (--settings points at another configuration)'],
  ['AWS_CONFIG_FILE', 'loads', 'points the AWS CLI at another config (credential_process runs a program)'],
  [
    'AWS_SHARED_CREDENTIALS_FILE',
    'loads',
    'points the AWS CLI at another credentials file (credential_process runs a program)',
  ],
  ['CLOUDSDK_CONFIG', 'loads', 'points gcloud at another configuration directory'],
  ['AZURE_CONFIG_DIR', 'loads', 'points az at another configuration directory'],
  [
    'TF_CLI_CONFIG_FILE',
    'loads',
    'points terraform at another CLI configuration (provider overrides run other binaries)',
  ],
  ['TERRAFORM_CONFIG', 'loads', 'the older name of TF_CLI_CONFIG_FILE'],
  ['HELM_PLUGINS', 'loads', 'points helm at another plugin directory (plugins are programs)'],
  ['MYSQL_HOME', 'loads', 'points mysql at another my.cnf (pager and option settings)'],
  ['GNUPGHOME', 'loads', 'points gpg at another home (gpg-agent.conf names programs)'],
  ['HGRCPATH', 'loads', 'points Mercurial at other configuration files (hooks run programs)'],
  ['GIT_TRACE', 'writes-trace', 'git writes a trace to the file named by an absolute path'],
  ['GIT_TRACE2', 'writes-trace', 'git writes trace2 output to the named file'],
  ['GIT_TRACE2_EVENT', 'writes-trace', 'git writes trace2 events to the named file'],
  ['GIT_TRACE2_PERF', 'writes-trace', 'git writes trace2 performance data to the named file'],
  ['GIT_TRACE_PACKET', 'writes-trace', 'git writes a packet trace to the named file'],
  ['GIT_TRACE_PACK_ACCESS', 'writes-trace', 'git writes a pack access trace to the named file'],
  ['GIT_TRACE_PERFORMANCE', 'writes-trace', 'git writes performance data to the named file'],
  ['GIT_TRACE_SETUP', 'writes-trace', 'git writes setup information to the named file'],
  ['GIT_TRACE_SHALLOW', 'writes-trace', 'git writes a shallow trace to the named file'],
  ['GIT_TRACE_CURL', 'writes-trace', 'git writes a curl trace to the named file'],
  ['GIT_TRACE_FSMONITOR', 'writes-trace', 'git writes an fsmonitor trace to the named file'],
  ['GIT_TRACE_REFS', 'writes-trace', 'git writes a refs trace to the named file'],
  ['GIT_INDEX_FILE', 'writes-file', 'git writes its index to the named file'],
  [
    'SSLKEYLOGFILE',
    'writes-file',
    'TLS clients (curl, openssl, browsers) append session keys to the named file',
  ],
  ['LESSHISTFILE', 'writes-file', 'less writes its history to the named file'],
  ['HISTFILE', 'writes-file', 'bash writes its history to the named file'],
  ['PSQL_HISTORY', 'writes-file', 'psql writes its history to the named file'],
  ['MYSQL_HISTFILE', 'writes-file', 'mysql writes its history to the named file'],
  ['SQLITE_HISTORY', 'writes-file', 'sqlite3 writes its history to the named file'],
  ['REDISCLI_HISTFILE', 'writes-file', 'redis-cli writes its history to the named file'],
  ['NODE_REPL_HISTORY', 'writes-file', 'the node REPL writes its history to the named file'],
  ['PYTHON_HISTORY', 'writes-file', 'the python REPL writes its history to the named file'],
  [
    'LD_DEBUG_OUTPUT',
    'writes-file',
    'the dynamic linker writes debug output to the named file (.PID appended)',
  ],
  ['MALLOC_TRACE', 'writes-file', 'glibc writes an allocation trace to the named file'],
  ['NODE_V8_COVERAGE', 'writes-dir', 'node writes coverage files into the named directory'],
  ['PYTHONPYCACHEPREFIX', 'writes-dir', 'python writes bytecode files below the named directory'],
  ['CARGO_TARGET_DIR', 'writes-dir', 'cargo writes build output into the named directory'],
];

/** Prefixes: [prefix, kind, reason]; `npm_config_` is matched case-insensitively, as npm reads it. */
export const ENV_EFFECT_PREFIXES: ReadonlyArray<readonly [string, EnvKind, string]> = [
  [
    'NPM_CONFIG_',
    'loads',
    'npm configuration (userconfig, script-shell, prefix, registry) from the environment',
  ],
  ['GIT_CONFIG_KEY_', 'loads', 'adds a git configuration entry'],
  ['GIT_CONFIG_VALUE_', 'loads', 'adds a git configuration entry'],
  ['CARGO_BUILD_', 'loads', 'cargo build configuration (rustc, wrappers, target dir)'],
  ['CARGO_TARGET_', 'loads', 'cargo target configuration (runners, linkers)'],
  ['PNPM_', 'loads', 'pnpm configuration from the environment'],
  ['YARN_', 'loads', 'yarn configuration from the environment'],
];

const BY_NAME = new Map(ENV_EFFECT_NAMES.map(([n, k, r]) => [n, { kind: k, reason: r }]));

/** The row for `name`, if any. */
export function envEffectRow(name: string): { kind: EnvKind; reason: string } | undefined {
  const exact = BY_NAME.get(name);
  if (exact) return exact;
  const upper = name.toUpperCase();
  for (const [prefix, kind, reason] of ENV_EFFECT_PREFIXES) {
    if (name.startsWith(prefix) || (prefix === 'NPM_CONFIG_' && upper.startsWith(prefix)))
      return { kind, reason };
  }
  return undefined;
}

/** Records the effects of the environment assignments of one sub-command (see the module comment). */
export function envAssignmentEffects(cmd: SimpleCommand, sink: EffectSink): void {
  for (const a of cmd.assignments) assignmentEffect(a, sink);
}

function assignmentEffect(a: EnvAssignment, sink: EffectSink): void {
  const row = envEffectRow(a.name);
  if (!row) return;
  const dynamic = /[$`]/.test(a.value);
  const detail = `${a.name}: ${row.reason}`;
  switch (row.kind) {
    case 'loads':
      sink.other('exec', `${a.name}=${a.value}`, 'unknown', 'argument', detail);
      return;
    case 'writes-trace':
      if (!dynamic && !a.value.startsWith('/')) return; // 1, 2, true: stderr or a descriptor
      sink.file('write', { text: a.value, dynamic }, 'argument', detail);
      return;
    case 'writes-file':
      if (a.value === '') return;
      sink.file('write', { text: a.value, dynamic }, 'argument', detail);
      return;
    case 'writes-dir': {
      const base = dynamic ? undefined : sink.absolute(a.value);
      sink.other('write', `${base ?? a.value}/*`, 'unknown', 'argument', detail);
      return;
    }
  }
}
