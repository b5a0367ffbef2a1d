/**
 * Custom agent files and `--agents` JSON: fields, precedence, and a clear file:line problem for
 * every file that cannot be used (loading never throws).
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAgentDefinitions } from './load-agents.js';

let root: string;
let home: string;
let project: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-agents-load-')));
  home = path.join(root, 'home');
  project = path.join(root, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function put(dir: string, name: string, text: string): string {
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

const agent = (fields: string, body = 'You do the thing.') => `---\n${fields}\n---\n${body}\n`;

describe('loadAgentDefinitions', () => {
  it('reads every field of a project agent; the body is its prompt; tools keep their order', () => {
    put(
      path.join(project, '.claude', 'agents'),
      'runner.md',
      agent(
        'name: test-runner\ndescription: Runs the tests.\ntools: Read, Glob, Bash\ndisallowedTools: [Write]\nmodel: haiku\npermissionMode: acceptEdits\nmaxTurns: 7\nbackground: true\nisolation: worktree',
        'You run the tests.',
      ),
    );
    const { agents, problems } = loadAgentDefinitions({ cwd: project, home });
    expect(problems).toEqual([]);
    expect(agents[0]).toMatchObject({
      agentType: 'test-runner',
      whenToUse: 'Runs the tests.',
      prompt: 'You run the tests.',
      tools: ['Read', 'Glob', 'Bash'],
      disallowedTools: ['Write'],
      model: 'haiku',
      permissionMode: 'acceptEdits',
      maxTurns: 7,
      background: true,
      isolation: 'worktree',
      source: 'project',
    });
    expect(agents.map((a) => a.agentType)).toEqual(
      expect.arrayContaining(['general-purpose', 'Explore', 'Plan', 'verification', 'fork']),
    );
  });

  it.each<[string, string, number, RegExp, string]>([
    ['no frontmatter', 'just text\n', 1, /frontmatter/, 'a file without `---` is not an agent'],
    ['unclosed', '---\nname: x\n', 1, /not closed/, 'a frontmatter with no closing fence'],
    [
      'bad yaml',
      '---\nname: x\ndescription: [unclosed\n---\nbody\n',
      4,
      /YAML/,
      'the unclosed list is reported where the parser notices it',
    ],
    ['no name', agent('description: d'), 1, /no `name`/, 'name is required'],
    ['bad name', agent('name: Bad_Name\ndescription: d'), 2, /lowercase/, 'name syntax'],
    ['no description', agent('name: ok'), 1, /description/, 'description is required'],
    [
      'bad mode',
      agent('name: ok\ndescription: d\npermissionMode: yolo'),
      4,
      /permissionMode/,
      'unknown mode',
    ],
    [
      'bad turns',
      agent('name: ok\ndescription: d\nmaxTurns: -2'),
      4,
      /maxTurns/,
      'maxTurns must be positive',
    ],
    ['bad tools', agent('name: ok\ndescription: d\ntools: {a: 1}'), 4, /tools/, 'tools must be a list'],
    ['fork', agent('name: fork\ndescription: d'), 2, /reserved/, 'the fork type cannot be replaced'],
  ])('%s → a problem with file and line (%s)', (_label, text, line, message, _reason) => {
    const file = put(path.join(project, '.claude', 'agents'), 'a.md', text);
    const { agents, problems } = loadAgentDefinitions({ cwd: project, home });
    expect(problems).toHaveLength(1);
    expect(problems[0]!.file).toBe(file);
    expect(problems[0]!.message).toMatch(message);
    expect(problems[0]!.line).toBe(line);
    expect(agents.every((a) => a.source === 'built-in')).toBe(true);
  });

  it('precedence: --agents, then .gantry/agents, then .claude/agents (closest first), then the home folders', () => {
    const sub = path.join(project, 'pkg');
    put(path.join(home, '.claude', 'agents'), 'h.md', agent('name: a\ndescription: from home'));
    put(path.join(project, '.claude', 'agents'), 'p.md', agent('name: a\ndescription: from project'));
    put(path.join(project, '.claude', 'agents'), 'b.md', agent('name: b\ndescription: b from project'));
    put(path.join(sub, '.claude', 'agents'), 'c.md', agent('name: b\ndescription: b from pkg'));
    put(path.join(sub, '.gantry', 'agents'), 'g.md', agent('name: c\ndescription: c from gantry'));
    put(path.join(sub, '.claude', 'agents'), 'c2.md', agent('name: c\ndescription: c from claude'));
    const flag = JSON.stringify({ d: { description: 'from flag', prompt: 'Flag prompt.', tools: ['Read'] } });
    const { agents, problems } = loadAgentDefinitions({
      cwd: sub,
      projectRoot: project,
      home,
      flagJson: flag,
    });
    expect(problems).toEqual([]);
    const by = (n: string) => agents.find((a) => a.agentType === n)!;
    expect(by('a').whenToUse).toBe('from project');
    expect(by('b').whenToUse).toBe('b from pkg');
    expect(by('c').whenToUse).toBe('c from gantry');
    expect(by('d')).toMatchObject({
      whenToUse: 'from flag',
      prompt: 'Flag prompt.',
      tools: ['Read'],
      source: 'flag',
    });
  });

  it('bad --agents JSON is a problem, not a crash', () => {
    const { problems } = loadAgentDefinitions({ cwd: project, home, flagJson: '{nope' });
    expect(problems[0]).toMatchObject({ file: '--agents', message: expect.stringMatching(/JSON/) });
  });
});
