/**
 * `ListMcpResourcesTool` and `ReadMcpResourceTool` (Claude Code's names and inputs): the model's
 * way to the resources of the session's MCP servers. The servers are reached through an injected
 * provider (the MCP client implements it), so these tools import nothing above `tools/`.
 *
 * - List: `{ server? }` → every resource of that server, or of every connected server that has
 *   resources, each with its `server`; as JSON.
 * - Read: `{ server, uri }` → `{ contents: [{ uri, mimeType?, text }] }`; a binary resource is saved
 *   under `<sessionDir>/tool-results/` and listed with `blobSavedTo` instead of its bytes.
 * Output is marked as untrusted data, like MCP tool output. Both are deferred behind tool search.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { buildTool } from '../../core/build-tool.js';
import { describeWorldOf } from '../../core/call-describer.js';
import { ToolExecutionError, ToolInputError } from '../../core/errors.js';
import { markUntrusted } from '../../core/untrusted-content.js';
import { listMcpResourcesDescriber, readMcpResourceDescriber } from './describe.js';

export interface McpResourceInfo {
  uri: string;
  name: string;
  mimeType?: string;
  description?: string;
}

export type McpResourceContent =
  | { uri: string; mimeType?: string; text: string }
  | { uri: string; mimeType?: string; blob: string };

/** What the resource tools need from the MCP client. */
export interface McpResourceProvider {
  /** Connected servers that offer resources. */
  servers(): string[];
  listResources(server: string, signal: AbortSignal): Promise<McpResourceInfo[]>;
  readResource(server: string, uri: string, signal: AbortSignal): Promise<{ contents: McpResourceContent[] }>;
}

const ListInput = z.strictObject({
  server: z.string().optional().describe('Only this server (default: every connected server).'),
});
const ReadInput = z.strictObject({
  server: z.string().describe('The MCP server that has the resource.'),
  uri: z.string().describe('The URI of the resource to read.'),
});
type ListInput = z.infer<typeof ListInput>;
type ReadInput = z.infer<typeof ReadInput>;

export type ListMcpResourcesOutput = (McpResourceInfo & { server: string })[];
export interface ReadMcpResourceOutput {
  server: string;
  contents: (
    | { uri: string; mimeType?: string; text: string }
    | { uri: string; mimeType?: string; blobSavedTo: string }
  )[];
}

function unknownServer(server: string, known: string[]): ToolInputError {
  return new ToolInputError(
    `Server "${server}" is not connected or has no resources. Servers with resources: ${known.join(', ') || '(none)'}.`,
    'server',
  );
}

/** Both tools over `provider`. */
export function createMcpResourceTools(provider: McpResourceProvider) {
  const list = buildTool({
    name: 'ListMcpResourcesTool',
    description:
      'List the resources (documents, data, files) that the connected MCP servers offer. Give a server name to list only that server. Read one with ReadMcpResourceTool.',
    inputSchema: ListInput,
    shouldDefer: true,
    isReadOnly: listMcpResourcesDescriber.isReadOnly,
    isConcurrencySafe: () => true,
    toAutoClassifierInput: listMcpResourcesDescriber.toAutoClassifierInput,
    async describeCall(input: ListInput, context) {
      return listMcpResourcesDescriber.describe(input, describeWorldOf(context));
    },
    // biome-ignore lint/correctness/useYield: no progress to report.
    async *call(input: ListInput, context) {
      const known = provider.servers();
      if (input.server !== undefined && !known.includes(input.server))
        throw unknownServer(input.server, known);
      const targets = input.server !== undefined ? [input.server] : known;
      const out: ListMcpResourcesOutput = [];
      for (const server of targets) {
        try {
          for (const r of await provider.listResources(server, context.abortController.signal))
            out.push({ ...r, server });
        } catch (error) {
          if (input.server !== undefined)
            throw new ToolExecutionError(
              `Listing the resources of "${server}" failed: ${(error as Error).message}`,
            );
        }
      }
      return { data: out };
    },
    mapToolResultToContent(output: ListMcpResourcesOutput) {
      if (!output.length) return 'No resources found. The connected MCP servers may still offer tools.';
      const servers = [...new Set(output.map((r) => r.server))];
      return markUntrusted(JSON.stringify(output), servers.join(', '));
    },
  });

  const read = buildTool({
    name: 'ReadMcpResourceTool',
    description:
      'Read one resource of an MCP server, by server name and resource URI (see ListMcpResourcesTool).',
    inputSchema: ReadInput,
    shouldDefer: true,
    isReadOnly: readMcpResourceDescriber.isReadOnly,
    isConcurrencySafe: () => true,
    toAutoClassifierInput: readMcpResourceDescriber.toAutoClassifierInput,
    async describeCall(input: ReadInput, context) {
      return readMcpResourceDescriber.describe(input, describeWorldOf(context));
    },
    // biome-ignore lint/correctness/useYield: no progress to report.
    async *call(input: ReadInput, context) {
      const known = provider.servers();
      if (!known.includes(input.server)) throw unknownServer(input.server, known);
      let result: { contents: McpResourceContent[] };
      try {
        result = await provider.readResource(input.server, input.uri, context.abortController.signal);
      } catch (error) {
        throw new ToolExecutionError(
          `Reading ${input.uri} from "${input.server}" failed: ${(error as Error).message}`,
        );
      }
      const contents: ReadMcpResourceOutput['contents'] = [];
      for (const c of result.contents) {
        if ('text' in c && typeof c.text === 'string') {
          contents.push({ uri: c.uri, ...(c.mimeType ? { mimeType: c.mimeType } : {}), text: c.text });
          continue;
        }
        const dir = path.join(context.getAppState().sessionDir, 'tool-results');
        await mkdir(dir, { recursive: true });
        const file = path.join(dir, `mcp-resource-${Date.now()}-${randomBytes(3).toString('hex')}.bin`);
        await writeFile(file, Buffer.from((c as { blob: string }).blob, 'base64'), {
          flag: 'wx',
          mode: 0o600,
        });
        contents.push({ uri: c.uri, ...(c.mimeType ? { mimeType: c.mimeType } : {}), blobSavedTo: file });
      }
      return { data: { server: input.server, contents } satisfies ReadMcpResourceOutput };
    },
    mapToolResultToContent(output: ReadMcpResourceOutput) {
      return markUntrusted(JSON.stringify({ contents: output.contents }), output.server);
    },
  });
  return [list, read] as const;
}
