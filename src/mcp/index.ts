/**
 * `gantry/mcp`: Gantry's tools served over MCP with the permission engine in front (the server
 * behind `gantry mcp`), for hosts that embed it.
 *
 * ```ts
 * const engine = createPermissionEngine({ settings: loadSettings({ projectRoot }) });
 * await serveStdio({ tools: await getTools(), cwd: projectRoot, decide: engine.decider });
 * ```
 */
export { annotationsFor, type McpToolAnnotations } from './server/annotations.js';
export {
  createGantryMcpServer,
  type GantryMcpServerOptions,
  toMcpContent,
} from './server/gantry-mcp-server.js';
export { type HttpMcpServer, serveHttp, serveStdio } from './server/transports.js';
