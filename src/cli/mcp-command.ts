/**
 * `gantry mcp`: serve the built-in tools over MCP with the permission engine in front (issue 7).
 *
 *   gantry mcp [--cwd DIR] [--mode MODE] [--settings FILE]… [--transport stdio|http] [--port N]
 *              [--on-ask deny|allow]
 *
 * stdio is the default; `--transport http` listens on 127.0.0.1:`--port` (default 0 = any free
 * port; the URL is printed on stderr).
 */
import { randomUUID } from 'node:crypto';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PERMISSION_MODES, type PermissionMode } from '../core/index.js';
import { serveHttp, serveStdio } from '../mcp/server/transports.js';
import { assembleToolPool } from '../runtime/index.js';
import { createSandboxManager, type SandboxManager } from '../sandbox/index.js';
import { getAllBaseTools } from '../tools/index.js';
import { createGuard, explicitSettingsErrors } from './shared/guard.js';

export interface McpCliOptions {
  cwd?: string;
  mode?: string;
  settings?: string[];
  transport?: string;
  port?: string;
  onAsk?: string;
  trust?: boolean;
}

/** Starts the server; resolves when a stdio session ends (HTTP keeps running). Returns an exit code. */
export async function runMcp(o: McpCliOptions, version: string): Promise<number> {
  const fail = (m: string): number => {
    process.stderr.write(`gantry mcp: ${m}\n`);
    return 3;
  };
  if (o.mode && !PERMISSION_MODES.includes(o.mode as PermissionMode)) return fail(`unknown --mode ${o.mode}`);
  const transport = o.transport ?? 'stdio';
  if (transport !== 'stdio' && transport !== 'http') return fail('--transport must be stdio or http');
  const onAsk = o.onAsk ?? 'deny';
  if (onAsk !== 'deny' && onAsk !== 'allow') return fail('--on-ask must be deny or allow');
  const port = o.port === undefined ? 0 : Number(o.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return fail(`bad --port ${o.port}`);

  const cwd = path.resolve(o.cwd ?? process.cwd());
  // Spilled results go here; the engine lets Read reach them without asking (design.md §5).
  const sessionDir = path.join(tmpdir(), 'gantry-mcp', randomUUID());
  const guard = createGuard({
    cwd,
    readableDirectories: [sessionDir],
    ...(o.settings ? { settingsFiles: o.settings } : {}),
    ...(o.mode ? { mode: o.mode } : {}),
    ...(o.trust !== undefined ? { trust: o.trust } : {}),
  });
  const broken = explicitSettingsErrors(guard.settings, o.settings);
  if (broken.length) return fail(broken.map((p) => `${p.file}: ${p.message}`).join('; '));
  for (const p of guard.settings.problems)
    process.stderr.write(`settings ${p.severity}: ${p.file ?? ''} ${p.message}\n`);
  // The Bash sandbox, when settings enable it (spec §7): one manager per server process.
  const sandbox: SandboxManager | undefined = guard.settings.sandbox.enabled
    ? createSandboxManager({
        settings: guard.settings.sandbox,
        workingDirectories: () => [cwd, ...guard.settings.additionalDirectories],
      })
    : undefined;
  // The tool pool: isEnabled, bare deny rules (names and aliases), a fixed order.
  const tools = assembleToolPool({
    builtIn: await getAllBaseTools(sandbox ? { bashSandbox: sandbox } : {}),
    isDenied: (name) => guard.engine.isToolDenied(name),
  }).callable;
  const options = {
    tools,
    cwd,
    additionalDirectories: guard.settings.additionalDirectories,
    mode: guard.mode,
    decide: guard.engine.decider,
    onAsk: onAsk as 'deny' | 'allow',
    name: 'gantry',
    version,
    sessionDir,
  };
  if (transport === 'stdio') {
    await serveStdio(options);
    await sandbox?.dispose();
    return 0;
  }
  const server = await serveHttp(options, port);
  process.stderr.write(`gantry mcp listening on ${server.url}\n`);
  const stop = (): void => {
    Promise.all([server.close(), sandbox?.dispose()]).then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
  return 0;
}
