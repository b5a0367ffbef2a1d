/**
 * `createPermissionEngine`: the permission engine as the runtime and the CLI use it (
 * docs/architecture.md). Data in, decision out; it never prompts and runs nothing but PreToolUse
 * hooks.
 *
 * One decision: PreToolUse hooks (async; skipped by `decideSync`) → the pipeline (pipeline.ts) →
 * auto mode: the classifier decides asks from the safety checks and the default ask (LOW allow,
 * MEDIUM ask, HIGH ask with `forceConfirmation`, `block` deny; per-session cache; after 3
 * consecutive or 20 total non-approvals the session falls back to asking) → dontAsk: ask becomes
 * deny → suggestions on the asks a rule could lift → recorded in the session.
 *
 * Mode: the request's mode, except `bypassPermissions` when settings disable it and `auto` when
 * settings disable auto mode (both fall back to `default`, said in the trace).
 */
import path from 'node:path';
import { isMcpToolName } from '../core/mcp-names.js';
import { fsPathResolver, type PathResolver } from '../core/paths.js';
import { traitsFor } from '../core/tool-traits.js';
import type {
  CallDescription,
  PermissionBehavior,
  PermissionDecider,
  PermissionDecision,
  PermissionMode,
  PermissionRequest,
  PermissionRule,
  PermissionSuggestion,
} from '../core/permission-types.js';
import { builtinClassifier } from './classifier/builtin-scorer.js';
import type { AutoModeClassifier, ClassifierVerdict } from './classifier/types.js';
import { verdictDecision } from './classifier/verdict.js';
import { fsRepositoryRoot, type RepositoryRootOf } from './git-repository.js';
import { mergeHookVerdicts, type PreToolUseInput, runPreToolUseHooks } from './hooks/pre-tool-use.js';
import type { HookVerdict } from './hooks/types.js';
import {
  DEFAULT_ACCEPT_EDITS_COMMANDS,
  type PipelineInput,
  type PipelineResult,
  type PipelineStep,
  runPipeline,
} from './pipeline.js';
import { compileRule, type RuleProblem } from './rules/rule-set.js';
import { effectiveMode } from './engine-mode.js';
import { dontAskDenial } from './explain.js';
import { PermissionSession } from './session.js';
import { brokenCovering, describeBroken } from './settings/broken.js';
import { persistRule } from './settings/persist.js';
import type { LoadedSettings } from './settings/types.js';
import { suggestRules } from './suggestions.js';
import { WorkingDirectories } from './working-dirs.js';

export interface PermissionEngineOptions {
  settings: LoadedSettings;
  /** Symlink resolution (default: the real filesystem). */
  resolver?: PathResolver;
  /** Auto-mode classifier (default: the built-in scorer). */
  classifier?: AutoModeClassifier;
  /**
   * Re-describes a call whose input a PreToolUse hook replaced (`updatedInput`). Without it, a
   * replaced input cannot be re-checked and the decision is ask.
   */
  describe?: (
    toolName: string,
    input: Record<string, unknown>,
    request: PermissionRequest,
  ) => Promise<CallDescription>;
  /** Default hook timeout (ms; default 60 000). */
  hookTimeoutMs?: number;
  /** `transcript_path` sent to hooks. */
  transcriptPath?: string;
  /** Bash programs acceptEdits allows in the working directories (default mkdir, touch, cp, mv). */
  acceptEditsCommands?: Iterable<string>;
  session?: PermissionSession;
  /**
   * Directories the model may read without asking although they are outside the working
   * directories — the session directory where the runtime spills large results and background
   * output (docs/architecture.md: "written to a file the model can Read"). Writes there still ask.
   */
  readableDirectories?: readonly string[];
  /**
   * The session's plan file (absolute path) for a request, declared by the host's plan-mode tools:
   * in plan mode, writing exactly that file is allowed; every other change is refused.
   */
  planFile?: (request: PermissionRequest) => string | undefined;
  /**
   * Which repository a directory belongs to, for "git in another repository" (default: the nearest
   * ancestor holding `.git` on the real filesystem).
   */
  repositoryRoot?: RepositoryRootOf;
}

export interface DecideOptions {
  /** This Bash call will run sandboxed (also read from `description.sandboxed`). */
  sandboxed?: boolean;
  signal?: AbortSignal;
  /** Do not run PreToolUse hooks (`decideSync` never does). */
  skipHooks?: boolean;
  /**
   * The host's PreToolUse hooks in callback form (the Agent SDK's hook callbacks, mapped by the
   * loop): run beside the command hooks of settings, their verdicts merged with the same
   * precedence (deny > ask > allow), so every PreToolUse decision still goes through the pipeline.
   */
  preToolUseCallbacks?: (input: PreToolUseInput, signal?: AbortSignal) => Promise<HookVerdict | undefined>;
  /** `transcript_path` for this call's hooks (the session's file; overrides the engine option). */
  transcriptPath?: string;
}

export interface DetailedDecision {
  decision: PermissionDecision;
  /**
   * Which pipeline step decided (`classifier` when auto mode's classifier did, `settings` when a
   * broken settings file turned an allow into an ask).
   */
  step: PipelineStep | 'classifier' | 'settings';
  mode: PermissionMode;
  trace: string[];
  hook?: HookVerdict;
  classifier?: ClassifierVerdict;
}

export interface PermissionEngine {
  /** The core `PermissionDecider` the runtime calls. */
  readonly decider: PermissionDecider;
  decide(request: PermissionRequest, opts?: DecideOptions): Promise<PermissionDecision>;
  decideDetailed(request: PermissionRequest, opts?: DecideOptions): Promise<DetailedDecision>;
  /** Without hooks; an async classifier is not consulted (its asks stay asks). For the CLI and benchmarks. */
  decideSync(
    request: PermissionRequest,
    opts?: Omit<DecideOptions, 'signal' | 'skipHooks'>,
  ): DetailedDecision;
  /**
   * The bare deny rule that removes this tool from the model's tool list, if any (tool-name globs
   * such as `mcp__*` and `mcp__server` included). The tool pool (`assembleToolPool` in `runtime/`)
   * asks it for every tool name and alias.
   */
  isToolDenied(toolName: string): PermissionRule | undefined;
  /** Adds a rule for the rest of the session; returns its problems (empty when accepted). */
  addSessionRule(text: string, behavior: PermissionBehavior): RuleProblem[];
  /**
   * Adds a session rule that the caller takes back with `remove()` (a skill's `allowed-tools`
   * until the next user message). `remove` is a no-op when the rule was not accepted.
   */
  addTemporaryRule(text: string, behavior: PermissionBehavior): { problems: RuleProblem[]; remove(): void };
  /** Accepts an "always allow" suggestion: session rule, plus the settings file unless destination is `session`. */
  acceptSuggestion(s: PermissionSuggestion): { file?: string; problems: RuleProblem[] };
  readonly session: PermissionSession;
  readonly settings: LoadedSettings;
}

/** `finish`'s extras when there are none (one shared object, not one per decision). */
const NO_EXTRAS: { hook?: HookVerdict; classifier?: ClassifierVerdict } = Object.freeze({});

export function createPermissionEngine(opts: PermissionEngineOptions): PermissionEngine {
  const settings = opts.settings;
  const resolver = opts.resolver ?? fsPathResolver;
  const classifier = opts.classifier ?? builtinClassifier;
  const session = opts.session ?? new PermissionSession();
  const acceptEditsCommands = new Set(opts.acceptEditsCommands ?? DEFAULT_ACCEPT_EDITS_COMMANDS);
  const dirCache = new Map<string, WorkingDirectories>();
  const repositoryRoot = opts.repositoryRoot ?? fsRepositoryRoot();
  // Broken settings (settings/broken.ts): does a malformed rule of tool `a` concern calls of `b`?
  const ruleToolMatch = new Map<string, boolean>();
  const matchesTool = (ruleTool: string, toolName: string): boolean => {
    const key = `${ruleTool}\u0000${toolName}`;
    let hit = ruleToolMatch.get(key);
    if (hit === undefined) {
      const { rule } = compileRule(
        { text: ruleTool, behavior: 'deny', source: 'session', pathRoot: settings.projectRoot },
        { home: settings.home, cwd: settings.projectRoot },
      );
      hit = rule ? rule.matchesTool(toolName) : true;
      ruleToolMatch.set(key, hit);
    }
    return hit;
  };
  const brokenFor = (req: PermissionRequest, sandboxed: boolean) =>
    settings.broken.length ? brokenCovering(settings.broken, req.toolName, matchesTool, sandboxed) : [];
  const readableDirs = opts.readableDirectories?.length
    ? new WorkingDirectories(opts.readableDirectories, resolver)
    : undefined;
  // The last answer, by identity: a session's requests carry the same root and the same
  // directories array (AppState and settings replace these arrays, never change them in place; the
  // lengths are compared too), so most decisions build no key.
  let lastDirs:
    | {
        root: string;
        extra: readonly string[];
        extraCount: number;
        fromSettings: readonly string[];
        fromSettingsCount: number;
        wd: WorkingDirectories;
      }
    | undefined;
  const workingDirsFor = (req: PermissionRequest): WorkingDirectories => {
    if (
      lastDirs &&
      lastDirs.root === req.projectRoot &&
      lastDirs.extra === req.additionalDirectories &&
      lastDirs.extraCount === req.additionalDirectories.length &&
      lastDirs.fromSettings === settings.additionalDirectories &&
      lastDirs.fromSettingsCount === settings.additionalDirectories.length
    )
      return lastDirs.wd;
    const wd = workingDirsByKey(req);
    lastDirs = {
      root: req.projectRoot,
      extra: req.additionalDirectories,
      extraCount: req.additionalDirectories.length,
      fromSettings: settings.additionalDirectories,
      fromSettingsCount: settings.additionalDirectories.length,
      wd,
    };
    return wd;
  };
  const workingDirsByKey = (req: PermissionRequest): WorkingDirectories => {
    const dirs = [req.projectRoot, ...req.additionalDirectories, ...settings.additionalDirectories];
    const key = dirs.join('\u0000');
    let wd = dirCache.get(key);
    if (!wd) {
      wd = new WorkingDirectories(dirs, resolver);
      if (dirCache.size > 64) dirCache.clear();
      dirCache.set(key, wd);
    }
    return wd;
  };

  /** Pipeline + mode post-processing, minus the classifier. */
  const basePipeline = (
    req: PermissionRequest,
    o: DecideOptions | undefined,
    hook: HookVerdict | undefined,
  ) => {
    const trace: string[] = [];
    const mode = effectiveMode(req.mode, settings, trace);
    const sandboxed =
      (o?.sandboxed ?? req.description.sandboxed ?? false) && traitsFor(req.toolName).ruleKind === 'shell';
    // Broken sandbox settings: the sandbox may be weaker than configured, so it allows nothing by itself.
    const sandboxBroken = sandboxed && brokenFor(req, true).some((b) => b.scope === 'sandbox');
    if (sandboxBroken)
      trace.push('settings: sandbox settings are broken; sandboxed commands are not auto-allowed');
    const planFile = mode === 'plan' ? opts.planFile?.(req) : undefined;
    // Written out and then set (not `{ …, ...(hook ? { hook } : {}) }`): V8 builds a literal with
    // conditional spreads key by key at run time, and this runs once per decision
    // (docs/mcp-client.md §8.3). Same keys and values.
    const input: PipelineInput = {
      request: req,
      rules: settings.rules,
      mode,
      workingDirs: workingDirsFor(req),
      home: settings.home,
      resolver,
      sandboxAutoAllow: sandboxed && !sandboxBroken && settings.sandbox.autoAllowBashIfSandboxed,
      acceptEditsCommands,
      floor: settings.destructiveFloor,
      secretReads: settings.secretReads.value,
      repositoryRoot,
    };
    if (hook) input.hook = hook;
    if (readableDirs) input.readableDirs = readableDirs;
    if (planFile) input.planFile = planFile;
    const result = runPipeline(input);
    // The mode lines (rare) come first; without them the pipeline's own trace is the trace.
    if (trace.length) trace.push(...result.trace);
    return { mode, result, trace: trace.length ? trace : result.trace };
  };

  const classifierKey = (req: PermissionRequest): string =>
    `${req.toolName}\u0000${JSON.stringify(req.input)}\u0000${req.cwd}`;

  const applyVerdict = (result: PipelineResult, verdict: ClassifierVerdict, trace: string[]) => {
    const tipped = session.recordClassifier(verdict);
    trace.push(
      `classifier: ${verdict.risk}${verdict.block ? ' (block)' : ''} — ${verdict.reasons.join('; ')}`,
    );
    return {
      decision: verdictDecision(verdict, classifier.name, result.decision.reason, tipped),
      step: 'classifier' as const,
    };
  };

  /** dontAsk, suggestions, updatedInput, session record. */
  const finish = (
    req: PermissionRequest,
    mode: PermissionMode,
    result: PipelineResult,
    decision: PermissionDecision,
    decidedBy: DetailedDecision['step'],
    trace: string[],
    extras: { hook?: HookVerdict; classifier?: ClassifierVerdict },
  ): DetailedDecision => {
    let d = decision;
    let step = decidedBy;
    if (d.behavior === 'allow' && settings.broken.length) {
      // Fail closed while a settings file that could restrict this call is broken (settings/broken.ts).
      const broken = brokenFor(req, false).filter((b) => b.scope !== 'sandbox');
      const first = broken[0];
      if (first) {
        const more = broken.length > 1 ? ` (and ${broken.length - 1} more broken setting(s))` : '';
        d = {
          behavior: 'ask',
          reason: {
            type: 'settings',
            path: first.file,
            message: `Needs approval: the settings file ${describeBroken(first)}${more}. Its rules could not be read, so nothing they could restrict is allowed without asking until it is fixed (this call would otherwise be allowed: ${d.reason.message})`,
          },
          suggestions: [],
          forceConfirmation: true,
        };
        trace.push(`settings: broken settings (${describeBroken(first)}) turn the allow into an ask`);
        step = 'settings';
      }
    }
    if (d.behavior === 'ask' && mode === 'dontAsk') {
      d = dontAskDenial(d.reason);
      trace.push('mode: dontAsk turns the ask into a deny');
    } else if (
      d.behavior === 'ask' &&
      (result.classifierEligible || step === 'classifier') &&
      result.decision.reason.type !== 'check' &&
      result.decision.reason.type !== 'unknown-effect' &&
      d.reason.type !== 'settings'
    ) {
      d = { ...d, suggestions: suggestRules(result.view, req.projectRoot) };
    }
    const updated = extras.hook?.updatedInput;
    if (updated && d.behavior !== 'deny') d = { ...d, updatedInput: updated };
    session.record(req.toolUseId, { behavior: d.behavior, source: d.reason.type, toolName: req.toolName });
    // Set, not spread (see basePipeline): same keys and values.
    const detailed: DetailedDecision = { decision: d, step, mode, trace };
    if (extras.hook) detailed.hook = extras.hook;
    if (extras.classifier) detailed.classifier = extras.classifier;
    return detailed;
  };

  const decideSync = (
    req: PermissionRequest,
    o?: Omit<DecideOptions, 'signal' | 'skipHooks'>,
  ): DetailedDecision => {
    const { mode, result, trace } = basePipeline(req, o, undefined);
    if (
      result.decision.behavior === 'ask' &&
      result.classifierEligible &&
      mode === 'auto' &&
      !session.classifier.fallenBack
    ) {
      const cached = session.classifier.cache.get(classifierKey(req));
      const verdict = cached ?? classifier.classify(classifierRequest(req, result));
      if (!(verdict instanceof Promise)) {
        session.classifier.cache.set(classifierKey(req), verdict);
        const v = applyVerdict(result, verdict, trace);
        return finish(req, mode, result, v.decision, v.step, trace, { classifier: verdict });
      }
      trace.push('classifier: asynchronous classifier not consulted by decideSync');
    }
    return finish(req, mode, result, result.decision, result.step, trace, NO_EXTRAS);
  };

  const classifierRequest = (req: PermissionRequest, result: PipelineResult) => ({
    toolName: req.toolName,
    input: req.input,
    description: req.description,
    classifierInput: req.classifierInput,
    isMcp: req.isMcp === true || isMcpToolName(req.toolName),
    cwd: req.cwd,
    workingDirectories: workingDirsFor(req).dirs,
    home: settings.home,
    askReason: result.decision.reason,
  });

  /** Hooks run when configured (async); without hooks, a decision is taken synchronously. */
  const hooksApply = (o: DecideOptions | undefined): boolean =>
    !o?.skipHooks && (settings.preToolUseHooks.length > 0 || o?.preToolUseCallbacks !== undefined);

  const decideWithHooks = async (
    request: PermissionRequest,
    o?: DecideOptions,
  ): Promise<DetailedDecision> => {
    let req = request;
    let hook: HookVerdict | undefined;
    {
      const input: PreToolUseInput = {
        session_id: req.sessionId,
        transcript_path: o?.transcriptPath ?? opts.transcriptPath ?? '',
        cwd: req.cwd,
        permission_mode: req.mode,
        hook_event_name: 'PreToolUse',
        tool_name: req.toolName,
        tool_input: req.hookInput ?? req.input,
        tool_use_id: req.toolUseId,
      };
      // Command hooks and the host's callbacks run together; their verdicts merge like hooks do.
      const [fromCommands, fromCallbacks] = await Promise.all([
        settings.preToolUseHooks.length
          ? runPreToolUseHooks({
              hooks: settings.preToolUseHooks,
              input,
              projectRoot: req.projectRoot,
              ...(opts.hookTimeoutMs !== undefined ? { defaultTimeoutMs: opts.hookTimeoutMs } : {}),
              ...(o?.signal ? { signal: o.signal } : {}),
            })
          : undefined,
        o?.preToolUseCallbacks?.(input, o.signal),
      ]);
      hook = mergeHookVerdicts(fromCommands, fromCallbacks);
      if (hook?.updatedInput && hook.decision !== 'deny') {
        if (!opts.describe) {
          const trace = [
            `hook: \`${hook.hook}\` replaced the input, but no describer is configured to re-check it`,
          ];
          const message = `PreToolUse hook \`${hook.hook}\` replaced the tool input and the new input could not be re-checked.`;
          const mode = effectiveMode(req.mode, settings, trace);
          const decision: PermissionDecision =
            mode === 'dontAsk'
              ? {
                  behavior: 'deny',
                  reason: { type: 'hook', hook: hook.hook, message: `Denied in dontAsk mode: ${message}` },
                }
              : {
                  behavior: 'ask',
                  reason: { type: 'hook', hook: hook.hook, message: `Needs approval: ${message}` },
                  suggestions: [],
                  updatedInput: hook.updatedInput,
                };
          session.record(req.toolUseId, {
            behavior: decision.behavior,
            source: 'hook',
            toolName: req.toolName,
          });
          return { decision, step: 'hook', mode, trace, hook };
        }
        req = {
          ...req,
          input: hook.updatedInput,
          description: await opts.describe(req.toolName, hook.updatedInput, req),
        };
      }
    }
    return afterHooks(req, o, hook);
  };

  /** The pipeline on a request whose hooks (if any) have run; async only when auto mode's classifier is consulted. */
  const afterHooks = (
    req: PermissionRequest,
    o: DecideOptions | undefined,
    hook: HookVerdict | undefined,
  ): DetailedDecision | Promise<DetailedDecision> => {
    const { mode, result, trace } = basePipeline(req, o, hook);
    if (hook)
      trace.unshift(
        `hook: ${hook.decision ?? 'no decision'}${hook.errors.length ? ` (errors: ${hook.errors.join('; ')})` : ''}`,
      );
    if (
      result.decision.behavior === 'ask' &&
      result.classifierEligible &&
      mode === 'auto' &&
      !session.classifier.fallenBack
    ) {
      const key = classifierKey(req);
      const classify = async (): Promise<DetailedDecision> => {
        const verdict =
          session.classifier.cache.get(key) ?? (await classifier.classify(classifierRequest(req, result)));
        session.classifier.cache.set(key, verdict);
        const v = applyVerdict(result, verdict, trace);
        return finish(req, mode, result, v.decision, v.step, trace, {
          classifier: verdict,
          ...(hook ? { hook } : {}),
        });
      };
      return classify();
    }
    return finish(req, mode, result, result.decision, result.step, trace, hook ? { hook } : NO_EXTRAS);
  };

  /** One decision; synchronous unless hooks or the classifier run. A throw becomes a rejection. */
  const decideNow = (
    request: PermissionRequest,
    o?: DecideOptions,
  ): DetailedDecision | Promise<DetailedDecision> => {
    try {
      return hooksApply(o) ? decideWithHooks(request, o) : afterHooks(request, o, undefined);
    } catch (error) {
      return Promise.reject(error);
    }
  };
  const decideDetailed = (request: PermissionRequest, o?: DecideOptions): Promise<DetailedDecision> => {
    const d = decideNow(request, o);
    return d instanceof Promise ? d : Promise.resolve(d);
  };
  const decisionOf = (request: PermissionRequest, o?: DecideOptions): Promise<PermissionDecision> => {
    const d = decideNow(request, o);
    return d instanceof Promise ? d.then((x) => x.decision) : Promise.resolve(d.decision);
  };

  const addSessionRule = (text: string, behavior: PermissionBehavior): RuleProblem[] => {
    const { rule, problems } = compileRule(
      { text, behavior, source: 'session', pathRoot: settings.projectRoot },
      { home: settings.home, cwd: settings.projectRoot },
    );
    if (rule) settings.rules.add(rule);
    return problems;
  };

  const addTemporaryRule = (text: string, behavior: PermissionBehavior) => {
    const { rule, problems } = compileRule(
      { text, behavior, source: 'session', pathRoot: settings.projectRoot },
      { home: settings.home, cwd: settings.projectRoot },
    );
    if (rule) settings.rules.add(rule);
    return { problems, remove: () => (rule ? settings.rules.remove(rule) : undefined) };
  };

  return {
    addTemporaryRule,
    decider: (request) => decisionOf(request),
    decide: decisionOf,
    decideDetailed,
    decideSync,
    isToolDenied: (toolName) => settings.rules.bareDeny(toolName)?.rule,
    addSessionRule,
    acceptSuggestion: (s) => {
      const problems = addSessionRule(s.rule, 'allow');
      if (problems.some((p) => p.severity === 'error') || s.destination === 'session') return { problems };
      const { file } = persistRule(s.rule, 'allow', s.destination, {
        projectRoot: settings.projectRoot,
        home: settings.home,
      });
      return { file: path.resolve(file), problems };
    },
    session,
    settings,
  };
}
