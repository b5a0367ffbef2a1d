/**
 * The Bash tool's destructive-command warning comes from the destructive floor's table, judged on
 * the real shell analysis (so wrappers, path-qualified programs and nested shells are seen, and
 * words inside strings are not).
 */
import { homedir } from 'node:os';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultShellPort } from './shell-port.js';
import { destructiveWarning } from './destructive-warning.js';

const HOME = homedir();
const CWD = `${HOME}/project`;
const warn = (command: string) => destructiveWarning(defaultShellPort.analyzeSync(command, CWD), CWD, HOME);

beforeAll(async () => {
  await defaultShellPort.init();
});

describe('destructive command warnings', () => {
  it.each([
    ['rm -rf build', /recursive removal/, 'recursive forced delete'],
    ['rm -fr build', /recursive removal/, 'flags in the other order'],
    ['rm -r -f build', /recursive removal/, 'separate flags'],
    ['rm -r build', /recursive removal/, 'recursive without force deletes the tree too'],
    ['sudo rm -Rf /var/x', /outside the working directories/, 'behind sudo, outside the project'],
    ['cd x && rm --recursive --force y', /recursive removal/, 'long flags after &&'],
    ["bash -c 'rm -rf ~'", /removing \/ or the home directory/, 'inside bash -c'],
    ['git reset --hard HEAD~1', /reset --hard/, 'discards changes'],
    ['git push --force origin main', /force push/, 'force push'],
    ['git push -f', /force push/, 'short force flag'],
    ['git push origin +main', /force push/, 'force refspec'],
    ['git push --force-with-lease', /force push/, 'lease is still a force push'],
    ['git clean -fd', /clean -f/, 'deletes untracked files'],
    ['git checkout -- .', /checkout -- <paths>/, 'discards the working tree'],
    ['git checkout -- src/a.ts', /checkout -- <paths>/, 'discards changes to one file'],
    ['git restore .', /git restore/, 'discards the working tree'],
    ['git branch -D feature', /branch -D/, 'unmerged branch delete'],
    ['git stash drop', /stash drop/, 'drops a stash'],
    ['psql -c "DROP TABLE users"', /DROP/, 'SQL drop'],
    ["sqlite3 db 'delete from users;'", /DELETE FROM without WHERE/, 'SQL delete without where'],
    ['terraform destroy', /terraform\/tofu destroy/, 'infrastructure'],
    ['dd if=/dev/zero of=/dev/sda', /block device/, 'raw disk write'],
  ])('%j warns (%s)', (command, pattern) => {
    expect(warn(command)).toMatch(pattern);
  });

  it.each([
    ['rm file.txt', 'a plain rm is not flagged'],
    ['git push origin main', 'ordinary push'],
    ['git commit --amend -m x', 'an amend is routine'],
    ['git reset HEAD file', 'soft reset'],
    ['git clean -n', 'dry run'],
    ['echo "rm -rf is dangerous"', 'inside a string argument'],
    ['grep -r "DELETE FROM users WHERE id = 1" .', 'not a database client'],
    ['ls -la', 'harmless'],
  ])('%j does not warn (%s)', (command) => {
    expect(warn(command)).toBeUndefined();
  });

  it('is linear: rm followed by 32 K spaces completes', () => {
    expect(warn(`rm ${' '.repeat(32_000)}-rf build`)).toMatch(/recursive removal/);
  });

  it('without an analysis (parser not ready) there is no warning', () => {
    expect(destructiveWarning(undefined, CWD, HOME)).toBeUndefined();
  });
});
