/**
 * gantry doctor on a real temporary home and project: broken settings, a rule for a tool that does
 * not exist (with "did you mean"), an allow rule shadowed by a deny, a missing hook — then the same
 * set-up fixed, where every check passes (bubblewrap, socat and ripgrep are installed by CI).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runInstall } from '../install/install-command.js';
import { didYouMean } from '../shared/did-you-mean.js';
import { runDoctor } from './doctor-command.js';

let home: string;
let project: string;

beforeEach(() => {
  home = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-doctor-')));
  project = path.join(home, 'app');
  mkdirSync(path.join(project, '.claude'), { recursive: true });
  mkdirSync(path.join(home, '.claude'), { recursive: true });
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

async function doctor() {
  let out = '';
  const code = await runDoctor({ cwd: project, home }, (s) => {
    out += s;
  });
  return { code, out };
}

describe('gantry doctor', () => {
  it('lists each problem, numbered, with its fix, and exits 1', async () => {
    writeFileSync(path.join(project, '.claude', 'settings.json'), '{"permissions": {"deny": ["Bash(rm:*)"],');
    writeFileSync(
      path.join(home, '.claude', 'settings.json'),
      JSON.stringify(
        { permissions: { allow: ['Bsh(ls:*)', 'Bash(git push --force)'], deny: ['Bash(git push:*)'] } },
        null,
        2,
      ),
    );
    const { code, out } = await doctor();
    expect(code).toBe(1);
    expect(out).toMatch(/^1\. /m);
    expect(out).toMatch(/app\/\.claude\/settings\.json:1: invalid JSON/);
    expect(out).toMatch(/rule Bsh\(ls:\*\) names no known tool[^\n]*\n\s+fix: did you mean Bash\?/);
    expect(out).toMatch(
      /allow rule Bash\(git push --force\) never applies: deny rule Bash\(git push:\*\) \(.*\.claude\/settings\.json:\d+\)/,
    );
    expect(out).toMatch(
      /Claude Code is set up here but Gantry's hook is not installed\n\s+fix: gantry install --claude/,
    );
  });

  it('passes once the settings are fixed and the hook is installed and answering', async () => {
    writeFileSync(
      path.join(home, '.claude', 'settings.json'),
      JSON.stringify({ permissions: { deny: ['Bash(rm:*)'] } }),
    );
    expect(
      await runInstall(
        { home, cwd: project },
        () => undefined,
        () => undefined,
      ),
    ).toBe(0);
    const { code, out } = await doctor();
    expect(out).toContain('hook installed in');
    expect(out).toContain('and answering');
    expect(out).toContain('All checks passed.');
    expect(code).toBe(0);
  }, 60_000);

  it.each([
    ['a case slip', 'bash', 'Bash'],
    ['a dropped letter', 'Grp', 'Grep'],
    ['far from every tool', 'Frobnicate', undefined],
  ])('didYouMean: %s', (_why, name, guess) => {
    expect(didYouMean(name)).toBe(guess);
  });
});
