/**
 * Every decision path of the pipeline, on hand-built call descriptions (the shell analysis is
 * tested in src/shell; the corpus test runs both together). Each row says why.
 */
import { describe, expect, it } from 'vitest';
import type { CallDescription, PermissionMode, ToolPermissionResult } from '../core/permission-types.js';
import type { InlineSettings } from './settings/from-rules.js';
import {
  bash,
  del,
  engineWith,
  fileCall,
  finding,
  HOME,
  net,
  PROJECT,
  read,
  request,
  ro,
  sub,
  unknown,
  write,
} from './test-support.js';

type Rules = Partial<Omit<InlineSettings, 'projectRoot' | 'home'>>;
interface Row {
  why: string;
  tool?: string;
  call: CallDescription;
  rules?: Rules;
  mode?: PermissionMode;
  links?: Record<string, string>;
  toolResult?: ToolPermissionResult;
  isReadOnly?: boolean;
  isMcp?: boolean;
  input?: Record<string, unknown>;
  expected: 'allow' | 'ask' | 'deny';
  reason: string;
  step?: string;
}

const P = (rel: string) => `${PROJECT}/${rel}`;

const rows: Row[] = [
  // Step 2: deny rules.
  {
    why: 'deny rule on a later sub-command',
    call: bash([ro('git status'), sub('rm -rf tmp')], [del(P('tmp'), 1)]),
    rules: { allow: ['Bash(git:*)'], deny: ['Bash(rm:*)'] },
    expected: 'deny',
    reason: 'rule',
    step: 'deny-rule',
  },
  {
    why: 'path-qualified program reduced to its basename for deny',
    call: bash([sub('/bin/rm -rf build')], [del(P('build'))]),
    rules: { deny: ['Bash(rm:*)'] },
    expected: 'deny',
    reason: 'rule',
  },
  {
    why: 'deny sees the stripped wrapper too',
    call: bash([sub('id', { wrappers: ['sudo'] })]),
    rules: { deny: ['Bash(sudo:*)'] },
    expected: 'deny',
    reason: 'rule',
  },
  {
    why: 'flag-aware deny: -fr equals -rf',
    call: bash([sub('rm -fr /')], [del('/')]),
    rules: { deny: ['Bash(rm -rf /:*)'] },
    expected: 'deny',
    reason: 'rule',
  },
  {
    why: 'Read deny over a read effect of cat',
    call: bash([ro('cat .env')], [read(P('.env'))]),
    rules: { deny: ['Read(./.env)'] },
    expected: 'deny',
    reason: 'rule',
  },
  {
    why: 'Read deny through a symlink (resolved target matches)',
    call: bash([ro('cat ./pw')], [read(P('pw'))]),
    rules: { deny: ['Read(/etc/passwd)'] },
    links: { [P('pw')]: '/etc/passwd' },
    expected: 'deny',
    reason: 'rule',
  },
  {
    why: 'Read deny also stops writes of the path',
    call: bash([sub('echo x')], [write(P('secrets/k'))]),
    rules: { deny: ['Read(./secrets/**)'] },
    expected: 'deny',
    reason: 'rule',
  },
  {
    why: 'Edit deny does not stop reads',
    call: bash([ro('cat src/a.ts')], [read(P('src/a.ts'))]),
    rules: { deny: ['Edit(./src/**)'] },
    expected: 'allow',
    reason: 'read-only',
  },
  {
    why: 'bare tool deny',
    tool: 'Read',
    call: fileCall('read', P('a.txt')),
    rules: { deny: ['Read'] },
    expected: 'deny',
    reason: 'rule',
  },
  {
    why: 'WebFetch domain deny applies to Bash network effects',
    call: bash([sub('curl https://evil.example/x')], [net('https://evil.example/x')]),
    rules: { deny: ['WebFetch(domain:evil.example)'] },
    expected: 'deny',
    reason: 'rule',
  },
  {
    why: 'deny beats a more specific allow (order independence)',
    call: bash([sub('aws s3 ls')]),
    rules: { allow: ['Bash(aws s3 ls)'], deny: ['Bash(aws:*)'] },
    expected: 'deny',
    reason: 'rule',
  },
  {
    why: 'the tool itself denies',
    tool: 'Write',
    call: fileCall('write', P('a.txt')),
    toolResult: { behavior: 'deny', reason: 'nope' },
    expected: 'deny',
    reason: 'tool',
  },
  // Step 3: protected and config paths.
  {
    why: 'redirect into ~/.bashrc is a protected write',
    call: bash([sub('echo x')], [write(`${HOME}/.bashrc`)]),
    rules: { allow: ['Bash(echo:*)'] },
    expected: 'deny',
    reason: 'protected-path',
  },
  {
    why: 'protected in bypassPermissions too',
    call: bash([sub('touch .env')], [write(P('.env'))]),
    mode: 'bypassPermissions',
    expected: 'deny',
    reason: 'protected-path',
  },
  {
    why: 'Write tool on .env in acceptEdits',
    tool: 'Write',
    call: fileCall('write', P('.env')),
    mode: 'acceptEdits',
    expected: 'deny',
    reason: 'protected-path',
  },
  {
    why: 'write through a symlink into ~/.ssh',
    tool: 'Write',
    call: fileCall('write', P('link/new.sh')),
    mode: 'acceptEdits',
    links: { [P('link')]: `${HOME}/.ssh` },
    expected: 'deny',
    reason: 'protected-path',
  },
  {
    why: 'look-alike .env.example is not protected',
    tool: 'Write',
    call: fileCall('write', P('.env.example')),
    mode: 'acceptEdits',
    expected: 'allow',
    reason: 'mode',
  },
  {
    why: 'reading a protected file is not blocked by the list (a non-secret one: .gitconfig)',
    tool: 'Read',
    call: fileCall('read', P('.gitconfig')),
    expected: 'allow',
    reason: 'read-only',
  },
  {
    why: 'reading .env asks: it is a credential file whose contents would go to the model provider',
    tool: 'Read',
    call: fileCall('read', P('.env')),
    expected: 'ask',
    reason: 'check',
  },
  {
    why: 'agent config write asks even in bypass',
    call: bash([sub('echo {}')], [write(P('.claude/settings.json'))]),
    mode: 'bypassPermissions',
    expected: 'ask',
    reason: 'config-path',
  },
  {
    why: '.git/hooks write asks in acceptEdits',
    tool: 'Write',
    call: fileCall('write', P('.git/hooks/pre-commit')),
    mode: 'acceptEdits',
    expected: 'ask',
    reason: 'config-path',
  },
  {
    why: 'removing the home directory is denied by the destructive floor, bypass included',
    call: bash([sub('rm -rf /home/user')], [del(HOME)]),
    mode: 'bypassPermissions',
    expected: 'deny',
    reason: 'check',
  },
  {
    why: 'critical-path removal (an ancestor of home, non-recursive) asks in bypass',
    call: bash([sub('rmdir /home')], [del('/home')]),
    mode: 'bypassPermissions',
    expected: 'ask',
    reason: 'check',
  },
  {
    why: 'deny-level finding blocks',
    call: bash([sub('x')], [], [finding('PROTECTED_WRITE', 'deny')]),
    expected: 'deny',
    reason: 'check',
  },
  // Step 4: checks.
  {
    why: 'a finding asks even under an allow rule',
    call: bash([sub('sed -e 1e id x')], [], [finding('SED_EXEC')]),
    rules: { allow: ['Bash(sed:*)'] },
    expected: 'ask',
    reason: 'check',
  },
  {
    why: 'an unknown network host alone does not ask under an allow rule',
    call: bash([sub('npx tsc --noEmit')], [unknown('network', 'npm registry')]),
    rules: { allow: ['Bash(npx tsc:*)'] },
    expected: 'allow',
    reason: 'rule',
  },
  {
    why: 'an unknown network host asks when domain rules exist',
    call: bash([sub('npx tsc --noEmit')], [unknown('network', 'npm registry')]),
    rules: { allow: ['Bash(npx tsc:*)'], deny: ['WebFetch(domain:evil.example)'] },
    expected: 'ask',
    reason: 'unknown-effect',
  },
  {
    why: 'an unknown network host without an allow rule still asks (not read-only)',
    call: bash([sub('curl $URL')], [unknown('network', '$URL')]),
    expected: 'ask',
    reason: 'default',
  },
  {
    why: 'a read-only sub-command with a network effect is not read-only',
    call: bash([ro('git ls-remote origin')], [net('github.com')]),
    expected: 'ask',
    reason: 'default',
  },
  {
    why: 'an unknown effect never allows',
    call: bash([ro('cat $f')], [unknown('read', '$f')]),
    expected: 'ask',
    reason: 'unknown-effect',
  },
  {
    why: 'read outside the working directory',
    call: bash([ro('cat /etc/passwd')], [read('/etc/passwd')]),
    expected: 'ask',
    reason: 'working-directory',
  },
  {
    why: 'string-prefix sibling is outside',
    call: bash([ro('cat ../project-secrets/k')], [read('/home/user/project-secrets/k')]),
    expected: 'ask',
    reason: 'working-directory',
  },
  {
    why: 'write outside even with the program allowed',
    call: bash([sub('echo payload')], [write('/tmp/x.sh')]),
    rules: { allow: ['Bash(echo:*)'] },
    expected: 'ask',
    reason: 'working-directory',
  },
  {
    why: 'symlink inside the project pointing outside',
    tool: 'Write',
    call: fileCall('write', P('outbox/e.txt')),
    mode: 'acceptEdits',
    links: { [P('outbox')]: `${HOME}/outside` },
    expected: 'ask',
    reason: 'working-directory',
  },
  {
    why: 'a Read allow rule covers a path outside',
    call: bash([ro('cat /etc/hosts')], [read('/etc/hosts')]),
    rules: { allow: ['Read(//etc/**)'] },
    expected: 'allow',
    reason: 'read-only',
  },
  {
    why: '/dev/null is exempt (a redirect there keeps ls read-only)',
    call: bash([ro('ls')], [write('/dev/null')]),
    expected: 'allow',
    reason: 'read-only',
  },
  {
    why: 'additional directory counts as inside',
    call: bash([ro('cat /srv/docs/a.md')], [read('/srv/docs/a.md')]),
    rules: { additionalDirectories: ['/srv/docs'] },
    expected: 'allow',
    reason: 'read-only',
  },
  {
    why: 'bypass skips the checks (a read outside the working directories)',
    call: bash([ro('cat /tmp/x')], [read('/tmp/x')]),
    mode: 'bypassPermissions',
    expected: 'allow',
    reason: 'mode',
  },
  {
    why: 'bypass still asks for an unknown write target (it could be a protected file)',
    call: bash([sub('echo x')], [unknown('write', '$F')]),
    mode: 'bypassPermissions',
    expected: 'ask',
    reason: 'unknown-effect',
  },
  {
    why: 'bypass still asks for an unknown read target when Read deny rules exist',
    call: bash([ro('cat $f')], [unknown('read', '$f')]),
    rules: { deny: ['Read(./.env)'] },
    mode: 'bypassPermissions',
    expected: 'ask',
    reason: 'unknown-effect',
  },
  {
    why: 'bypass allows an unknown read target when no path rule exists',
    call: bash([ro('cat $f')], [unknown('read', '$f')]),
    mode: 'bypassPermissions',
    expected: 'allow',
    reason: 'mode',
  },
  // Step 5: ask rules.
  {
    why: 'ask rule wins over a broader allow',
    call: bash([
      sub('git commit -m x', { envAssignments: [{ name: 'CI', value: 'true', dangerous: false }] }),
    ]),
    rules: { allow: ['Bash(git:*)'], ask: ['Bash(git commit:*)'] },
    expected: 'ask',
    reason: 'rule',
  },
  {
    why: 'ask rules apply in bypass (the Claude Code permissions docs)',
    call: bash([sub('git push')]),
    rules: { ask: ['Bash(git push:*)'] },
    mode: 'bypassPermissions',
    expected: 'ask',
    reason: 'rule',
  },
  {
    why: 'the tool asks (requiresUserInteraction)',
    tool: 'AskUserQuestion',
    call: { ruleContents: [], effects: [], findings: [], readOnly: false, summary: 'q' },
    toolResult: { behavior: 'ask', reason: 'needs the user' },
    mode: 'bypassPermissions',
    expected: 'ask',
    reason: 'tool',
  },
  // Step 6: modes.
  {
    why: 'plan mode refuses a write',
    tool: 'Write',
    call: fileCall('write', P('a.ts')),
    mode: 'plan',
    expected: 'deny',
    reason: 'mode',
  },
  {
    why: 'plan mode allows read-only tools',
    tool: 'Read',
    call: fileCall('read', P('a.ts')),
    mode: 'plan',
    expected: 'allow',
    reason: 'read-only',
  },
  {
    why: 'plan mode refuses an allowed non-read-only command',
    call: bash([sub('npm test')]),
    rules: { allow: ['Bash(npm test:*)'] },
    mode: 'plan',
    expected: 'deny',
    reason: 'mode',
  },
  {
    why: 'plan mode lets ExitPlanMode through to the normal flow',
    tool: 'ExitPlanMode',
    call: { ruleContents: [], effects: [], findings: [], readOnly: false, summary: 'plan' },
    toolResult: { behavior: 'ask', reason: 'approve the plan' },
    mode: 'plan',
    expected: 'ask',
    reason: 'tool',
  },
  {
    why: 'acceptEdits allows an in-project edit',
    tool: 'Edit',
    call: fileCall('write', P('README.md')),
    mode: 'acceptEdits',
    expected: 'allow',
    reason: 'mode',
  },
  {
    why: 'acceptEdits allows touch in the project',
    call: bash([sub('touch src/x.ts')], [write(P('src/x.ts'))]),
    mode: 'acceptEdits',
    expected: 'allow',
    reason: 'mode',
  },
  {
    why: 'acceptEdits does not allow rm (corpus list: mkdir, touch, cp, mv)',
    call: bash([sub('rm -rf src')], [del(P('src'))]),
    mode: 'acceptEdits',
    expected: 'ask',
    reason: 'default',
  },
  {
    why: 'acceptEdits does not allow network commands',
    call: bash([sub('curl x')], [net('x')]),
    mode: 'acceptEdits',
    expected: 'ask',
    reason: 'default',
  },
  {
    why: 'acceptEdits: path-qualified cp is not the trusted tool',
    call: bash([sub('./cp a b', { program: './cp' })], [write(P('b'))]),
    mode: 'acceptEdits',
    expected: 'ask',
    reason: 'default',
  },
  {
    why: 'default mode asks for a file write',
    tool: 'Write',
    call: fileCall('write', P('src/new.ts')),
    expected: 'ask',
    reason: 'default',
  },
  {
    why: 'dontAsk turns the ask into a deny',
    tool: 'Write',
    call: fileCall('write', P('src/new.ts')),
    mode: 'dontAsk',
    expected: 'deny',
    reason: 'default',
  },
  {
    why: 'dontAsk still allows allow-rule matches',
    call: bash([sub('npm test')]),
    rules: { allow: ['Bash(npm test:*)'] },
    mode: 'dontAsk',
    expected: 'allow',
    reason: 'rule',
  },
  // Step 7: allow rules / read-only.
  {
    why: 'every sub-command read-only',
    call: bash([ro('ls -la'), ro('head -20')], [read(P('.'))]),
    expected: 'allow',
    reason: 'read-only',
  },
  {
    why: 'allow rule + read-only mix',
    call: bash([sub('npm run build'), ro('tail -3')]),
    rules: { allow: ['Bash(npm run build:*)'] },
    expected: 'allow',
    reason: 'rule',
  },
  {
    why: 'allow rule covers a redirect into the project (corpus S-159)',
    call: bash([sub('echo hi')], [write(P('notes.txt'))]),
    rules: { allow: ['Bash(echo:*)'] },
    expected: 'allow',
    reason: 'rule',
  },
  {
    why: 'a read-only sub-command that writes a file is not read-only',
    call: bash([ro('echo hi')], [write(P('notes.txt'))]),
    expected: 'ask',
    reason: 'default',
  },
  {
    why: 'allow rule does not match a path-qualified program',
    call: bash([sub('/usr/bin/npm test', { program: '/usr/bin/npm' })]),
    rules: { allow: ['Bash(npm test:*)'] },
    expected: 'ask',
    reason: 'default',
  },
  {
    why: 'allow rule does not see through sudo',
    call: bash([sub('npm test', { wrappers: ['sudo'] })]),
    rules: { allow: ['Bash(npm test:*)'] },
    expected: 'ask',
    reason: 'default',
  },
  {
    why: 'allow rule sees through timeout',
    call: bash([sub('npm test', { wrappers: ['timeout'] })]),
    rules: { allow: ['Bash(npm test:*)'] },
    expected: 'allow',
    reason: 'rule',
  },
  {
    why: 'allow rule does not see through a dangerous assignment',
    call: bash([sub('go test', { envAssignments: [{ name: 'LD_PRELOAD', value: 'x', dangerous: true }] })]),
    rules: { allow: ['Bash(go test:*)'] },
    expected: 'ask',
    reason: 'default',
  },
  {
    why: 'harmless assignment is transparent',
    call: bash([sub('go test', { envAssignments: [{ name: 'CGO_ENABLED', value: '0', dangerous: false }] })]),
    rules: { allow: ['Bash(go test:*)'] },
    expected: 'allow',
    reason: 'rule',
  },
  {
    why: 'one uncovered sub-command asks',
    call: bash([sub('npm run lint'), sub('npm run build')]),
    rules: { allow: ['Bash(npm run lint:*)'] },
    expected: 'ask',
    reason: 'default',
  },
  {
    why: 'Edit path allow rule',
    tool: 'Edit',
    call: fileCall('write', P('src/a.ts')),
    rules: { allow: ['Edit(./src/**)'] },
    expected: 'allow',
    reason: 'rule',
  },
  {
    why: 'Edit allow outside the rule asks',
    tool: 'Edit',
    call: fileCall('write', P('docs/a.md')),
    rules: { allow: ['Edit(./src/**)'] },
    expected: 'ask',
    reason: 'default',
  },
  {
    why: 'Edit allow needs both link and target to match',
    tool: 'Edit',
    call: fileCall('write', P('src/link')),
    rules: { allow: ['Edit(./src/**)'] },
    links: { [P('src/link')]: P('docs/x') },
    expected: 'ask',
    reason: 'default',
  },
  {
    why: 'bare Edit allow does not cover Write (Claude Code 2.1.332 asks)',
    tool: 'Write',
    call: fileCall('write', P('new.txt')),
    rules: { allow: ['Edit'] },
    expected: 'ask',
    reason: 'default',
  },
  {
    why: 'bare Write allow covers Write',
    tool: 'Write',
    call: fileCall('write', P('new.txt')),
    rules: { allow: ['Write'] },
    expected: 'allow',
    reason: 'rule',
  },
  {
    why: 'bare Edit deny covers every file writer',
    tool: 'NotebookEdit',
    call: fileCall('write', P('a.ipynb')),
    rules: { deny: ['Edit'] },
    expected: 'deny',
    reason: 'rule',
  },
  {
    why: 'Agent rule covers the legacy Task name',
    tool: 'Task',
    call: { ruleContents: ['Explore'], effects: [], findings: [], readOnly: false, summary: 'a' },
    rules: { deny: ['Agent(Explore)'] },
    expected: 'deny',
    reason: 'rule',
  },
  {
    why: 'bare tool allow',
    tool: 'WebSearch',
    call: { ruleContents: [], effects: [], findings: [], readOnly: false, summary: 'q' },
    rules: { allow: ['WebSearch'] },
    expected: 'allow',
    reason: 'rule',
  },
  {
    why: 'WebFetch domain allow',
    tool: 'WebFetch',
    call: {
      ruleContents: ['domain:docs.example.com'],
      effects: [net('https://docs.example.com/')],
      findings: [],
      readOnly: true,
      summary: 'f',
    },
    rules: { allow: ['WebFetch(domain:*.example.com)'] },
    expected: 'allow',
    reason: 'rule',
  },
  {
    why: 'WebFetch without rule asks (network is not read-only)',
    tool: 'WebFetch',
    call: {
      ruleContents: ['domain:docs.example.com'],
      effects: [net('https://docs.example.com/')],
      findings: [],
      readOnly: true,
      summary: 'f',
    },
    expected: 'ask',
    reason: 'default',
  },
  {
    why: 'MCP server rule',
    tool: 'mcp__github__get_issue',
    call: { ruleContents: [], effects: [], findings: [], readOnly: false, summary: 'm' },
    rules: { allow: ['mcp__github'] },
    expected: 'allow',
    reason: 'rule',
  },
  {
    why: 'MCP readOnlyHint is never authority',
    tool: 'mcp__x__y',
    call: { ruleContents: [], effects: [], findings: [], readOnly: true, summary: 'm' },
    isReadOnly: true,
    expected: 'ask',
    reason: 'default',
  },
  {
    why: 'tool says allow (no effects of concern)',
    tool: 'TodoWrite',
    call: { ruleContents: [], effects: [], findings: [], readOnly: false, summary: 't' },
    toolResult: { behavior: 'allow', reason: 'harmless' },
    expected: 'allow',
    reason: 'tool',
  },
  {
    why: 'parameter ask rule',
    call: { ...bash([ro('ls')]) },
    rules: { ask: ['Bash(run_in_background:true)'] },
    expected: 'ask',
    reason: 'rule',
  },
  // Trait table (core/tool-traits.ts): aliases, no-effect tools, user interaction, MCP.
  {
    why: 'a deny on the alias KillBash covers TaskStop (the alias the tool declares)',
    tool: 'TaskStop',
    call: { ruleContents: [], effects: [], findings: [], readOnly: false, summary: 'x' },
    rules: { deny: ['KillBash'] },
    expected: 'deny',
    reason: 'rule',
  },
  {
    why: 'a deny on the alias KillShell covers TaskStop',
    tool: 'TaskStop',
    call: { ruleContents: [], effects: [], findings: [], readOnly: false, summary: 'x' },
    rules: { deny: ['KillShell'] },
    expected: 'deny',
    reason: 'rule',
  },
  {
    why: 'a deny on TaskStop covers a call made under the old name KillBash',
    tool: 'KillBash',
    call: { ruleContents: [], effects: [], findings: [], readOnly: false, summary: 'x' },
    rules: { deny: ['TaskStop'] },
    expected: 'deny',
    reason: 'rule',
  },
  {
    why: 'a deny on BashOutput covers TaskOutput',
    tool: 'TaskOutput',
    call: { ruleContents: [], effects: [], findings: [], readOnly: false, summary: 'x' },
    rules: { deny: ['BashOutput'] },
    expected: 'deny',
    reason: 'rule',
  },
  {
    why: 'starting a subagent has no effect of its own: its calls are decided one by one',
    tool: 'Agent',
    call: { ruleContents: ['general-purpose'], effects: [], findings: [], readOnly: false, summary: 'a' },
    expected: 'allow',
    reason: 'read-only',
  },
  {
    why: 'the legacy Task name is the same no-effect tool',
    tool: 'Task',
    call: { ruleContents: ['Explore'], effects: [], findings: [], readOnly: false, summary: 'a' },
    expected: 'allow',
    reason: 'read-only',
  },
  {
    why: 'an ask rule on Agent still asks',
    tool: 'Agent',
    call: { ruleContents: ['general-purpose'], effects: [], findings: [], readOnly: false, summary: 'a' },
    rules: { ask: ['Agent'] },
    expected: 'ask',
    reason: 'rule',
  },
  {
    why: 'a bare deny on Task denies Agent',
    tool: 'Agent',
    call: { ruleContents: ['general-purpose'], effects: [], findings: [], readOnly: false, summary: 'a' },
    rules: { deny: ['Task'] },
    expected: 'deny',
    reason: 'rule',
  },
  {
    why: 'TodoWrite passes plan mode (no effect of its own)',
    tool: 'TodoWrite',
    call: { ruleContents: [], effects: [], findings: [], readOnly: false, summary: 'x' },
    mode: 'plan',
    expected: 'allow',
    reason: 'read-only',
  },
  {
    why: 'TaskCreate changes only the session task list',
    tool: 'TaskCreate',
    call: { ruleContents: [], effects: [], findings: [], readOnly: false, summary: 'x' },
    expected: 'allow',
    reason: 'read-only',
  },
  {
    why: 'AskUserQuestion without answers asks: the host shows the questions and answers them',
    tool: 'AskUserQuestion',
    call: { ruleContents: [], effects: [], findings: [], readOnly: false, summary: 'x' },
    expected: 'ask',
    reason: 'default',
  },
  {
    why: 'AskUserQuestion needs a person: dontAsk denies it',
    tool: 'AskUserQuestion',
    call: { ruleContents: [], effects: [], findings: [], readOnly: false, summary: 'x' },
    mode: 'dontAsk',
    expected: 'deny',
    reason: 'mode',
  },
  {
    why: 'a no-effect tool with an effect in its description is judged by the effect',
    tool: 'TodoWrite',
    call: { ruleContents: [], effects: [write('/etc/passwd')], findings: [], readOnly: false, summary: 'x' },
    expected: 'ask',
    reason: 'working-directory',
  },
  {
    why: 'an MCP tool (flagged by the request, whatever its name) is never read-only on its own word',
    tool: 'github_get_issue',
    call: { ruleContents: [], effects: [], findings: [], readOnly: true, summary: 'm' },
    isReadOnly: true,
    isMcp: true,
    expected: 'ask',
    reason: 'default',
  },
  {
    why: 'auto mode: the classifier does not wave through a tool Gantry does not know (no declared effects)',
    tool: 'Frobnicate',
    call: { ruleContents: [], effects: [], findings: [], readOnly: false, summary: 'x' },
    mode: 'auto',
    expected: 'ask',
    reason: 'classifier',
  },
  {
    why: 'an unknown tool named like a prototype member asks',
    tool: 'constructor',
    call: { ruleContents: [], effects: [], findings: [], readOnly: false, summary: 'x' },
    expected: 'ask',
    reason: 'default',
  },
  {
    why: 'Grep parameter rules apply to Grep (its path rules are Read rules)',
    tool: 'Grep',
    call: fileCall('read', P('src')),
    input: { pattern: 'x', path: P('src'), output_mode: 'content' },
    rules: { deny: ['Grep(output_mode:content)'] },
    expected: 'deny',
    reason: 'rule',
  },
  {
    why: 'a Grep path rule is applied as a Read rule',
    tool: 'Read',
    call: fileCall('read', P('secret/a.txt')),
    rules: { deny: ['Grep(./secret/**)'] },
    expected: 'deny',
    reason: 'rule',
  },

  // Monitor: its `command` is judged exactly like a Bash call with that command.
  {
    why: 'a Bash deny rule denies a Monitor command running that program',
    tool: 'Monitor',
    call: bash([ro('tail -f app.log'), sub('rm -rf tmp')], [read(P('app.log')), del(P('tmp'), 1)]),
    input: { description: 'x', command: 'tail -f app.log; rm -rf tmp' },
    rules: { deny: ['Bash(rm:*)'] },
    expected: 'deny',
    reason: 'rule',
    step: 'deny-rule',
  },
  {
    why: 'a harmless read-only Monitor command is allowed as the same Bash command is',
    tool: 'Monitor',
    call: bash([ro('tail -f app.log')], [read(P('app.log'))]),
    input: { description: 'x', command: 'tail -f app.log' },
    expected: 'allow',
    reason: 'read-only',
  },
  {
    why: 'the same read-only command on Bash (the row above, for comparison)',
    call: bash([ro('tail -f app.log')], [read(P('app.log'))]),
    expected: 'allow',
    reason: 'read-only',
  },
  {
    why: 'a Bash allow rule covers the same Monitor command',
    tool: 'Monitor',
    call: bash([sub('npm run watch')]),
    input: { description: 'x', command: 'npm run watch' },
    rules: { allow: ['Bash(npm run watch)'] },
    expected: 'allow',
    reason: 'rule',
  },
  {
    why: 'a Monitor command no rule allows asks, like Bash',
    tool: 'Monitor',
    call: bash([sub('npm run watch')]),
    input: { description: 'x', command: 'npm run watch' },
    expected: 'ask',
    reason: 'default',
  },
  {
    why: 'a Monitor rule concerns Monitor only: it does not deny the same Bash command',
    call: bash([sub('rm -rf tmp')], [del(P('tmp'))]),
    rules: { deny: ['Monitor(rm:*)'] },
    expected: 'ask',
    reason: 'default',
  },
  {
    why: 'a Monitor on a WebSocket asks by default (no rule, not read-only)',
    tool: 'Monitor',
    call: {
      ruleContents: [],
      effects: [net('events.example.com')],
      findings: [],
      readOnly: false,
      summary: 'ws',
    },
    input: { description: 'x', ws: { url: 'wss://events.example.com/' } },
    expected: 'ask',
    reason: 'default',
  },
  {
    why: 'a bare Monitor allow rule allows a Monitor on a WebSocket',
    tool: 'Monitor',
    call: {
      ruleContents: [],
      effects: [net('events.example.com')],
      findings: [],
      readOnly: false,
      summary: 'ws',
    },
    input: { description: 'x', ws: { url: 'wss://events.example.com/' } },
    rules: { allow: ['Monitor'] },
    expected: 'allow',
    reason: 'rule',
  },
  {
    why: 'a bare Monitor allow is broad: suspended in auto mode, where the classifier decides',
    tool: 'Monitor',
    call: {
      ruleContents: [],
      effects: [net('events.example.com')],
      findings: [],
      readOnly: false,
      summary: 'ws',
    },
    input: { description: 'x', ws: { url: 'wss://events.example.com/' } },
    rules: { allow: ['Monitor'] },
    mode: 'auto',
    expected: 'ask',
    reason: 'classifier',
  },
  {
    why: 'a WebFetch domain deny covers a Monitor WebSocket to that host',
    tool: 'Monitor',
    call: {
      ruleContents: [],
      effects: [net('events.example.com')],
      findings: [],
      readOnly: false,
      summary: 'ws',
    },
    input: { description: 'x', ws: { url: 'wss://events.example.com/' } },
    rules: { deny: ['WebFetch(domain:events.example.com)'] },
    expected: 'deny',
    reason: 'rule',
  },
];

describe('pipeline decisions', () => {
  it.each(rows.map((r) => [r.why, r] as const))('%s', (_why, r) => {
    const engine = engineWith(r.rules ?? {}, r.links ?? {});
    const tool = r.tool ?? 'Bash';
    const input =
      r.input ?? (r.why === 'parameter ask rule' ? { command: 'ls', run_in_background: true } : undefined);
    const req = request(tool, r.call, {
      mode: r.mode ?? 'default',
      ...(r.toolResult ? { toolResult: r.toolResult } : {}),
      ...(r.isReadOnly !== undefined ? { isReadOnly: r.isReadOnly } : {}),
      ...(r.isMcp !== undefined ? { isMcp: r.isMcp } : {}),
      ...(input ? { input } : {}),
    });
    const d = engine.decideSync(req);
    expect(d.decision.behavior, d.decision.reason.message).toBe(r.expected);
    expect(d.decision.reason.type, d.decision.reason.message).toBe(r.reason);
    if (r.step) expect(d.step).toBe(r.step);
    expect(d.decision.reason.message.length).toBeGreaterThan(10);
  });
});

describe('explanations', () => {
  it('a rule decision names the rule text, its file and line', () => {
    const engine = engineWith({ deny: [] });
    engine.settings.rules.add(
      // A rule as the loader makes it, with file and line.
      (() => {
        const e = engineWith({ deny: ['Bash(rm:*)'] });
        const r = e.settings.rules.list('deny')[0];
        if (!r) throw new Error('no rule');
        return {
          ...r,
          rule: {
            ...r.rule,
            file: '/home/user/project/.claude/settings.json',
            line: 7,
            source: 'projectSettings',
          },
        };
      })(),
    );
    const d = engine.decideSync(request('Bash', bash([sub('rm -rf build')], [del(P('build'))])));
    expect(d.decision.reason.message).toContain('Bash(rm:*)');
    expect(d.decision.reason.message).toContain('/home/user/project/.claude/settings.json:7');
    expect(d.decision.reason.rule?.line).toBe(7);
  });

  it('a check decision names the finding id and the sub-command', () => {
    const d = engineWith().decideSync(
      request('Bash', bash([sub('echo $(id)')], [], [finding('COMMAND_SUBSTITUTION', 'ask', 0)])),
    );
    expect(d.decision.reason.checkId).toBe('COMMAND_SUBSTITUTION');
    expect(d.decision.reason.message).toContain('echo $(id)');
  });

  it('a protected-path decision names the path and the effect', () => {
    const d = engineWith().decideSync(
      request('Bash', bash([sub('echo x')], [write(`${HOME}/.zshrc`, 0, '>> redirect')])),
    );
    expect(d.decision.reason.path).toBe(`${HOME}/.zshrc`);
    expect(d.decision.reason.message).toContain('>> redirect');
  });

  it('the trace lists the steps that looked at the call', () => {
    const d = engineWith().decideSync(request('Bash', bash([ro('ls')])));
    expect(d.trace.join('\n')).toMatch(/deny-rule: no deny rule matches[\s\S]*read-only: allow/);
  });
});

describe('settings that disable modes', () => {
  it('bypassPermissions disabled by settings falls back to default', () => {
    const engine = engineWith({ disableBypassPermissionsMode: true });
    const d = engine.decideSync(
      request('Bash', bash([sub('rm -rf x')], [del(P('x'))]), { mode: 'bypassPermissions' }),
    );
    expect(d.decision.behavior).toBe('ask');
    expect(d.mode).toBe('default');
  });
});
