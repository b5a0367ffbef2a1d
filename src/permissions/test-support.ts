/**
 * Builders for permission tests: hand-made call descriptions and requests in the corpus world
 * (project `/home/user/project`, home `/home/user`). Only tests import this file.
 */
import { describe, expect, it } from 'vitest';
import { type Effect, knownEffect, unknownEffect } from '../core/effects.js';
import { mapPathResolver } from '../core/paths.js';
import { buildPermissionRequest } from '../core/permission-request.js';
import type {
  CallDescription,
  Finding,
  PermissionMode,
  PermissionRequest,
  SubcommandInfo,
  ToolPermissionResult,
} from '../core/permission-types.js';
import { createPermissionEngine, type PermissionEngine } from './engine.js';
import { type InlineSettings, settingsFromRules } from './settings/from-rules.js';

export const PROJECT = '/home/user/project';
export const HOME = '/home/user';

/** A sub-command from its normalised text (argv split on spaces). */
export function sub(text: string, extra: Partial<SubcommandInfo> = {}): SubcommandInfo {
  const argv = text.split(' ').filter(Boolean);
  return {
    text,
    rawText: text,
    argv,
    program: argv[0] ?? '',
    wrappers: [],
    envAssignments: [],
    readOnly: false,
    readOnlyReason: 'test',
    dynamicProgram: false,
    via: 'top',
    ...extra,
  };
}

export const ro = (text: string, extra: Partial<SubcommandInfo> = {}): SubcommandInfo =>
  sub(text, { readOnly: true, readOnlyReason: 'read-only in test', ...extra });

export const read = (p: string, subcommand = 0): Effect => ({
  ...knownEffect('read', p, 'argument'),
  subcommand,
});
export const write = (p: string, subcommand = 0, detail = 'test write'): Effect => ({
  ...knownEffect('write', p, 'redirect', detail),
  subcommand,
});
export const del = (p: string, subcommand = 0): Effect => ({
  ...knownEffect('delete', p, 'argument'),
  subcommand,
});
export const net = (host: string, subcommand = 0): Effect => ({
  ...knownEffect('network', host, 'argument'),
  subcommand,
});
export const unknown = (kind: Effect['kind'], target: string): Effect =>
  unknownEffect(kind, target, 'argument', 'test');
export const finding = (id: string, behavior: 'ask' | 'deny' = 'ask', subcommand?: number): Finding => ({
  id,
  message: `finding ${id}`,
  behavior,
  ...(subcommand !== undefined ? { subcommand } : {}),
});

/** A Bash description from sub-commands, effects and findings. */
export function bash(
  subs: SubcommandInfo[],
  effects: Effect[] = [],
  findings: Finding[] = [],
): CallDescription {
  return {
    ruleContents: subs.map((s) => s.text),
    effects,
    findings,
    subcommands: subs,
    readOnly:
      subs.every((s) => s.readOnly) &&
      findings.length === 0 &&
      !effects.some((e) => e.kind === 'write' || e.kind === 'delete'),
    summary: subs.map((s) => s.text).join(' && '),
  };
}

/** A file-tool description. */
export function fileCall(kind: 'read' | 'write', p: string): CallDescription {
  return {
    ruleContents: [p],
    effects: [knownEffect(kind, p, 'tool-input', 'file_path')],
    findings: [],
    readOnly: kind === 'read',
    summary: p,
  };
}

/**
 * A request for `description`, built the way the runtime and the guard build it
 * (`buildPermissionRequest`, no tool predicates: read-only only when the description says so);
 * `extra` overrides any field.
 */
export function request(
  toolName: string,
  description: CallDescription,
  extra: Partial<PermissionRequest> & { mode?: PermissionMode; toolResult?: ToolPermissionResult } = {},
): PermissionRequest {
  return {
    ...buildPermissionRequest({
      tool: { name: toolName },
      input:
        toolName === 'Bash' ? { command: description.summary } : { file_path: description.ruleContents[0] },
      description,
      toolUseId: 'toolu_test',
      session: {
        cwd: PROJECT,
        projectRoot: PROJECT,
        additionalDirectories: [],
        permissionMode: 'default',
        sessionId: 'test-session',
      },
    }),
    ...extra,
  };
}

/** An engine over inline rules in the corpus world. */
export function engineWith(
  rules: Partial<Omit<InlineSettings, 'projectRoot' | 'home'>> = {},
  links: Record<string, string> = {},
): PermissionEngine {
  return createPermissionEngine({
    settings: settingsFromRules({ projectRoot: PROJECT, home: HOME, pathRoot: '/', ...rules }),
    resolver: mapPathResolver(links),
  });
}

/** The input fields Gantry's file tools take their path from, and the access they make. */
const FILE_TOOL_FIELDS: Readonly<Record<string, ['read' | 'write', string]>> = {
  Read: ['read', 'file_path'],
  Grep: ['read', 'path'],
  Glob: ['read', 'path'],
  Write: ['write', 'file_path'],
  Edit: ['write', 'file_path'],
  NotebookEdit: ['write', 'notebook_path'],
};

/**
 * A file tool's description as its describer states it (one read or write of the absolute path in
 * its input field; an unknown effect when the field is missing). Real describers are tested in
 * src/tools; the guard-level tests in src/cli use them end to end.
 */
export function fileToolCall(tool: string, input: Readonly<Record<string, unknown>>): CallDescription {
  const [kind, field] = FILE_TOOL_FIELDS[tool] ?? ['read', 'file_path'];
  const p = input[field];
  if (typeof p !== 'string')
    return {
      ruleContents: [],
      effects: [unknownEffect(kind, String(p), 'tool-input')],
      findings: [],
      readOnly: false,
      summary: tool,
    };
  return {
    ruleContents: [p],
    effects: [knownEffect(kind, p, 'tool-input', field)],
    findings: [],
    readOnly: kind === 'read',
    summary: `${tool} ${p}`,
  };
}

/** One row of a pipeline decision table: a call, the settings around it, and the decision it gets. */
export interface PipelineRow {
  why: string;
  /** Tool name; `Bash` when absent. */
  tool?: string;
  call: CallDescription;
  rules?: Partial<Omit<InlineSettings, 'projectRoot' | 'home'>>;
  mode?: PermissionMode;
  links?: Record<string, string>;
  toolResult?: ToolPermissionResult;
  isReadOnly?: boolean;
  isMcp?: boolean;
  input?: Record<string, unknown>;
  expected: 'allow' | 'ask' | 'deny';
  /** The decision reason's `type` (`rule`, `check`, `mode`, ...). */
  reason: string;
  /** The pipeline step that decided, when the row pins it. */
  step?: string;
}

/** A path under the corpus project. */
export const projectPath = (rel: string): string => `${PROJECT}/${rel}`;

/** Runs a decision table as `pipeline decisions > <why>`, one test per row. */
export function runPipelineRows(rows: readonly PipelineRow[]): void {
  describe('pipeline decisions', () => {
    it.each(rows.map((r) => [r.why, r] as const))('%s', (_why, r) => {
      const engine = engineWith(r.rules ?? {}, r.links ?? {});
      const req = request(r.tool ?? 'Bash', r.call, {
        mode: r.mode ?? 'default',
        ...(r.toolResult ? { toolResult: r.toolResult } : {}),
        ...(r.isReadOnly !== undefined ? { isReadOnly: r.isReadOnly } : {}),
        ...(r.isMcp !== undefined ? { isMcp: r.isMcp } : {}),
        ...(r.input ? { input: r.input } : {}),
      });
      const d = engine.decideSync(req);
      expect(d.decision.behavior, d.decision.reason.message).toBe(r.expected);
      expect(d.decision.reason.type, d.decision.reason.message).toBe(r.reason);
      if (r.step) expect(d.step).toBe(r.step);
      expect(d.decision.reason.message.length).toBeGreaterThan(10);
    });
  });
}
