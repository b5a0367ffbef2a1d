/**
 * The name-table half of the tool contract (tests only): every lookup keyed by a name that comes
 * from a model, a host, a settings file or a command line gets prototype names (`__proto__`,
 * `constructor`, `toString`, …) and must answer with a decision or a clear error — never a throw,
 * never an allow. Each check returns its failures as sentences; `src/testing/tool-contract.test.ts`
 * runs them all.
 *
 * - tool names: the trait table, the describers, the host describer, the guard (`gantry check`);
 * - rule texts: parse, compile, and decide with them in force (a `deny: ["toString"]` must deny
 *   only a tool named `toString`);
 * - programs and option names in shell commands (`valueOf`, `git constructor`, `ls --__proto__`);
 * - settings keys (`"__proto__"` at every level creates no rules);
 * - hook payloads (prototype tool names, input keys, permission modes).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { mapPathResolver } from '../core/paths.js';
import { buildPermissionRequest } from '../core/permission-request.js';
import type { PermissionBehavior } from '../core/permission-types.js';
import { canonicalToolName, foreignToolName, toolNamesOf, traitsFor, traitsOf } from '../core/tool-traits.js';
import { normaliseToolCall, parseHookInput } from '../cli/hook/hook-protocol.js';
import { handleHook } from '../cli/hook/run-hook.js';
import { createGuard } from '../cli/shared/guard.js';
import { describeToolInput } from '../permissions/describe-input.js';
import { createPermissionEngine } from '../permissions/engine.js';
import { classifyRule, parseRuleText } from '../permissions/rules/parse-rule.js';
import { compileRule } from '../permissions/rules/rule-set.js';
import { settingsFromRules } from '../permissions/settings/from-rules.js';
import { loadSettings } from '../permissions/settings/load.js';
import { describeBashCommand, interpretExitCode } from '../shell/index.js';
import { toolDescriberFor } from '../tools/describers.js';
import { PROTOTYPE_NAMES } from './tool-contract.js';

const msg = (e: unknown) => (e instanceof Error ? e.message : String(e));

function guarded(what: string, fn: () => void, failures: string[]): void {
  try {
    fn();
  } catch (e) {
    failures.push(`${what} threw: ${msg(e)}`);
  }
}

/** Tool names: the trait table, the describers and the host describer treat them as unknown tools. */
export function checkToolNameTables(): string[] {
  const failures: string[] = [];
  const world = { cwd: '/p', home: '/h', resolver: mapPathResolver({}) };
  for (const p of PROTOTYPE_NAMES) {
    guarded(
      `tool name ${p}`,
      () => {
        if (traitsOf(p) !== undefined) failures.push(`traitsOf(${p}) is not undefined`);
        const t = traitsFor(p);
        if (t.name !== p || t.noEffect || t.planModePass || t.editFamily || t.aliases.length)
          failures.push(`traitsFor(${p}) is not the fail-closed default`);
        if (canonicalToolName(p) !== p) failures.push(`canonicalToolName(${p}) changed the name`);
        if (toolNamesOf(p).length !== 1) failures.push(`toolNamesOf(${p}) names other tools`);
        if (foreignToolName(p) !== undefined) failures.push(`foreignToolName(${p}) found a tool`);
        if (toolDescriberFor(p) !== undefined) failures.push(`toolDescriberFor(${p}) found a describer`);
        const d = describeToolInput(p, { file_path: '/etc/passwd', path: '/', url: 'https://x' }, world);
        if (d.readOnly || d.effects.length) failures.push(`describeToolInput(${p}) claims to know the call`);
      },
      failures,
    );
  }
  return failures;
}

/** Rule texts that use prototype names in every position. */
export function prototypeRuleTexts(): string[] {
  return PROTOTYPE_NAMES.flatMap((p) => [
    p,
    `${p}(x)`,
    `${p}(${p}:x)`,
    `Bash(${p})`,
    `Bash(${p}:*)`,
    `Bash(${p} *)`,
    `Bash(${p}:true)`,
    `Read(${p})`,
    `Edit(./${p}/**)`,
    `Agent(${p})`,
    `Skill(${p})`,
    `WebFetch(domain:${p})`,
    `mcp__${p}`,
    `mcp__${p}__${p}`,
  ]);
}

/** Rule texts parse and compile (a rule or a problem), and decisions with them in force stay right. */
export function checkRuleNames(): string[] {
  const failures: string[] = [];
  const texts = prototypeRuleTexts();
  for (const behavior of ['allow', 'ask', 'deny'] as PermissionBehavior[]) {
    for (const text of texts) {
      guarded(
        `${behavior} rule ${text}`,
        () => {
          const parsed = parseRuleText(text);
          if (parsed.ok) classifyRule(parsed.value, behavior);
          const { rule, problems } = compileRule(
            { text, behavior, source: 'session', pathRoot: '/p' },
            { home: '/h', cwd: '/p' },
          );
          if (!rule && problems.length === 0)
            failures.push(`${behavior} rule ${text}: neither a rule nor a problem`);
          if (rule) for (const p of PROTOTYPE_NAMES) rule.matchesTool(p);
        },
        failures,
      );
    }
  }
  guarded(
    'deciding with prototype-named deny rules',
    () => {
      const engine = createPermissionEngine({
        settings: settingsFromRules({ projectRoot: '/p', home: '/h', deny: PROTOTYPE_NAMES.map((p) => p) }),
        resolver: mapPathResolver({}),
      });
      const decide = (
        toolName: string,
        description = { ruleContents: [], effects: [], findings: [], readOnly: true, summary: 's' },
      ) =>
        engine.decideSync(
          buildPermissionRequest({
            tool: { name: toolName },
            input: {},
            description,
            toolUseId: 't',
            session: {
              cwd: '/p',
              projectRoot: '/p',
              additionalDirectories: [],
              permissionMode: 'default',
              sessionId: 's',
            },
          }),
        ).decision.behavior;
      if (decide('TodoWrite') !== 'allow')
        failures.push('a deny rule named like a prototype member denied TodoWrite');
      for (const p of PROTOTYPE_NAMES)
        if (decide(p) !== 'deny') failures.push(`deny: ["${p}"] did not deny the tool named ${p}`);
    },
    failures,
  );
  return failures;
}

/** Shell command lines with prototype names as programs, sub-commands, options and variables. */
export function prototypeCommands(): { command: string; mayAllow: boolean }[] {
  return PROTOTYPE_NAMES.flatMap((p) => [
    { command: p, mayAllow: false },
    { command: `${p} -rf /`, mayAllow: false },
    { command: `ls && ${p}`, mayAllow: false },
    { command: `ls | ${p}`, mayAllow: false },
    { command: `git ${p}`, mayAllow: false },
    { command: `git --${p} status`, mayAllow: false },
    { command: `git -c ${p}=x status`, mayAllow: false },
    { command: `docker ${p}`, mayAllow: false },
    { command: `npm ${p}`, mayAllow: false },
    { command: `find . -${p}`, mayAllow: false },
    { command: `tar --${p} -xf a.tar`, mayAllow: false },
    { command: `sort --${p} a`, mayAllow: false },
    { command: `timeout 5 ${p}`, mayAllow: false },
    { command: `xargs ${p}`, mayAllow: false },
    { command: `env ${p}`, mayAllow: false },
    { command: `eval ${p}`, mayAllow: false },
    { command: `python3 -c ${p}`, mayAllow: false },
    { command: `ls --${p}`, mayAllow: false },
    { command: `${p}=1 ls`, mayAllow: true },
    { command: `echo ${p}`, mayAllow: true },
  ]);
}

/** Shell analysis and the engine on those command lines: a decision, never a throw, no wrong allow. */
export async function checkShellNames(): Promise<string[]> {
  const failures: string[] = [];
  const engine = createPermissionEngine({
    settings: settingsFromRules({ projectRoot: '/p', home: '/h' }),
    resolver: mapPathResolver({}),
  });
  for (const { command, mayAllow } of prototypeCommands()) {
    try {
      const description = await describeBashCommand(command, {
        cwd: '/p',
        home: '/h',
        resolver: mapPathResolver({}),
      });
      for (const f of description.findings)
        if (/native code|^function /.test(f.message))
          failures.push(`${command}: a finding prints a function: ${f.message}`);
      const d = engine.decideSync(
        buildPermissionRequest({
          tool: { name: 'Bash' },
          input: { command },
          description,
          toolUseId: 't',
          session: {
            cwd: '/p',
            projectRoot: '/p',
            additionalDirectories: [],
            permissionMode: 'default',
            sessionId: 's',
          },
        }),
      );
      if (!mayAllow && d.decision.behavior === 'allow')
        failures.push(`${command}: allowed (${d.decision.reason.message})`);
      interpretExitCode(command, 1);
    } catch (e) {
      failures.push(`${command}: threw ${msg(e)}`);
    }
  }
  return failures;
}

/** Settings files with prototype keys at every level: loaded, problems reported, no rules created. */
export function checkSettingsKeys(dir: string): string[] {
  const failures: string[] = [];
  const home = path.join(dir, 'home');
  const project = path.join(dir, 'project');
  mkdirSync(path.join(project, '.claude'), { recursive: true });
  mkdirSync(home, { recursive: true });
  const file = path.join(project, '.claude', 'settings.json');
  const proto = (inner: string) => PROTOTYPE_NAMES.map((p) => `"${p}": ${inner}`).join(', ');
  writeFileSync(
    file,
    `{${proto('{"permissions": {"allow": ["Bash(curl:*)"]}}')}, "permissions": {${proto('{"allow": ["Bash(curl:*)"]}')}, "allow": ["Read(./a)"], "deny": ["Bash(rm:*)"], "defaultMode": "constructor"}, "hooks": {${proto('[]')}}, "sandbox": {${proto('true')}}}`,
  );
  guarded(
    'settings with prototype keys',
    () => {
      const settings = loadSettings({
        projectRoot: project,
        home,
        trust: true,
        managedFiles: [],
        settingSources: ['project'],
      });
      const texts = settings.rules.all.map((r) => `${r.rule.behavior} ${r.rule.text}`).sort();
      if (JSON.stringify(texts) !== JSON.stringify(['allow Read(./a)', 'deny Bash(rm:*)']))
        failures.push(`settings with prototype keys produced the rules ${JSON.stringify(texts)}`);
      if (settings.defaultMode !== 'default')
        failures.push(`defaultMode "constructor" became ${settings.defaultMode}`);
      if (!settings.problems.some((p) => /defaultMode/.test(p.message)))
        failures.push('an unknown defaultMode was not reported');
    },
    failures,
  );
  return failures;
}

/** Hook payloads with prototype names; and the guard (`gantry check`) on prototype-named tools. */
export async function checkHookAndGuardNames(dir: string): Promise<string[]> {
  const failures: string[] = [];
  for (const p of PROTOTYPE_NAMES) {
    guarded(
      `hook payload for ${p}`,
      () => {
        const payload = `{"hook_event_name": "PreToolUse", "tool_name": "${p}", "permission_mode": "${p}", "tool_input": {"__proto__": {"command": "rm -rf /"}, "${p}": 1}}`;
        const parsed = parseHookInput(payload);
        if (parsed.kind !== 'decide' || parsed.toolName !== p)
          failures.push(`hook payload for ${p} was not a decision request`);
        const n = normaliseToolCall(
          'run_shell_command',
          JSON.parse(`{"__proto__": {"command": "rm -rf /"}, "${p}": "x"}`),
        );
        if (n.input.command !== undefined)
          failures.push(`normalising a payload with "__proto__" invented a command`);
      },
      failures,
    );
  }
  const project = path.join(dir, 'guard-project');
  mkdirSync(project, { recursive: true });
  // The whole hook, in process: prototype names, broken UTF-8, huge input → a decision JSON.
  const hookPayload = (tool_name: string, tool_input: Record<string, unknown>) =>
    JSON.stringify({ hook_event_name: 'PreToolUse', cwd: project, tool_name, tool_input });
  const awkward: { text: string; mayAllow: boolean }[] = [
    ...PROTOTYPE_NAMES.map((p) => ({ text: hookPayload(p, {}), mayAllow: false })),
    ...PROTOTYPE_NAMES.map((p) => ({ text: hookPayload('Bash', { command: p }), mayAllow: false })),
    {
      text: hookPayload('Bash', { command: Buffer.from([0x6c, 0x73, 0x20, 0xff, 0xfe]).toString('utf8') }),
      mayAllow: true,
    },
    { text: hookPayload('Bash', { command: `echo ${'a'.repeat(200_000)}` }), mayAllow: true },
    { text: hookPayload('Read', { file_path: 'a\u0000b' }), mayAllow: true },
    { text: hookPayload('Write', { file_path: 'a\u0000b', content: 'x' }), mayAllow: false },
  ];
  for (const { text, mayAllow } of awkward) {
    const label = text.length > 120 ? `${text.slice(0, 120)}…` : text;
    try {
      const a = await handleHook(text, {
        env: { GANTRY_HOOK_LOG: 'off' },
        guard: { home: path.join(dir, 'guard-home'), managedFiles: [] },
        fallbackCwd: project,
      });
      const decision = (JSON.parse(a.stdout) as { hookSpecificOutput?: { permissionDecision?: string } })
        .hookSpecificOutput?.permissionDecision;
      if (!decision) failures.push(`gantry hook gave no decision for ${label}`);
      if (/internal error/.test(a.stdout))
        failures.push(`gantry hook hit an internal error for ${label}: ${a.stdout}`);
      if (decision === 'allow' && !mayAllow) failures.push(`gantry hook allowed ${label}`);
    } catch (e) {
      failures.push(`gantry hook threw for ${label}: ${msg(e)}`);
    }
  }
  const guard = createGuard({
    cwd: project,
    home: path.join(dir, 'guard-home'),
    managedFiles: [],
    trust: true,
  });
  for (const p of PROTOTYPE_NAMES) {
    try {
      const r = await guard.check(p, { file_path: path.join(project, 'a'), path: project });
      if (r.detailed.decision.behavior === 'allow')
        failures.push(`gantry check --tool ${p} allowed the call`);
    } catch (e) {
      failures.push(`gantry check --tool ${p} threw: ${msg(e)}`);
    }
  }
  return failures;
}
