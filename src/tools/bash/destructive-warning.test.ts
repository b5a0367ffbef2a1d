import { describe, expect, it } from 'vitest';
import { destructiveWarning, destructiveWarnings } from './destructive-warning.js';

describe('destructive command warnings', () => {
  it.each([
    ['rm -rf build', /rm -rf/, 'recursive forced delete'],
    ['rm -fr build', /rm -rf/, 'flags in the other order'],
    ['rm -r -f build', /rm -rf/, 'separate flags'],
    ['sudo rm -Rf /var/x', /rm -rf/, 'behind sudo'],
    ['cd x && rm --recursive --force y', /rm -rf/, 'long flags after &&'],
    ['git reset --hard HEAD~1', /reset --hard/, 'discards changes'],
    ['git push --force origin main', /push --force/, 'force push'],
    ['git push -f', /push --force/, 'short force flag'],
    ['git push origin +main', /push --force/, 'force refspec'],
    ['git push --force-with-lease', /push --force/, 'lease is still a force push'],
    ['git clean -fd', /clean -f/, 'deletes untracked files'],
    ['git checkout -- .', /checkout -- \./, 'discards the working tree'],
    ['git restore .', /restore \./, 'discards the working tree'],
    ['git branch -D feature', /branch -D/, 'unmerged branch delete'],
    ['git stash drop', /stash drop/, 'drops a stash'],
    ['psql -c "DROP TABLE users"', /DROP/, 'SQL drop'],
    ["sqlite3 db 'delete from users;'", /DELETE without WHERE/, 'SQL delete without where'],
    ['terraform destroy', /terraform destroy/, 'infrastructure'],
  ])('%j warns (%s)', (command, pattern) => {
    expect(destructiveWarning(command)).toMatch(pattern);
  });

  it.each([
    ['rm file.txt', 'a plain rm is not flagged'],
    ['rm -r build', 'recursive without force'],
    ['git push origin main', 'ordinary push'],
    ['git reset HEAD file', 'soft reset'],
    ['git checkout -- src/a.ts', 'checkout of one file'],
    ['git clean -n', 'dry run'],
    ['echo "rm -rf is dangerous"', 'inside a string argument'],
    ['grep -r "DELETE FROM users WHERE id = 1" .', 'delete with where'],
    ['ls -la', 'harmless'],
  ])('%j does not warn (%s)', (command) => {
    expect(destructiveWarnings(command)).toEqual([]);
  });
});
