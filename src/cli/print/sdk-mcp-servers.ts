/**
 * MCP servers the Agent SDK host manages through the control protocol (docs/cli-print.md
 * "Control protocol"):
 *
 * - **In-process servers** (`initialize.sdkMcpServers`, the SDK's `createSdkMcpServer`): each
 *   JSON-RPC message to such a server is an `mcp_message` control request to the host, whose
 *   answer carries the server's response (`mcp_response`). The handshake runs in full.
 * - **`mcp_set_servers`** (`setMcpServers(map)`): the servers named by earlier calls are replaced
 *   by the new map. A named server that already runs with the same entry is kept; one with another
 *   entry is reconnected; a server a call names for the first time replaces one of that name from
 *   the configuration files; servers no call has named stay. The answer is
 *   `{added, removed, errors}`. Entries are checked like `--mcp-config` entries; `{type: "sdk"}`
 *   entries are in-process servers of the host.
 */
import { canonicalJson } from '../../mcp/client/store/project-approvals.js';
import { parseServerEntry } from '../../mcp/client/config/parse-entry.js';
import type { McpServerEntry } from '../../mcp/client/config/types.js';
import type { McpClientManager } from '../../mcp/client/manager.js';
import type { ControlChannel } from './control-channel.js';

export interface SetServersResult {
  added: string[];
  removed: string[];
  errors: Record<string, string>;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export class SdkMcpServers {
  private connecting: Promise<unknown> = Promise.resolve();
  /** Servers named by `mcp_set_servers` (or `sdkMcpServers`), with the entry they were given. */
  private readonly named = new Map<string, string>();
  /** In-process servers that never got connected (the manager refused them). */
  readonly failed: { name: string; status: string; error: string; source: string }[] = [];

  constructor(
    private readonly deps: {
      channel: ControlChannel;
      mcp: McpClientManager;
      cwd: string;
      env: Readonly<Record<string, string | undefined>>;
    },
  ) {}

  /** Starts connecting the host's in-process servers; `ready()` waits for them. */
  connectInProcess(names: readonly unknown[]): void {
    const adds: Promise<void>[] = [];
    for (const name of names) {
      if (typeof name !== 'string' || !name) continue;
      this.named.set(name, canonicalJson({ type: 'sdk', name }));
      adds.push(
        this.deps.mcp
          .addServer({ name, scope: 'sdk', file: '<sdk>', entry: this.inProcess(name) })
          .catch((e: unknown) => {
            this.failed.push({ name, status: 'failed', error: (e as Error).message, source: 'sdk' });
          }),
      );
    }
    this.connecting = Promise.all(adds);
  }

  /** Resolves once the in-process servers connected or failed. Never rejects. */
  ready(): Promise<void> {
    return this.connecting.then(
      () => undefined,
      () => undefined,
    );
  }

  /** Applies a `mcp_set_servers` request. */
  async set(servers: unknown): Promise<SetServersResult | string> {
    if (!isObj(servers)) return 'mcp_set_servers needs a "servers" object';
    const { mcp } = this.deps;
    const result: SetServersResult = { added: [], removed: [], errors: {} };
    for (const name of [...this.named.keys()]) {
      if (Object.hasOwn(servers, name)) continue;
      this.named.delete(name);
      if (await mcp.removeServer(name)) result.removed.push(name);
    }
    for (const [name, raw] of Object.entries(servers)) {
      const key = canonicalJson(raw);
      const known = mcp.reports().some((r) => r.name === name);
      if (this.named.get(name) === key && known) continue;
      const entry = this.entryOf(name, raw);
      if (typeof entry === 'string') {
        result.errors[name] = entry;
        continue;
      }
      if (known) await mcp.removeServer(name);
      this.named.set(name, key);
      await mcp.addServer({ name, scope: entry.type === 'sdk' ? 'sdk' : 'dynamic', file: '<sdk>', entry });
      const report = mcp.reports().find((r) => r.name === name);
      if (report?.status === 'connected') result.added.push(name);
      else result.errors[name] = report?.error ?? `${name} did not connect`;
    }
    return result;
  }

  private entryOf(name: string, raw: unknown): McpServerEntry | string {
    if (isObj(raw) && raw.type === 'sdk') return this.inProcess(name);
    const parsed = parseServerEntry(name, raw, { file: '<sdk>', env: this.deps.env, baseDir: this.deps.cwd });
    if (!parsed.entry) return parsed.problems.map((p) => p.message).join('; ') || 'invalid entry';
    return parsed.entry;
  }

  private inProcess(name: string): McpServerEntry {
    const { channel } = this.deps;
    return {
      type: 'sdk',
      exchange: async (message: unknown) =>
        (await channel.request({ subtype: 'mcp_message', server_name: name, message })).mcp_response,
    };
  }
}
