import { describe, expect, it } from 'vitest';
import { DANGEROUS_ENV_NAMES, dangerousEnvReason, isDangerousEnvName } from './env-vars.js';

describe('dangerous environment variables', () => {
  it.each([
    ['LD_PRELOAD', true, 'loads a library into every dynamically linked program'],
    ['LD_LIBRARY_PATH', true, 'redirects library lookup'],
    ['LD_AUDIT', true, 'loads an audit library'],
    ['LD_BIND_NOW', true, 'every LD_ variable talks to the dynamic linker'],
    ['DYLD_INSERT_LIBRARIES', true, 'macOS library injection'],
    ['NODE_OPTIONS', true, '--require runs code in every node process'],
    ['NODE_PATH', true, 'changes module resolution'],
    ['BASH_ENV', true, 'sourced by non-interactive bash'],
    ['ENV', true, 'sourced by sh at start-up'],
    ['BASH_FUNC_ls%%', true, 'an exported function replaces ls in child bash'],
    ['PROMPT_COMMAND', true, 'runs before each prompt'],
    ['PS4', true, 'expanded (with substitutions) under xtrace'],
    ['SHELLOPTS', true, 'turns on xtrace and friends in child bash'],
    ['IFS', true, 'changes word splitting'],
    ['PATH', true, 'changes which program a name runs'],
    ['PYTHONSTARTUP', true, 'a file the REPL runs'],
    ['PYTHONPATH', true, 'module search path'],
    ['PERL5OPT', true, '-M loads modules'],
    ['PERL5LIB', true, 'module search path'],
    ['RUBYOPT', true, '-r loads code'],
    ['JAVA_TOOL_OPTIONS', true, '-javaagent loads code'],
    ['GOFLAGS', true, '-toolexec runs a program'],
    ['RUSTC_WRAPPER', true, 'cargo runs it instead of rustc'],
    ['CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER', true, 'cargo runs binaries through it'],
    ['GIT_CONFIG_GLOBAL', true, 'another git config file'],
    ['GIT_CONFIG_PARAMETERS', true, 'inline git config'],
    ['GIT_SSH_COMMAND', true, 'the ssh command git runs'],
    ['GIT_PAGER', true, 'the pager git runs'],
    ['GIT_EDITOR', true, 'the editor git runs'],
    ['GIT_EXTERNAL_DIFF', true, 'the diff program git runs'],
    ['GIT_EXEC_PATH', true, 'where git finds its helpers'],
    ['GIT_ASKPASS', true, 'a program git runs for credentials'],
    ['GIT_PROXY_COMMAND', true, 'a program git runs to connect'],
    ['GIT_DIR', true, 'another repository (and its config)'],
    ['GIT_WORK_TREE', true, 'another work tree'],
    ['PAGER', true, 'the pager many tools run'],
    ['MANPAGER', true, 'the pager man runs'],
    ['LESSOPEN', true, 'an input preprocessor less runs'],
    ['LESSCLOSE', true, 'a post-processor less runs'],
    ['EDITOR', true, 'the editor tools launch'],
    ['VISUAL', true, 'the editor tools launch'],
    ['BROWSER', true, 'the browser tools launch'],
    ['RIPGREP_CONFIG_PATH', true, 'an rg config can set --pre'],
    ['NPM_CONFIG_SCRIPT_SHELL', true, 'the shell npm runs scripts with'],
    ['npm_config_script_shell', true, 'npm reads npm_config_* case-insensitively'],
    ['HOME', true, 'moves every dotfile a tool reads'],
    ['NODE_ENV', false, 'selects a configuration, runs nothing'],
    ['CGO_ENABLED', false, 'a build switch'],
    ['CI', false, 'a flag for test runners'],
    ['LANG', false, 'locale'],
    ['NO_COLOR', false, 'output styling'],
    ['DEBUG', false, 'log verbosity'],
    ['GIT_AUTHOR_NAME', false, 'commit metadata'],
    ['GIT_COMMITTER_DATE', false, 'commit metadata'],
    ['GIT_TERMINAL_PROMPT', false, 'disables prompting'],
    ['CARGO_TERM_COLOR', false, 'output styling'],
    ['PYTHONUNBUFFERED', false, 'output buffering only'],
  ])('%s → %s (%s)', (name, expected) => {
    expect(isDangerousEnvName(name)).toBe(expected);
    if (expected) expect(dangerousEnvReason(name)?.length).toBeGreaterThan(5);
  });

  it('every exact entry carries a reason', () => {
    for (const [name, why] of DANGEROUS_ENV_NAMES) {
      expect(name).toMatch(/^[A-Z_][A-Z0-9_]*$/);
      expect(why.length).toBeGreaterThan(5);
    }
  });
});
