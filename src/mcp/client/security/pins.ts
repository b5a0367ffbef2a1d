/**
 * Approval pinning against "rug pulls" (docs/mcp-client.md "Approval pinning"): when the user
 * always-allows an MCP tool (a rule `mcp__server__tool`, or the whole server `mcp__server` /
 * `mcp__server__*`), Gantry records what the tool looked like then: a SHA-256 of its model-visible
 * name, description and input schema, plus the description and schema themselves (to show what
 * changed). When the server later serves a different description or schema under that name, or a
 * tool that was not there when the server was approved, the grant no longer applies: the tool asks
 * again and the question shows a diff.
 *
 * File: `~/.gantry/mcp-approval-pins.json` for grants saved to a settings file; grants for the
 * session only are pinned in memory.
 * ```json
 * { "version": 1,
 *   "tools": { "mcp__fs__write_file": { "hash": "sha256:…", "description": "…", "inputSchema": {…}, "at": "…" } },
 *   "servers": { "mcp__fs": { "tools": { "mcp__fs__write_file": "sha256:…" }, "at": "…" } } }
 * ```
 */
import { statSync } from 'node:fs';
import path from 'node:path';
import { createTwoFilesPatch } from 'diff';
import { parseMcpToolName } from '../../../core/mcp-names.js';
import { canonicalJson, hashJson } from '../store/project-approvals.js';
import { isObject, readJsonFile, writeJsonFile } from '../store/json-file.js';

/** What a pin covers. */
export interface ToolFingerprint {
  /** The model-visible name (`mcp__server__tool`). */
  name: string;
  description: string;
  inputSchema: unknown;
}

interface ToolPin {
  hash: string;
  description: string;
  inputSchema: unknown;
  at: string;
}

interface ServerPin {
  tools: Record<string, string>;
  at: string;
}

interface PinFile {
  tools: Record<string, ToolPin>;
  servers: Record<string, ServerPin>;
}

export type PinCheck =
  | { status: 'unpinned' }
  | { status: 'match' }
  /** The tool changed since it was approved; `diff` shows how (unified diff, capped). */
  | { status: 'changed'; diff: string; approvedAt: string }
  /** The server was approved as a whole, and this tool was not among its tools then. */
  | { status: 'new-tool'; approvedAt: string };

/** The last hash computed per fingerprint object, with the field values it was computed from. */
const hashMemo = new WeakMap<
  ToolFingerprint,
  { name: string; description: string; inputSchema: unknown; hash: string }
>();

/**
 * SHA-256 of the fingerprint's canonical JSON. Memoised per fingerprint object (an adapted tool
 * keeps one for its lifetime, so a call does not re-hash its schema); a field replaced since the
 * last call is hashed again. Schemas are not mutated in place: a changed server tool arrives as a
 * new `tools/list` result, hence new objects.
 */
export function fingerprintHash(fp: ToolFingerprint): string {
  const memo = hashMemo.get(fp);
  if (
    memo &&
    memo.name === fp.name &&
    memo.description === fp.description &&
    memo.inputSchema === fp.inputSchema
  )
    return memo.hash;
  const hash = hashJson({ name: fp.name, description: fp.description, inputSchema: fp.inputSchema });
  hashMemo.set(fp, { name: fp.name, description: fp.description, inputSchema: fp.inputSchema, hash });
  return hash;
}

const MAX_DIFF_CHARS = 4000;

function describeChange(old: ToolPin, now: ToolFingerprint): string {
  const render = (description: string, schema: unknown): string =>
    `description:\n${description}\n\ninput schema:\n${JSON.stringify(JSON.parse(canonicalJson(schema ?? null)), null, 2)}\n`;
  const patch = createTwoFilesPatch(
    'approved',
    'now',
    render(old.description, old.inputSchema),
    render(now.description, now.inputSchema),
    undefined,
    undefined,
    { context: 2 },
  );
  const body = patch.split('\n').slice(2).join('\n').trimEnd();
  return body.length > MAX_DIFF_CHARS
    ? `${body.slice(0, MAX_DIFF_CHARS)}\n… (diff cut at ${MAX_DIFF_CHARS} characters)`
    : body;
}

/** The pins of one Gantry home (file-backed) plus the session's own (memory). */
export class ApprovalPins {
  readonly file: string | undefined;
  private readonly memory: PinFile = { tools: {}, servers: {} };

  /** `gantryHome` undefined: memory only (tests, library hosts that persist nothing). */
  constructor(gantryHome?: string) {
    this.file = gantryHome ? path.join(gantryHome, 'mcp-approval-pins.json') : undefined;
  }

  /** The file's content as last read, keyed by its identity (inode, size, mtime in ns). */
  private cached: { key: string; pins: PinFile } | undefined;

  /**
   * The file's pins. Read again only when the file changed (another session may have saved a
   * grant): one `stat` per check instead of a read and a parse. A save replaces the file by rename,
   * so it always gets a new inode.
   */
  private loadFile(): PinFile {
    if (!this.file) return { tools: {}, servers: {} };
    const st = statSync(this.file, { bigint: true, throwIfNoEntry: false });
    const key = st ? `${st.ino}:${st.size}:${st.mtimeNs}` : 'absent';
    if (this.cached?.key === key) return this.cached.pins;
    const pins = st ? this.readFile(this.file) : { tools: {}, servers: {} };
    this.cached = { key, pins };
    return pins;
  }

  private readFile(file: string): PinFile {
    const out: PinFile = { tools: {}, servers: {} };
    const { value } = readJsonFile(file);
    if (!isObject(value)) return out;
    if (isObject(value.tools)) out.tools = value.tools as Record<string, ToolPin>;
    if (isObject(value.servers)) out.servers = value.servers as Record<string, ServerPin>;
    return out;
  }

  /**
   * Records a grant. `rule` is the allow rule's tool part (`mcp__srv__tool`, `mcp__srv`,
   * `mcp__srv__*`); `tools` are the server's current tools (the one named, or all of a server).
   * `persist` writes the file (a grant saved to settings); otherwise the pin lasts the session.
   */
  pin(rule: string, tools: readonly ToolFingerprint[], persist: boolean): void {
    const parsed = parseMcpToolName(rule);
    if (!parsed) return;
    const at = new Date().toISOString();
    const target = persist && this.file ? this.readFile(this.file) : this.memory;
    const serverWide = parsed.toolName === undefined || parsed.toolName === '*' || parsed.toolName === '';
    if (serverWide) {
      const key = `mcp__${parsed.serverName}`;
      const entry: ServerPin = { tools: {}, at };
      for (const t of tools) entry.tools[t.name] = fingerprintHash(t);
      target.servers = { ...target.servers, [key]: entry };
    }
    for (const t of tools) {
      if (!serverWide && t.name !== rule) continue;
      target.tools = {
        ...target.tools,
        [t.name]: { hash: fingerprintHash(t), description: t.description, inputSchema: t.inputSchema, at },
      };
    }
    if (target !== this.memory && this.file) writeJsonFile(this.file, { version: 1, ...target });
  }

  /** Compares the tool as served now with its pin (tool pin first, then a server pin). */
  check(now: ToolFingerprint): PinCheck {
    const file = this.loadFile();
    const hash = fingerprintHash(now);
    const toolPin = (t: Record<string, ToolPin>) => (Object.hasOwn(t, now.name) ? t[now.name] : undefined);
    const pin = toolPin(this.memory.tools) ?? toolPin(file.tools);
    if (pin) {
      if (pin.hash === hash) return { status: 'match' };
      return { status: 'changed', diff: describeChange(pin, now), approvedAt: pin.at };
    }
    const parsed = parseMcpToolName(now.name);
    if (!parsed) return { status: 'unpinned' };
    const key = `mcp__${parsed.serverName}`;
    const server =
      (Object.hasOwn(this.memory.servers, key) ? this.memory.servers[key] : undefined) ??
      (Object.hasOwn(file.servers, key) ? file.servers[key] : undefined);
    if (!server || !isObject(server.tools)) return { status: 'unpinned' };
    if (!Object.hasOwn(server.tools, now.name)) return { status: 'new-tool', approvedAt: server.at };
    return server.tools[now.name] === hash
      ? { status: 'match' }
      : { status: 'changed', diff: '(no copy of the approved definition was kept)', approvedAt: server.at };
  }
}

/** The question text for a pin that no longer matches (`undefined` when the grant still holds). */
export function pinQuestion(check: PinCheck, toolName: string): string | undefined {
  if (check.status === 'changed')
    return `${toolName} changed since it was always-allowed (${check.approvedAt}); the earlier approval no longer applies. Changes:\n${check.diff}`;
  if (check.status === 'new-tool')
    return `${toolName} is new: its server was always-allowed (${check.approvedAt}) when it did not offer this tool, so the approval does not cover it.`;
  return undefined;
}
