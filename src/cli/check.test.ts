import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCheck } from './check.js';

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

const DEFAULT_SETTINGS = {
  permissions: { allow: ['Bash(npm test:*)'], deny: ['Bash(rm:*)', 'Read(./.env)'] },
};

function world(settings: unknown = DEFAULT_SETTINGS) {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-check-')));
  roots.push(root);
  const home = path.join(root, 'home');
  const project = path.join(home, 'project');
  mkdirSync(path.join(project, '.claude'), { recursive: true });
  writeFileSync(
    path.join(project, '.claude', 'settings.json'),
    typeof settings === 'string' ? settings : JSON.stringify(settings, null, 2),
  );
  return { home, project };
}

async function check(words: string[], extra: Record<string, unknown> = {}, settings?: unknown) {
  const { home, project } = world(settings);
  let stdout = '';
  let stderr = '';
  const code = await runCheck(words, {
    cwd: project,
    home,
    trust: true,
    out: (t) => {
      stdout += t;
    },
    err: (t) => {
      stderr += t;
    },
    ...extra,
  });
  return { code, stdout, stderr, project };
}

describe('gantry check', () => {
  it.each([
    [['git', 'status'], 0, 'read-only command → allow (exit 0)'],
    [['npm test -- --watch=false'], 0, 'covered by the project allow rule'],
    [['npm', 'install', 'left-pad'], 1, 'no rule, not read-only → ask (exit 1)'],
    [['git status && rm -rf build'], 2, 'deny rule on rm matches the second sub-command → deny (exit 2)'],
    [['cat .env'], 2, 'Read(./.env) deny rule also stops cat'],
    [["echo 'x' >> ~/.bashrc"], 2, 'protected file write → deny'],
    [
      ["bash -c 'cd ~ && echo x >> .bashrc'"],
      2,
      'protected name written in a directory the analysis cannot resolve → still deny',
    ],
    [['cd "$D" && echo k >> authorized_keys'], 2, 'protected name, unknown directory → deny'],
    [['echo k >> "$D"/notes.txt'], 1, 'unknown directory, ordinary name → ask, not deny'],
    [['cat ...'], 0, 'a file named ... is inside the project (not a parent directory)'],
  ])('%j → exit %i (%s)', async (words, expected, _why) => {
    const r = await check(words);
    expect(r.code).toBe(expected);
  });

  it('explains: sub-commands, the rule with its file and line, effects', async () => {
    const r = await check(['git status && rm -rf build']);
    expect(r.stdout).toMatch(/^DENY/);
    expect(r.stdout).toContain('1. git status');
    expect(r.stdout).toContain('2. rm -rf build');
    expect(r.stdout).toMatch(/Bash\(rm:\*\) \(deny, .*\.claude\/settings\.json:\d+\)/);
    expect(r.stdout).toMatch(/delete\s+.*\/build/);
  });

  it('names the check id that fired', async () => {
    const r = await check(['echo $(curl -s https://x.example)']);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/COMMAND_SUBSTITUTION/);
  });

  it('--json prints one object with decision, reason and rule', async () => {
    const r = await check(['rm -rf build'], { json: true });
    const j = JSON.parse(r.stdout);
    expect(j.decision).toBe('deny');
    expect(j.reason.rule.text).toBe('Bash(rm:*)');
    expect(j.reason.rule.line).toBeGreaterThan(0);
  });

  it('--tool/--input checks a file tool call', async () => {
    const { home, project } = world();
    let out = '';
    const code = await runCheck([], {
      cwd: project,
      home,
      tool: 'Write',
      input: JSON.stringify({ file_path: path.join(project, '.env'), content: 'X=1' }),
      out: (t) => {
        out += t;
      },
      err: () => undefined,
    });
    expect(code).toBe(2);
    expect(out).toMatch(/^DENY  Write/);
    expect(out).toMatch(/\.env/);
  });

  it.each([
    [[], {}, 'nothing to check'],
    [[], { tool: 'Read', input: '{not json' }, 'bad JSON input'],
    [['ls'], { tool: 'Read', input: '{}' }, 'both a command and --tool'],
    [['ls'], { mode: 'yolo' }, 'unknown mode'],
    [
      ['ls'],
      { settings: ['/nonexistent/team.json'] },
      'a --settings file that does not exist (its deny rules would be silently lost)',
    ],
  ])('usage error → exit 3 (%j %j: %s)', async (words, extra, _why) => {
    const r = await check(words, extra);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/gantry check:/);
  });

  it.each([
    [['valueOf'], 'a program named like an Object.prototype member'],
    [['hasOwnProperty'], 'another prototype name'],
    [['__proto__'], 'the prototype itself'],
    [['isPrototypeOf x'], 'a prototype name with an argument'],
    [['constructor'], 'the constructor'],
    [['toString && ls'], 'a prototype name in a compound command'],
  ])('%j is an unknown program: ask (exit 1), never a crash (%s)', async (words) => {
    const r = await check(words);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/^ASK/);
    expect(r.stdout).not.toMatch(/native code/);
  });

  it.each(['constructor', 'toString', 'hasOwnProperty', '__proto__', 'valueOf'])(
    '--tool %s is an unknown tool: ask, not a read-only allow',
    async (tool) => {
      const r = await check([], { tool, input: '{}' });
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/^ASK/);
    },
  );

  it('a deny rule named like a prototype member only denies that name', async () => {
    const settings = { permissions: { deny: ['toString', 'constructor(x)', 'valueOf(*)'] } };
    expect((await check(['ls'], {}, settings)).code).toBe(0);
    expect((await check([], { tool: 'Read', input: '{"file_path":"a.txt"}' }, settings)).code).toBe(0);
    const named = await check([], { tool: 'toString', input: '{}' }, settings);
    expect(named.code).toBe(2);
    expect(named.stdout).toMatch(/^DENY/);
  });

  it('a "__proto__" key in settings creates no rules (as JSON.parse reads the file)', async () => {
    const settings =
      '{"permissions": {"__proto__": {"allow": ["Bash(curl:*)"]}, "deny": []}, "__proto__": {"permissions": {"allow": ["Bash(curl:*)"]}}}';
    const r = await check(['curl https://example.com'], {}, settings);
    expect(r.code).toBe(1);
  });

  it.each([
    ['KillBash', 'the second legacy alias TaskStop declares'],
    ['KillShell', 'the first legacy alias'],
    ['TaskStop', 'the canonical name'],
  ])('deny: [%s] denies TaskStop (%s)', async (rule) => {
    const r = await check(
      [],
      { tool: 'TaskStop', input: '{"task_id":"b123456"}' },
      { permissions: { deny: [rule] } },
    );
    expect(r.code).toBe(2);
  });

  it('starting a subagent is allowed: its own calls are decided one by one', async () => {
    const input = JSON.stringify({
      description: 'clean',
      prompt: 'remove build/',
      subagent_type: 'general-purpose',
    });
    expect((await check([], { tool: 'Agent', input })).code).toBe(0);
    expect((await check([], { tool: 'Task', input })).code).toBe(0);
    expect(
      (await check([], { tool: 'Agent', input }, { permissions: { deny: ['Agent(general-purpose)'] } })).code,
    ).toBe(2);
  });

  it('an internal error exits 3 (1 means ask) with the reason on stderr', async () => {
    const r = await check(['ls'], {
      makeGuard: () => ({
        settings: { problems: [] },
        check: async () => {
          throw new Error('boom');
        },
      }),
    });
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/gantry check: internal error.*boom/);
  });
});

describe('gantry check with a broken settings file (fail closed)', () => {
  it.each([
    ['{\n  "permissions": {\n    "deny": ["Bash(ls:*)",]\n  }\n}\n', 3, 'JSON typo (trailing comma)'],
    ['{\n  "permissions": {\n    "deny": "Bash(ls:*)"\n  }\n}\n', 3, 'permissions.deny is a string'],
    ['{\n  "permissions": {\n    "deny": {"0": "Bash(ls:*)"}\n  }\n}\n', 3, 'permissions.deny is an object'],
  ])(
    'a broken ~/.claude/settings.json makes `ls` ask and names file:line (%#: %s)',
    async (text, line, _why) => {
      const { home, project } = world();
      const file = path.join(home, '.claude', 'settings.json');
      mkdirSync(path.dirname(file), { recursive: true });
      writeFileSync(file, text);
      let out = '';
      let err = '';
      const code = await runCheck(['ls'], {
        cwd: project,
        home,
        trust: true,
        out: (t) => {
          out += t;
        },
        err: (t) => {
          err += t;
        },
      });
      expect(code).toBe(1);
      expect(out).toMatch(/^ASK/);
      expect(out).toContain(`${file}:${line}`);
      expect(out).toContain('decided by: settings');
      expect(err).toContain(file);
      let json = '';
      await runCheck(['ls'], {
        cwd: project,
        home,
        trust: true,
        json: true,
        out: (t) => (json += t),
        err: () => {},
      });
      const j = JSON.parse(json);
      expect(j.decision).toBe('ask');
      expect(j.reason.type).toBe('settings');
      expect(j.settings.broken[0].file).toBe(file);
      const denied = await runCheck(['ls'], {
        cwd: project,
        home,
        trust: true,
        mode: 'dontAsk',
        out: () => {},
        err: () => {},
      });
      expect(denied).toBe(2);
    },
  );
});

describe('gantry check with the real tool describers: credential reads and odd paths', () => {
  const run = async (tool: string, input: (project: string, home: string) => Record<string, unknown>) => {
    const { home, project } = world();
    let out = '';
    const code = await runCheck([], {
      cwd: project,
      home,
      trust: true,
      tool,
      input: JSON.stringify(input(project, home)),
      out: (t) => {
        out += t;
      },
      err: () => undefined,
    });
    return { code, out };
  };
  it.each([
    [
      'Read',
      (p: string) => ({ file_path: `${p}/.env.local` }),
      1,
      /SECRET_FILE_READ/,
      'Read of an env file asks',
    ],
    [
      'Read',
      (_p: string, h: string) => ({ file_path: `${h}/.aws/credentials` }),
      1,
      /SECRET_FILE_READ/,
      'cloud credentials',
    ],
    [
      'Grep',
      (p: string) => ({ pattern: 'KEY', path: `${p}/server.key` }),
      1,
      /SECRET_FILE_READ/,
      'Grep on a key file',
    ],
    [
      'Read',
      (p: string) => ({ file_path: `${p}/.env.example` }),
      0,
      /read-only/,
      'a template is read freely',
    ],
    [
      'Write',
      (_p: string, h: string) => ({ file_path: `${h}/.bashrc\u0000.txt`, content: 'x' }),
      2,
      /PATH_NUL_BYTE/,
      'NUL',
    ],
    [
      'Write',
      (p: string) => ({ file_path: `${p}/a\u202etxt.sh`, content: 'x' }),
      1,
      /PATH_CONTROL_CHARACTER/,
      'bidi override',
    ],
  ] as const)('%s → exit %i (%s)', async (tool, input, code, pattern, _why) => {
    const r = await run(tool, input);
    expect(r.code, r.out).toBe(code);
    expect(r.out).toMatch(pattern);
  });
});

describe('gantry check shows the destructive floor', () => {
  it('names the row and its reason, the level in force, and a project that tried to lower it', async () => {
    const { home, project } = world();
    const file = path.join(project, '.claude', 'settings.json');
    writeFileSync(file, JSON.stringify({ destructiveFloor: 'off' }));
    let out = '';
    const code = await runCheck(['rm -rf ~'], {
      cwd: project,
      home,
      trust: true,
      mode: 'bypassPermissions',
      out: (t) => {
        out += t;
      },
      err: () => undefined,
    });
    expect(code).toBe(2);
    expect(out).toContain('destructive floor [remove-root-or-home]');
    expect(out).toContain('removing / or the home directory destroys');
    expect(out).toMatch(
      /destructive floor: standard \(default; .*settings\.json sets destructiveFloor "off", but only user or managed settings may lower it; ignored\)/,
    );
  });
});
