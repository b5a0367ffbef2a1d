/**
 * The session's language servers: each configured server is one {@link LspServer} registered in
 * the session services as `lsp:<name>` the first time a call needs it, found again by later calls
 * (the LSP tool and the diagnostics after an edit share it) and disposed with the session.
 */
import type { SessionServices } from '../../core/services.js';
import { ToolExecutionError } from '../../core/errors.js';
import type { LspServerConfig } from './config.js';
import { LspServer } from './server.js';

/** The name of a server's session resource. */
export function lspResourceName(server: string): string {
  return `lsp:${server}`;
}

/**
 * The session's server for `config`, registering a new (not yet started) one when there is none.
 * @throws ToolExecutionError when the host's services keep no resources, or the name is taken by
 *   something that is not a language server.
 */
export function sessionServer(
  services: SessionServices,
  config: LspServerConfig,
  env?: Readonly<Record<string, string | undefined>>,
): LspServer {
  const resources = services.resources;
  if (!resources)
    throw new ToolExecutionError(
      'The LSP tool needs session services that keep resources (the host gave none), so no language server can be started.',
    );
  const name = lspResourceName(config.name);
  const existing = resources.get(name);
  if (existing instanceof LspServer) return existing;
  if (existing) throw new ToolExecutionError(`The session resource ${name} is not a language server.`);
  const server = new LspServer({ config, ...(env ? { env } : {}) });
  resources.register(name, server);
  return server;
}
