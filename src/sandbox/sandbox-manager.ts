/**
 * The OS sandbox of one session: decides per Bash call whether it runs sandboxed, wraps
 * the spawn spec in bubblewrap, runs the filtering proxy and the shared network namespace, audits
 * protected paths and turns violations into notes for the tool result. Structurally it is the Bash
 * tool's `BashSandbox` seam (`wrap`, `annotate`; src/tools/bash/spawn-spec.ts).
 *
 * Sequence of one sandboxed call: `wrap(spec, info)` → {@link SandboxManager.decide} (settings,
 * excluded commands, `dangerouslyDisableSandbox`, probe) → session set-up on first use (private
 * temp root: `tmp/` exported as TMPDIR, the seccomp program, the proxy socket; the proxy and the
 * network holder) → filesystem plan for this cwd → protected-path snapshot → bwrap command with
 * proxy variables carrying a per-call token → the tool spawns it (asynchronously: the proxy lives
 * in this event loop) → `cleanup()` snapshots again and keeps the call's record → `annotate()`
 * appends the violation notes.
 */
import type { SandboxCallInfo, SpawnSpec } from '../core/spawn.js';
import { randomUUID } from 'node:crypto';
import { closeSync, existsSync, openSync } from 'node:fs';
import { homedir } from 'node:os';
import type { SandboxSettings } from '../core/sandbox-settings.js';
import { analyzeCommandCached, analyzeCommandOffThread, initShellParser } from '../shell/index.js';
import { sandboxViolationNotes } from './annotate.js';
import { probeSandbox, type SandboxAvailability } from './availability.js';
import { buildBwrapCommand } from './bwrap-command.js';
import {
  diffProtected,
  planFilesystem,
  type FilesystemPlan,
  type ProtectedChange,
  snapshotProtected,
} from './filesystem-policy.js';
import { SANDBOX_PROXY_PORT } from './network-bridge.js';
import type { ProxyEvent } from './network-proxy.js';
import { createSandboxSession, type SandboxSession } from './sandbox-session.js';
import {
  type CommandShape,
  type SandboxCallInput,
  type SandboxDecision,
  shouldUseSandbox,
} from './should-use-sandbox.js';

/** A spawn spec (core/spawn.ts: the seam shared with the Bash tool). */
export type SandboxSpawnSpec = SpawnSpec;
export type { SandboxCallInfo };

/**
 * The analysis the Bash call was just described with (remembered by the shell room), else a new
 * one — off the event loop when the process runs analysis workers (docs/analysis-budget.md).
 */
async function analyzeOnce(command: string, o: { cwd: string; home: string }) {
  await initShellParser();
  return analyzeCommandCached(command, o) ?? (await analyzeCommandOffThread(command, o));
}

export interface SandboxManagerOptions {
  settings: SandboxSettings;
  /** Project root first, then additional working directories (absolute); read on every call. */
  workingDirectories: () => readonly string[];
  /**
   * Shell analysis for `excludedCommands`; default: the analysis `src/shell` remembers from the
   * call's description, else a new one (in a worker when the process runs them). When it
   * fails or returns nothing the command is not excluded (it stays sandboxed: fail closed).
   */
  analyzeCommand?: (
    command: string,
    cwd: string,
  ) => CommandShape | undefined | Promise<CommandShape | undefined>;
  /** Parent for the session's private temp root (default `os.tmpdir()`). */
  tmpRoot?: string;
  /** Real home (default `os.homedir()`); the command's `$HOME` is denied-read too. */
  home?: string;
}

interface CallRecord {
  token: string;
  command: string;
  cwd: string;
  plan?: FilesystemPlan;
  before?: Map<string, string>;
  proxyEvents: ProxyEvent[];
  protectedChanges: ProtectedChange[];
  proxyEnabled: boolean;
  notices: string[];
  active: boolean;
  tmpDir: string;
}

const MAX_FINISHED = 64;

/** The sandbox of one session. See the module comment. */
export class SandboxManager {
  private readonly settings: SandboxSettings;
  private readonly options: SandboxManagerOptions;
  private session?: Promise<SandboxSession>;
  private readonly records = new Map<string, CallRecord>();
  private readonly finished: CallRecord[] = [];
  private unavailableNoticeGiven = false;
  private sessionNoticesGiven = false;
  private disposed = false;

  constructor(options: SandboxManagerOptions) {
    this.options = options;
    this.settings = options.settings;
  }

  /** Probe result for this manager's binaries (cached per process). */
  availability(): Promise<SandboxAvailability> {
    return probeSandbox({
      ...(this.settings.bwrapPath ? { bwrapPath: this.settings.bwrapPath } : {}),
      ...(this.settings.socatPath ? { socatPath: this.settings.socatPath } : {}),
    });
  }

  /**
   * Will this call run sandboxed? For the permission engine (`autoAllowBashIfSandboxed` applies
   * only to `mode: 'sandboxed'`) and for `wrap`. Never throws.
   */
  async decide(input: SandboxCallInput & { cwd?: string }): Promise<SandboxDecision> {
    if (!this.settings.enabled) return shouldUseSandbox(input, { settings: this.settings });
    let analysis: CommandShape | undefined;
    if (this.settings.excludedCommands.length > 0) {
      try {
        const cwd = input.cwd ?? this.options.workingDirectories()[0] ?? process.cwd();
        analysis = this.options.analyzeCommand
          ? await this.options.analyzeCommand(input.command, cwd)
          : await analyzeOnce(input.command, { cwd, home: this.options.home ?? homedir() });
      } catch {
        analysis = undefined;
      }
    }
    const availability = await this.availability();
    return shouldUseSandbox(input, {
      settings: this.settings,
      ...(analysis ? { analysis } : {}),
      availability,
    });
  }

  /** True when {@link decide} says `sandboxed` (the `CallDescription.sandboxed` flag). Never throws. */
  async willSandbox(input: SandboxCallInput & { cwd?: string }): Promise<boolean> {
    return (await this.decide(input)).mode === 'sandboxed';
  }

  /**
   * The Bash tool seam: returns the spec to spawn and a cleanup to call once after the process
   * group ended. Unsandboxed decisions return `spec` unchanged. @throws Error when the sandbox is
   * required but cannot run (the command must not run), or when set-up fails.
   */
  async wrap(
    spec: SandboxSpawnSpec,
    info: SandboxCallInfo,
  ): Promise<{ spec: SandboxSpawnSpec; cleanup: () => void }> {
    const decision = await this.decide({ ...info, cwd: spec.cwd });
    if (decision.mode === 'refused') throw new Error(decision.reason);
    if (decision.mode === 'unsandboxed') {
      if (decision.why === 'unavailable' && !this.unavailableNoticeGiven) {
        this.unavailableNoticeGiven = true;
        this.keepFinished({
          ...this.emptyRecord(info.command, spec.cwd),
          notices: [`[sandbox] ${decision.reason}.`],
        });
      }
      return { spec, cleanup: () => undefined };
    }
    if (this.disposed) throw new Error('The sandbox of this session was closed; the command was not run.');
    const session = await this.ensureSession();
    const availability = await this.availability();
    for (const f of spec.harnessWritablePaths) {
      if (!existsSync(f)) closeSync(openSync(f, 'a', 0o600));
    }
    const homes = [this.options.home ?? homedir()];
    if (spec.env.HOME && !homes.includes(spec.env.HOME)) homes.push(spec.env.HOME);
    const workingDirectories = this.options.workingDirectories();
    const plan = planFilesystem({
      settings: this.settings,
      workingDirectories,
      cwd: spec.cwd,
      sessionTmpDir: session.tmpDir,
      harnessFiles: spec.harnessWritablePaths,
      homes,
      settingsRoot: workingDirectories[0] ?? spec.cwd,
      harnessReadOnly: [session.root],
    });
    // No bridge → bwrap makes a private, closed network (--unshare-net); never the host's network.
    const bridge = (await session.bridgeAlive()) ? session.bridge() : undefined;
    const record: CallRecord = {
      ...this.emptyRecord(info.command, spec.cwd),
      plan,
      before: snapshotProtected(plan.anchors),
      proxyEnabled: bridge !== undefined,
      tmpDir: session.tmpDir,
    };
    if (!this.sessionNoticesGiven) {
      this.sessionNoticesGiven = true;
      record.notices.push(...session.notices.map((n) => `[sandbox] ${n}`));
    }
    const env: Record<string, string> = {
      ...spec.env,
      TMPDIR: session.tmpDir,
      TMP: session.tmpDir,
      TEMP: session.tmpDir,
    };
    if (record.proxyEnabled) Object.assign(env, proxyEnv(record.token));
    const command = buildBwrapCommand({
      bwrapPath: availability.bwrapPath,
      plan,
      cwd: spec.cwd,
      program: spec.file,
      args: spec.args,
      ...(bridge ? { enterPrefix: bridge.enterPrefix } : {}),
      ...(session.seccompFile ? { seccompFile: session.seccompFile } : {}),
      uid: process.getuid?.() ?? 0,
      gid: process.getgid?.() ?? 0,
    });
    this.records.set(record.token, record);
    let cleaned = false;
    const cleanup = () => {
      if (cleaned) return;
      cleaned = true;
      record.active = false;
      this.records.delete(record.token);
      record.protectedChanges = diffProtected(record.before ?? new Map(), snapshotProtected(plan.anchors));
      this.keepFinished(record);
    };
    return { spec: { ...spec, file: command.file, args: command.args, env }, cleanup };
  }

  /**
   * The Bash tool seam: `stderr` (the harness's notes) with this call's sandbox notes appended.
   * `info.output` is the command's output (stdout+stderr), where tools report the refusals.
   */
  annotate(stderr: string, info: SandboxCallInfo & { output: string }): string {
    const index = this.finished.findLastIndex((r) => r.command === info.command);
    const record = index >= 0 ? this.finished[index] : undefined;
    if (!record) return stderr;
    this.finished.splice(index, 1);
    const notes = [...record.notices];
    if (record.plan) {
      const violation = sandboxViolationNotes(`${info.output}\n${stderr}`, {
        cwd: record.cwd,
        writable: record.plan.writable,
        readOnly: record.plan.readOnly,
        hidden: record.plan.hidden,
        sessionTmpDir: record.tmpDir,
        proxyEvents: record.proxyEvents,
        protectedChanges: record.protectedChanges,
        proxyEnabled: record.proxyEnabled,
        allowLocalBinding: this.settings.network.allowLocalBinding,
        allowUnsandboxedCommands: this.settings.allowUnsandboxedCommands,
      });
      if (violation) notes.push(violation);
    }
    return [stderr, ...notes].filter((s) => s !== '').join('\n');
  }

  /** Proxy decisions of a finished or running call (tests, diagnostics). */
  proxyEventsFor(command: string): ProxyEvent[] {
    const all = [...this.records.values(), ...this.finished].filter((r) => r.command === command);
    return all.flatMap((r) => r.proxyEvents);
  }

  /** Stops the proxy and the network holder and removes the session's temp root. Idempotent. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const pending = this.session;
    this.session = undefined;
    if (!pending) return;
    const session = await pending.catch(() => undefined);
    if (!session) return;
    await session.close();
  }

  private emptyRecord(command: string, cwd: string): CallRecord {
    return {
      token: randomUUID(),
      command,
      cwd,
      proxyEvents: [],
      protectedChanges: [],
      proxyEnabled: false,
      notices: [],
      active: true,
      tmpDir: '$TMPDIR',
    };
  }

  private keepFinished(record: CallRecord): void {
    this.finished.push(record);
    if (this.finished.length > MAX_FINISHED) this.finished.shift();
  }

  private onProxyEvent(event: ProxyEvent): void {
    const target = event.token ? this.records.get(event.token) : undefined;
    if (target) target.proxyEvents.push(event);
    else for (const r of this.records.values()) r.proxyEvents.push(event); // client sent no token: every running call
  }

  private ensureSession(): Promise<SandboxSession> {
    this.session ??= createSandboxSession({
      settings: this.settings,
      availability: this.availability(),
      ...(this.options.tmpRoot ? { tmpRoot: this.options.tmpRoot } : {}),
      onProxyEvent: (event) => this.onProxyEvent(event),
    });
    return this.session;
  }
}

/** Proxy variables for a sandboxed command; the token attributes its requests (network-proxy.ts). */
export function proxyEnv(token: string): Record<string, string> {
  const url = `http://gantry:${token}@127.0.0.1:${SANDBOX_PROXY_PORT}`;
  return {
    HTTP_PROXY: url,
    HTTPS_PROXY: url,
    ALL_PROXY: url,
    http_proxy: url,
    https_proxy: url,
    all_proxy: url,
    NO_PROXY: '',
    no_proxy: '',
    GANTRY_SANDBOX: '1',
  };
}

/** Creates the sandbox of one session. */
export function createSandboxManager(options: SandboxManagerOptions): SandboxManager {
  return new SandboxManager(options);
}
