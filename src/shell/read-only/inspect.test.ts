/**
 * Read-only additions seen in real sessions, each next to an attack look-alike that must not be
 * read-only (docs/shell-analysis.md "Read-only additions").
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { analyzeCommand } from '../analyze.js';
import { initShellParser } from '../parser.js';

beforeAll(async () => {
  await initShellParser();
});

const ro = (command: string) => analyzeCommand(command, { cwd: '/p', home: '/h' }).readOnly;

describe('read-only additions and their look-alikes', () => {
  it.each([
    ['ifconfig', true, 'lists every interface'],
    ['ifconfig -a', true, 'all interfaces'],
    ['ifconfig en0', true, 'one interface'],
    ['ifconfig en0 down', false, 'configures an interface'],
    ['ifconfig eth0 10.0.0.1 netmask 255.0.0.0', false, 'sets an address'],
    ['ip addr', true, 'ip listing'],
    ['ip -br -c a', true, 'brief coloured listing'],
    ['ip route get 1.1.1.1', true, 'route lookup'],
    ['ip addr add 10.0.0.1/8 dev eth0', false, 'adds an address'],
    ['ip route flush all', false, 'flushes routes'],
    ['lsof -i :3000', true, 'who listens on a port'],
    ['lsof -nP -iTCP -sTCP:LISTEN', true, 'listening sockets'],
    ['lsof -p 1234', true, 'files of a process'],
    ['lsof +D src', true, 'open files below a directory (a listing)'],
    ['lsof -i :3000 > pids.txt', false, 'output into a file'],
    ['lsof --bogus', false, 'unknown option'],
    ['test -f package.json', true, 'file test'],
    ['[ -d node_modules ] && echo yes', true, 'file test in a list'],
    ['[[ -e dist && -s dist/index.js ]]', true, 'a [[ ]] file test'],
    ['test -x ./gradlew || echo missing', true, 'an executable test in a list'],
    ['[ -f x ] > out.txt', false, 'a test whose output goes into a file'],
    ['test -f x 2>>~/.bashrc', false, 'a test with a redirection into a start-up file'],
    ['[ -f "$(rm -rf x)" ]', false, 'a test whose operand runs a command'],
    ['gh pr view 12', true, 'pull request details'],
    ['gh pr checks 12', true, 'CI status'],
    ['gh pr list --state open --json number,title', true, 'pull request list'],
    ['gh pr diff 12', true, 'pull request diff'],
    ['gh pr status', true, 'status'],
    ['gh issue view 3 --comments', true, 'issue details'],
    ['gh issue list -L 5', true, 'issue list'],
    ['gh repo view', true, 'repository details'],
    ['gh run list --limit 5', true, 'workflow runs'],
    ['gh run view 123 --log-failed', true, 'a run and its failed logs'],
    ['gh pr view 12 --json title,body', true, 'JSON fields'],
    ['gh pr view 12 --web=false', false, 'a --web form the table does not know'],
    ['gh pr checkout 12', false, 'checks out a branch (writes the work tree)'],
    ['gh pr merge 12', false, 'merges'],
    ['gh pr view 12 --web', false, 'opens a browser'],
    ['gh api repos/x/y', false, 'arbitrary API call'],
    ['gh run download 1', false, 'downloads artifacts'],
    ['gh repo clone x/y', false, 'clones'],
    ['brew info jq', true, 'formula information'],
    ['brew list', true, 'installed formulae'],
    ['brew --version', true, 'version'],
    ['brew install jq', false, 'installs'],
    ['brew upgrade', false, 'upgrades'],
    ['brew home jq', false, 'opens a browser'],
    ['kubectl version', true, 'version'],
    ['terraform version', true, 'version'],
    ['psql --version', true, 'version'],
    ['curl --version', true, 'version'],
    ['docker --version', true, 'version'],
    ['git --version', true, 'version'],
    ['python3 --version', true, 'version'],
    ['node --version > v.txt', false, 'a version written into a file'],
    ['node --version --eval "x"', false, 'a version flag next to code'],
    ['kubectl apply -f x.yaml', false, 'changes a cluster'],
    ['terraform apply', false, 'changes infrastructure'],
    ['psql -c "select 1"', false, 'a query is not a version query'],
  ])('%s → %s (%s)', (command, expected) => {
    expect(ro(command)).toBe(expected);
  });
});
