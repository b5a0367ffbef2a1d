import { describe, expect, it } from 'vitest';
import { compileShellPattern, flagAwareMatch, matchShellPattern } from './shell-pattern.js';

describe('matchShellPattern', () => {
  it.each([
    ['npm run test:*', 'npm run test', true, 'prefix rule matches the bare prefix'],
    ['npm run test:*', 'npm run test src', true, 'prefix followed by a space'],
    ['npm run test:*', 'npm run testx', false, 'prefix must end at a word boundary'],
    ['make:*', 'makepkg -si', false, 'make:* does not match makepkg (corpus S-295)'],
    ['ls *', 'ls', true, 'trailing " *" also matches the bare command (the Claude Code permissions docs)'],
    ['ls *', 'ls -la', true, 'trailing " *" with arguments'],
    ['ls *', 'lsof', false, 'trailing " *" keeps the word boundary'],
    ['ls*', 'lsof', true, 'no space: plain wildcard'],
    ['npm run build', 'npm run build', true, 'exact'],
    ['npm run build', 'npm run build --prod', false, 'exact means exact'],
    ['git * main', 'git push origin main', true, 'middle wildcard'],
    ['git * main', 'git push origin mainline', false, 'anchored at the end'],
    ['* --version', 'node --version', true, 'leading wildcard'],
    ['*', 'anything at all', true, 'bare star'],
    ['git:* push', 'git:* push', true, ':* is special only at the end (literal otherwise)'],
    ['git:* push', 'git status push', false, 'the colon of a non-final ":*" is literal'],
    ['git:* push', 'git:x push', true, 'and its star is an ordinary wildcard'],
    ['echo \\*', 'echo *', true, 'escaped star is literal'],
    ['echo \\*', 'echo x', false, 'escaped star does not match other text'],
    ['rm -rf /:*', 'rm -rf /tmp', false, 'prefix "/" does not match "/tmp"'],
    ['rm -rf /:*', 'rm -rf / --no-preserve-root', true, 'prefix then space'],
  ])('%s vs %j → %s (%s)', (pattern, text, expected) => {
    expect(matchShellPattern(compileShellPattern(pattern), text)).toBe(expected);
  });
});

describe('flagAwareMatch (deny/ask rules)', () => {
  it.each([
    ['rm -rf /:*', 'rm -fr /', true, 'bundled flags in another order'],
    ['rm -rf /:*', 'rm --recursive --force /', true, 'long aliases of rm'],
    ['rm -rf /:*', 'rm -r -f /', true, 'separate flags'],
    ['rm -rf /:*', 'rm -rf /tmp', false, 'different positional'],
    ['rm -rf /:*', 'rm -r /', false, 'a missing flag'],
    ['git push --force:*', 'git push -f origin main', true, 'git push -f = --force'],
    ['git push --force:*', 'git -C . push --force', true, 'global git options before the sub-command'],
    ['git push --force:*', 'git push --force-with-lease', false, 'a different long flag'],
    ['git push:*', 'git -c core.x=1 push', true, 'git -c value skipped'],
    ['git:*', 'git status', true, 'program-only rule matches any sub-command'],
    ['git push --force:*', 'git commit -m --force', false, 'different sub-command'],
    ['npm run test:*', 'npm run test src', true, 'positionals prefix'],
    ['rm -rf build', 'rm -fr build', true, 'exact rule: same flag set, same positionals'],
    ['rm -rf build', 'rm -fr build x', false, 'exact rule: extra positional'],
  ])('%s vs %j → %s (%s)', (pattern, command, expected) => {
    expect(flagAwareMatch(compileShellPattern(pattern), command.split(' '))).toBe(expected);
  });

  it('does not apply to glob rules', () => {
    expect(flagAwareMatch(compileShellPattern('git * main'), ['git', 'push', 'main'])).toBe(false);
  });
});
