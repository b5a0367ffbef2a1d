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
import { checkWebSearch } from './checks.js';
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

  it('finds Codex, says when its hook is missing, and probes the installed --deny-only hook with a denied command', async () => {
    mkdirSync(path.join(home, '.codex'));
    expect((await doctor()).out).toMatch(
      /Codex is set up here but Gantry's hook is not installed\n\s+fix: gantry install --codex/,
    );
    expect(
      await runInstall(
        { home, cwd: project, codex: true, env: {} },
        () => undefined,
        () => undefined,
      ),
    ).toBe(0);
    expect((await doctor()).out).toMatch(
      /ok {3}Codex: hook installed in .*\.codex\/hooks\.json and answering \(.* --deny-only → deny\)/,
    );
  }, 60_000);

  it.each([
    [{}, {}, /^ok {3}destructive floor: standard \(the default\)$/m, 'nothing set: the default level'],
    [
      { destructiveFloor: 'strict' },
      {},
      /^ok {3}destructive floor: strict \(set by user settings .*\/\.claude\/settings\.json\)$/m,
      'raised in user settings: the level and the file',
    ],
    [
      {},
      { destructiveFloor: 'off' },
      /^ok {3}destructive floor: standard \(the default\); ignored: .*app\/\.claude\/settings\.json sets destructiveFloor "off", but only user or managed settings may lower it/m,
      'a project file cannot lower it: the ignored attempt is named',
    ],
  ])(
    'names the destructive floor level and who set it (%j user, %j project: %s)',
    async (user, proj, line, _why) => {
      writeFileSync(path.join(home, '.claude', 'settings.json'), JSON.stringify(user));
      writeFileSync(path.join(project, '.claude', 'settings.json'), JSON.stringify(proj));
      const { out } = await doctor();
      expect(out).toMatch(line);
    },
  );

  it.each([
    [
      {},
      undefined,
      /WebSearch in agent sessions: WebSearch is off: no search provider is configured/,
      'no key, no URL',
    ],
    [
      { SEARXNG_URL: 'http://127.0.0.1:8888' },
      undefined,
      /searxng/i,
      'a SearXNG instance from the environment',
    ],
    [{}, { provider: 'brave' as const }, /BRAVE_API_KEY is not set/, 'a named provider without its key'],
  ])('the WebSearch line says which provider or why none (%j, %j: %s)', (env, settings, text, _why) => {
    const [finding] = checkWebSearch(env, settings);
    expect(finding?.kind).toBe('ok');
    expect(finding?.text).toMatch(text);
  });

  it.each([
    ['a case slip', 'bash', 'Bash'],
    ['a dropped letter', 'Grp', 'Grep'],
    ['far from every tool', 'Frobnicate', undefined],
  ])('didYouMean: %s', (_why, name, guess) => {
    expect(didYouMean(name)).toBe(guess);
  });
});
