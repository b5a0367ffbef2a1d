/** The MCP SDK, loaded on first use by connection.ts. */

/** The MCP SDK's client, its message schemas and the transports built on them. */
export interface McpSdk {
  client: typeof import('@modelcontextprotocol/sdk/client/index.js');
  types: typeof import('@modelcontextprotocol/sdk/types.js');
  transports: typeof import('./transports.js');
}
let sdkLoad: Promise<McpSdk> | undefined;
/**
 * Loads the SDK when the first server connects, not when the session is built: a session without
 * MCP servers never evaluates it (docs/cli-print.md, "Start-up").
 */
export function loadSdk(): Promise<McpSdk> {
  sdkLoad ??= Promise.all([
    import('@modelcontextprotocol/sdk/client/index.js'),
    import('@modelcontextprotocol/sdk/types.js'),
    import('./transports.js'),
  ]).then(([client, types, transports]) => ({ client, types, transports }));
  return sdkLoad;
}
