import { describe, expect, it } from 'vitest';
import { mapPathResolver } from '../../core/paths.js';
import { simple } from '../testing-helpers.js';
import { commandEffects, EffectSink } from './index.js';

/** Effects of one simple command as `kind[?] target` strings (exec of the program itself omitted). */
function fx(line: string): string[] {
  const sink = new EffectSink(
    { home: '/h', resolver: mapPathResolver({}), createdLinks: new Map() },
    '/p',
    0,
  );
  commandEffects(simple(line), sink);
  return sink.effects
    .filter((e) => e.source !== 'program' && e.kind !== 'network')
    .map((e) => `${e.kind}${e.certainty === 'unknown' ? '?' : ''} ${e.target}`);
}

describe('programs that run project code: path operands and execution primitives', () => {
  it.each([
    [
      'go test -o ~/.bashrc ./...',
      ['write /h/.bashrc', 'read /p/...'],
      'go -o is an output: protected write (K-527)',
    ],
    [
      'go test -coverprofile=../c.out ./...',
      ['write /c.out', 'read /p/...'],
      '-coverprofile= value is an output',
    ],
    ['go test ./...', ['read /p/...'], 'plain package pattern stays a read inside the project'],
    [
      'npx tsc --outFile ~/.bashrc',
      ['exec npx tsc --outFile ~/.bashrc', 'write /h/.bashrc'],
      'npx runner: --outFile output (K-951)',
    ],
    [
      'npx tsc --outDir ../x',
      ['exec npx tsc --outDir ../x', 'write /x'],
      'npx runner: --outDir outside the project',
    ],
    [
      'npx prettier --write ~/.bashrc',
      ['exec npx prettier --write ~/.bashrc', 'write /h/.bashrc'],
      'a protected file name is a possible write',
    ],
    [
      'npx eslint --rulesdir /tmp/evil src',
      ['exec npx eslint --rulesdir /tmp/evil src', 'read /tmp/evil'],
      'absolute operand of a runner is a read',
    ],
    ['cargo test --manifest-path ../other/Cargo.toml', ['read /other/Cargo.toml'], 'path operand of cargo'],
    ['cargo test --target-dir /tmp/x', ['write /tmp/x'], '--target-dir is an output'],
    ['docker compose -f ../evil.yml up', ['read /evil.yml'], 'docker compose file outside the project'],
    ['npm run build', [], 'no path operands: nothing beyond the allow rule'],
    [
      'mytool -o out.bin in/x',
      ['write /p/out.bin', 'read /p/in/x'],
      'unknown program: -o value is an output',
    ],
    ['mytool --config=~/.npmrc', ['write /h/.npmrc'], 'unknown program: protected name is a possible write'],
  ])('%s → %j (%s)', (line, expected) => {
    expect(fx(line)).toEqual(expected);
  });

  it.each([
    ['npm test --script-shell=./x.sh', 'npm --script-shell runs the given shell (K-641)'],
    ['npm run build --script-shell /tmp/x', 'separate value form'],
    ['npm test --node-options=--require=./x.js', '--node-options loads code into node'],
    ['npm --userconfig=/tmp/rc test', 'a user config can set script-shell'],
    ['npm run build --globalconfig=/tmp/rc', 'a global config can set script-shell'],
    ['pnpm --config.script-shell=/tmp/x test', 'pnpm --config.* sets any config key'],
    ["go test -exec 'sh -c id' ./...", 'go -exec runs the test binary through a program'],
    ['go test -toolexec=./x ./...', 'go -toolexec wraps every tool'],
    ['go vet -vettool=./x ./...', 'go -vettool runs a program'],
    ['cargo test --config \'target.x.runner="sh"\'', 'cargo --config can set a runner'],
    ['cargo test -Z unstable-options --config x', 'cargo -Z unlocks unstable config'],
    ['make SHELL=/tmp/x test', 'make SHELL= chooses the recipe shell'],
    ["make .SHELLFLAGS='-c id;' test", '.SHELLFLAGS injects shell code'],
    ['make MAKEFILES=/tmp/evil.mk test', 'MAKEFILES loads extra makefiles'],
    ['wget --use-askpass=./x.sh https://x.example', 'wget --use-askpass runs a program'],
  ])('%s has an unknown exec effect (%s)', (line) => {
    expect(fx(line).some((e) => e.startsWith('exec? '))).toBe(true);
  });

  it.each([
    ['make --include-dir=/tmp/evil test', 'read /tmp/evil', 'attached include dir'],
    ['make -I /tmp/evil test', 'read /tmp/evil', 'separate include dir'],
    ['make -I/tmp/evil test', 'read /tmp/evil', 'bundled include dir'],
  ])('%s reads %s (%s)', (line, effect) => {
    expect(fx(line)).toContain(effect);
  });

  it.each([
    ['npm test', 'no primitive'],
    ['go test -run TestX ./...', 'ordinary go flags'],
    ['make test CC=gcc', 'ordinary make variables'],
    ['cargo test --release', 'ordinary cargo flags'],
  ])('%s has no unknown exec effect (%s)', (line) => {
    expect(fx(line).some((e) => e.startsWith('exec? '))).toBe(false);
  });
});
