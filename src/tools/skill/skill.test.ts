/**
 * Skills from the fixture folders (fixtures/project, fixtures/home): discovery order and problems,
 * frontmatter parsing, and the Skill tool through the runtime — rendering with substitutions, an
 * inline command run through the real Bash tool and its permission step, temporary rules and the
 * model override handed to the session, `context: fork` handed to the sub-agent runner.
 */
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type {
  PermissionDecider,
  SubagentRequest,
  TemporaryRulesRequest,
  UntilNextPromptControls,
} from '../../core/index.js';
import { createToolRuntime } from '../../runtime/create-tool-runtime.js';
import { allowAllDecider } from '../../runtime/deciders.js';
import { createSessionServices } from '../../runtime/session-services.js';
import { makeTempDir, toolUse } from '../../testing/runtime-fixtures.js';
import { BashTool } from '../bash/bash.tool.js';
import { skillDescriber } from './describe.js';
import { discoverSkills } from './discovery.js';
import { parseSkillFile } from './frontmatter.js';
import { createSkillTool } from './skill.tool.js';

const fixtures = fileURLToPath(new URL('./fixtures/', import.meta.url));
const projectRoot = path.join(fixtures, 'project');
const home = path.join(fixtures, 'home');

let temp: { dir: string; cleanup(): Promise<void> };
beforeEach(async () => {
  temp = await makeTempDir();
});
afterEach(async () => {
  await temp.cleanup();
});

describe('skill discovery', () => {
  const catalog = discoverSkills({ projectRoot, home });

  it('finds project skills before user skills; the first of a name wins', () => {
    expect(catalog.skills.map((s) => [s.name, s.origin])).toEqual([
      ['review', 'project'],
      ['deploy', 'project'],
      ['hidden', 'project'],
      ['notes', 'user'],
    ]);
    expect(catalog.skills.find((s) => s.name === 'deploy')?.description).toBe(
      'Deploy the service to an environment',
    );
  });

  it.each([
    ['broken', /invalid YAML frontmatter/, 'unparseable YAML names the file'],
    ['BadName', /skill name "bad name with spaces" is not valid/, 'a name outside the allowed characters'],
    [
      path.join('home', '.claude', 'skills', 'deploy'),
      /shadowed by the skill "deploy"/,
      'a shadowed user skill',
    ],
  ])('reports %s (%s; %s)', (where, message, _reason) => {
    const problem = catalog.problems.find((p) => p.file.includes(`${where}${path.sep}SKILL.md`));
    expect(problem?.message).toMatch(message);
  });

  it('takes the description from the first paragraph when there is no frontmatter', () => {
    expect(catalog.skills.find((s) => s.name === 'notes')?.description).toBe('Keep meeting notes');
  });
});

describe('frontmatter', () => {
  it.each([
    [
      '---\nallowed-tools: Bash(git add *), Read  Grep\n---\nx',
      ['Bash(git add *)', 'Read', 'Grep'],
      'a string list keeps parentheses together',
    ],
    ['---\nallowed-tools:\n  - Read\n  - "Bash(ls:*)"\n---\nx', ['Read', 'Bash(ls:*)'], 'a YAML list'],
  ])('reads %j as %j (%s)', (text, expected, _reason) => {
    const parsed = parseSkillFile(text);
    expect(parsed.ok && parsed.meta.allowedTools).toEqual(expected);
  });

  it.each([
    ['---\ncontext: sideways\n---\nx', /`context` must be `fork`/, 'an unknown context'],
    ['---\ndisable-model-invocation: "yes"\n---\nx', /must be true or false/, 'a non-boolean switch'],
    ['---\n- a\n- b\n---\nx', /must be a YAML mapping/, 'a list instead of a mapping'],
    ['---\nallowed-tools: {a: 1}\n---\nx', /must be a list of tool rules/, 'a mapping as a tool list'],
  ])('refuses %j (%s; %s)', (text, message, _reason) => {
    const parsed = parseSkillFile(text);
    expect(parsed.ok).toBe(false);
    expect(!parsed.ok && parsed.error).toMatch(message);
  });
});

describe('the Skill tool', () => {
  function setup(
    options: { decide?: PermissionDecider; controls?: UntilNextPromptControls; fork?: boolean } = {},
  ) {
    const forks: SubagentRequest[] = [];
    const services = createSessionServices({
      ...(options.controls ? { untilNextPrompt: options.controls } : {}),
      ...(options.fork
        ? {
            runSubagent: async (request: SubagentRequest) => {
              forks.push(request);
              return {
                text: 'No problems found.',
                agentId: 'agent-1',
                agentType: request.agentType ?? 'general-purpose',
                status: 'completed' as const,
                totalTokens: 0,
                toolUseCount: 0,
              };
            },
          }
        : {}),
    });
    const tool = createSkillTool({ projectRoot, home });
    const runtime = createToolRuntime({
      tools: [tool, BashTool],
      cwd: temp.dir,
      projectRoot,
      sessionDir: temp.dir,
      decide: options.decide ?? allowAllDecider,
      services,
    });
    const call = async (input: Record<string, unknown>) => {
      const { results, calls } = await runtime.runToolsToCompletion([toolUse('s1', 'Skill', input)]);
      return { result: results[0]!, call: calls[0]!, outcome: calls[0] as any };
    };
    return { tool, call, forks, dispose: () => services.dispose() };
  }

  it('offers only model-invocable skills, by name and description, in the session context', async () => {
    const { tool, dispose } = setup();
    const listing = tool.reminders?.sessionContext?.();
    expect(listing).toContain('- deploy: Deploy the service to an environment');
    expect(listing).toContain('- review: Review the current diff in a separate agent');
    expect(listing).not.toContain('hidden');
    expect(tool.description).not.toContain('deploy');
    await dispose();
  });

  it('loads the rendered body, runs the inline command through Bash, hands over rules and model', async () => {
    const requests: TemporaryRulesRequest[] = [];
    const models: string[] = [];
    const controls: UntilNextPromptControls = {
      addRules: (request) => {
        requests.push(request);
        return { granted: ['Read'], refused: [{ rule: 'Bash(npm run deploy:*)', reason: 'not trusted' }] };
      },
      overrideModel: (model) => void models.push(model),
    };
    const { call, dispose } = setup({ controls });
    const { result, call: record } = await call({ skill: '/deploy', args: 'staging' });
    expect(result.is_error ?? false).toBe(false);
    expect(result.content).toContain('Launching skill: deploy');
    expect(result.content).toContain('Bash(npm run deploy:*): not trusted');
    expect(record.data).toMatchObject({
      success: true,
      commandName: 'deploy',
      status: 'inline',
      grantedRules: ['Read'],
      model: 'haiku',
    });
    expect(requests).toEqual([
      {
        allow: ['Bash(npm run deploy:*)', 'Read'],
        deny: ['WebFetch'],
        label: 'skill deploy',
        origin: 'project',
      },
    ]);
    expect(models).toEqual(['haiku']);
    const runtimeCall = record as unknown as { newMessages?: any[] };
    const body = JSON.stringify(runtimeCall.newMessages ?? []);
    expect(body).toContain(path.join(projectRoot, '.claude', 'skills', 'deploy', 'deploy.sh'));
    expect(body).toContain(`from ${projectRoot}.`);
    expect(body).toContain('Target: staging');
    expect(body).toContain('Current branch: skill-inline-ok');
    await dispose();
  });

  it('an inline command the permission step refuses does not run; the body says so', async () => {
    const decide: PermissionDecider = async (request) =>
      request.toolName === 'Bash'
        ? { behavior: 'deny', reason: { type: 'rule', message: 'Bash is denied here' } as never }
        : { behavior: 'allow', reason: { type: 'rule', message: 'ok' } as never };
    const { call, dispose } = setup({ decide });
    const { call: record } = await call({ skill: 'deploy' });
    const body = JSON.stringify((record as unknown as { newMessages?: unknown[] }).newMessages ?? []);
    expect(body).not.toContain('skill-inline-ok');
    expect(body).toContain('[command refused:');
    await dispose();
  });

  it('context: fork runs the body in a sub-agent through the session service', async () => {
    const { call, forks, dispose } = setup({ fork: true });
    const { result, call: record } = await call({ skill: 'review', args: 'error handling' });
    expect(result.content).toContain('ran in a sub-agent');
    expect(result.content).toContain('No problems found.');
    expect(record.data).toMatchObject({ status: 'forked', agentId: 'agent-1' });
    expect(forks).toHaveLength(1);
    expect(forks[0]).toMatchObject({
      description: 'skill review',
      tools: ['Read', 'Grep'],
      agentType: 'Explore',
    });
    expect(forks[0]?.prompt).toContain('Focus: error handling');
    await dispose();
  });

  it('without a sub-agent runner a fork skill fails clearly', async () => {
    const { result, dispose } = await (async () => {
      const s = setup();
      return { ...(await s.call({ skill: 'review' })), dispose: s.dispose };
    })();
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(/cannot start sub-agents/);
    await dispose();
  });

  it.each([
    [
      { skill: 'nope' },
      /Unknown skill "nope"\. Available skills: review, deploy, notes/,
      'an unknown name lists the real ones',
    ],
    [{ skill: 'hidden' }, /can only be run by the user/, 'disable-model-invocation'],
  ])('refuses %j (%s; %s)', async (input, message, _reason) => {
    const { call, dispose } = setup();
    const { result } = await call(input);
    expect(result.is_error).toBe(true);
    expect(result.content).toMatch(message);
    await dispose();
  });

  it.each([
    [{ skill: 'deploy' }, ['deploy'], 'no args: `Skill(deploy)` matches'],
    [{ skill: '/deploy', args: 'prod' }, ['deploy prod'], 'with args: only `Skill(deploy *)` matches'],
    [{}, [], 'no name: no rule content'],
  ])('describes %j with rule contents %j (%s)', async (input, contents, _reason) => {
    const d = await skillDescriber.describe(input, { cwd: '/', home: '/', resolver: undefined as never });
    expect(d.ruleContents).toEqual(contents);
    expect(d.readOnly).toBe(false);
  });
});
