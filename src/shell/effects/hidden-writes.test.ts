/**
 * Writes the command line does not show as a path operand are still effects (docs/shell-analysis.md
 * "Hidden writes"): unknown when the target cannot be named (so bypassPermissions asks), known when
 * it can (so protected and config paths are judged).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { mapPathResolver } from '../../core/paths.js';
import { analyzeCommand } from '../analyze.js';
import { initShellParser } from '../parser.js';
import { ENV_EFFECT_NAMES, envEffectRow } from './env-effects.js';

beforeAll(async () => {
  await initShellParser();
});

const opts = { cwd: '/p', home: '/h', resolver: mapPathResolver({}, ['/p', '/h']) };
const fx = (command: string, kind: string) =>
  analyzeCommand(command, opts)
    .effects.filter((e) => e.kind === kind)
    .map((e) => `${e.certainty === 'unknown' ? '?' : ''}${e.target}`);

describe('hidden writes', () => {
  it.each([
    ["at now <<< 'rm -rf x'", '?at job (files it writes)', 'an at job'],
    ['echo "rm x" | batch', '?batch job (files it writes)', 'a batch job'],
    ['crontab jobs.txt', '?crontab (scheduled commands)', 'crontab installs jobs'],
    ['git worktree add ../wt', '/wt', 'a new worktree is a write of its path'],
    ['git worktree add -b feat ~/wt main', '/h/wt', 'with a branch option'],
    ['GIT_TRACE=/h/.bashrc git status', '/h/.bashrc', 'GIT_TRACE with an absolute path writes that file'],
    ['GIT_TRACE_PACKET=/tmp/t git fetch', '/tmp/t', 'packet trace'],
    ['GIT_TRACE2_EVENT=$F git log', '?$F', 'a trace file from an expansion is unknown'],
    ['SSLKEYLOGFILE=~/.bashrc curl https://example.com', '/h/.bashrc', 'TLS key log'],
    ['export HISTFILE=~/.profile', '/h/.profile', 'bash history file'],
    ['LESSHISTFILE=~/.zshrc less f', '/h/.zshrc', 'less history file'],
    ['GIT_INDEX_FILE=~/.bashrc git add .', '/h/.bashrc', 'git writes its index there'],
    ['env NODE_V8_COVERAGE=~/.ssh node t.js', '?/h/.ssh/*', 'coverage files into a directory'],
    ["curl -o '#1' 'https://example.com/{a,b}'", '?/p/*', 'URL glob output names'],
    ["curl -o '/h/.#1' 'https://example.com/{bashrc,profile}'", '?/h/.*', 'URL glob into hidden names'],
    ['split -b 1k data ~/.x', '?/h/.x* (pieces)', 'split pieces named after a prefix'],
    ['tee -a ~/.bashrc', '/h/.bashrc', 'tee -a'],
    ['dd if=x of=~/.bashrc', '/h/.bashrc', 'dd of='],
    ['sort -o ~/.bashrc f', '/h/.bashrc', 'sort -o'],
    ['awk \'{ print > "/h/.bashrc" }\' f', '/h/.bashrc', 'awk print > file'],
    ['awk \'{ print | "sh" }\' f', '?sh (files it writes)', 'a pipe out of awk runs shell text'],
    ['awk \'BEGIN { system("id") }\'', '?id (files it writes)', 'awk system()'],
  ])('%s writes %s (%s)', (command, target) => {
    expect(fx(command, 'write')).toContain(target);
  });

  it.each([
    ['awk \'{ print | "sh" }\' f', 'awk pipes into a command'],
    ['awk \'BEGIN { system("id") }\'', 'awk system()'],
    ['LD_PRELOAD=./x.so ls', 'a preloaded library'],
    ['NPM_CONFIG_USERCONFIG=/tmp/rc npm test', 'npm pointed at another config'],
    ['npm_config_script_shell=./sh npm run build', 'lower-case npm config'],
    ['PIP_CONFIG_FILE=/tmp/pip.conf pip install x', 'pip pointed at another config'],
    ['CARGO_HOME=/tmp/c cargo build', 'cargo pointed at another home'],
    ['PYTHONSTARTUP=x.py python3', 'python start-up file'],
    ['GIT_SSH_COMMAND="ssh -i k" git fetch', 'git ssh command'],
    [
      'GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0=sh git log',
      'git config from the environment',
    ],
    ['GIT_DIR=/tmp/e/.git git status', 'another repository'],
    ['BASH_ENV=./x bash -c ls', 'bash start-up file'],
    ['env RUBYOPT=-rx ruby t.rb', 'through env'],
    ['BUNDLE_GEMFILE=/tmp/G bundle exec rake', 'bundler pointed at another Gemfile'],
    ['COMPOSER=/tmp/c.json composer install', 'composer pointed at another manifest'],
    ['PIPENV_PIPFILE=/tmp/P pipenv install', 'pipenv pointed at another Pipfile'],
    ['AWS_CONFIG_FILE=/tmp/c aws s3 ls', 'credential_process in another AWS config'],
    ['TF_CLI_CONFIG_FILE=/tmp/rc terraform plan', 'terraform provider overrides'],
    ['GRADLE_USER_HOME=/tmp/g ./gradlew build', 'gradle init scripts'],
    ['JAVA_TOOL_OPTIONS=-javaagent:x.jar mvn test', 'a java agent'],
    ["RUSTFLAGS='-C linker=/tmp/x' cargo build", 'rustc linker'],
    ['UV_INDEX_URL=http://x uv sync', 'uv pointed at another index'],
    ['GOPROXY=http://x go mod download', 'go modules from another proxy'],
    ['PHPRC=/tmp/php.ini php t.php', 'php pointed at another php.ini'],
    ['MYSQL_HOME=/tmp mysql', 'mysql pointed at another my.cnf'],
    ['export GNUPGHOME=/tmp/g', 'an exported gpg home'],
    ['LUA_INIT=@/tmp/x.lua lua t.lua', 'lua start-up code'],
  ])('%s has an unknown exec (%s)', (command) => {
    expect(fx(command, 'exec').some((t) => t.startsWith('?'))).toBe(true);
  });

  it.each([
    ['GIT_TRACE=1 git status', 'a trace to stderr names no file'],
    ['GIT_AUTHOR_NAME=x git commit -m m', 'commit metadata'],
    ['NODE_ENV=test npm test', 'a harmless variable'],
    ['at -l', 'listing jobs'],
  ])('%s: no hidden write (%s)', (command) => {
    expect(fx(command, 'write').filter((t) => t.startsWith('?') || t.includes('.bashrc'))).toEqual([]);
  });

  it.each([
    ['AWS_PROFILE=dev aws s3 ls', 'choosing a profile of the usual configuration'],
    ['AWS_REGION=eu-west-1 aws ec2 describe-instances', 'a region'],
    ['RUST_LOG=debug cargo test', 'a log level'],
    ['RUST_BACKTRACE=1 cargo run', 'backtraces'],
    ['GOOS=linux GOARCH=arm64 go build ./...', 'a cross-compilation target'],
    ['CI=1 npm test', 'a CI marker'],
    ['TF_LOG=debug terraform plan', 'a log level'],
    ['BUNDLE_JOBS=4 bundle install', 'a bundler setting that names no file'],
  ])('%s: no unknown exec from the environment (%s)', (command) => {
    expect(fx(command, 'exec').filter((t) => t.startsWith('?') && t.includes('='))).toEqual([]);
  });

  it('every environment row has a reason', () => {
    for (const [name, , reason] of ENV_EFFECT_NAMES) {
      expect(reason.length, name).toBeGreaterThan(15);
      expect(envEffectRow(name)).toBeDefined();
    }
  });
});
