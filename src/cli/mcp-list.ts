/**
 * `gantry mcp list`: the MCP servers a session in this folder would use, each connected once to
 * check it (like `claude mcp list`), with its status, where it was configured and, for failures,
 * why. Project servers not yet approved for interactive sessions are listed as `needs-approval`
 * and not started.
 *
 *   gantry mcp list [--cwd DIR] [--settings FILE]… [--mcp-config FILE|JSON]… [--strict-mcp-config]
 *                   [--trust] [--json]
 *
 * Exit code 0 when every server that was started connected, 1 when one failed, 3 on a usage error.
 */
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { mkdtemp, rm } from 'node:fs/promises';
import type { McpServerReport } from '../mcp/client/manager.js';
import { setupMcpSession } from '../mcp/client/session-setup.js';
import { createGuard, explicitSettingsErrors } from './shared/guard.js';

export interface McpListOptions {
  cwd?: string;
  settings?: string[];
  mcpConfig?: string[];
  strictMcpConfig?: boolean;
  trust?: boolean;
  json?: boolean;
}

const MARK: Record<McpServerReport['status'], string> = {
  connected: '✓ connected',
  failed: '✗ failed',
  pending: '… pending',
  'needs-approval': '? needs approval (start gantry interactively to approve)',
  disabled: '- disabled',
};

/** One line per server. */
export function formatReports(reports: readonly McpServerReport[]): string {
  if (!reports.length) return 'No MCP servers configured.\n';
  return `${reports
    .map((r) => {
      const tools = r.status === 'connected' ? `, ${r.toolCount} tool${r.toolCount === 1 ? '' : 's'}` : '';
      const why = r.error ? `: ${r.error}` : '';
      const sandboxed = r.sandboxed ? ', sandboxed' : '';
      return `${r.name}: ${r.target} (${r.transport}, ${r.source}${sandboxed}) - ${MARK[r.status]}${tools}${why}`;
    })
    .join('\n')}\n`;
}

export async function runMcpList(o: McpListOptions, version: string): Promise<number> {
  const cwd = path.resolve(o.cwd ?? process.cwd());
  const guard = createGuard({
    cwd,
    ...(o.settings ? { settingsFiles: o.settings } : {}),
    ...(o.trust !== undefined ? { trust: o.trust } : {}),
  });
  const broken = explicitSettingsErrors(guard.settings, o.settings);
  if (broken.length) {
    process.stderr.write(`gantry mcp list: ${broken.map((p) => `${p.file}: ${p.message}`).join('; ')}\n`);
    return 3;
  }
  // Stderr logs and saved media of the check go here, and are removed afterwards.
  const sessionDir = await mkdtemp(path.join(tmpdir(), 'gantry-mcp-list-'));
  const { manager, problems } = setupMcpSession({
    projectRoot: guard.settings.projectRoot,
    cwd,
    home: guard.settings.home || homedir(),
    env: process.env,
    ...(o.mcpConfig ? { mcpConfig: o.mcpConfig } : {}),
    ...(o.strictMcpConfig ? { strictMcpConfig: true } : {}),
    settingsFiles: guard.settings.files,
    trusted: guard.settings.trust.trusted,
    interactive: true,
    sessionDir,
    pins: false,
    clientInfo: { name: 'gantry', version },
  });
  for (const p of problems)
    process.stderr.write(`mcp config ${p.severity}: ${p.file ? `${p.file}: ` : ''}${p.message}\n`);
  try {
    await manager.start();
    const reports = manager.reports();
    process.stdout.write(o.json ? `${JSON.stringify(reports, null, 2)}\n` : formatReports(reports));
    return reports.some((r) => r.status === 'failed') ? 1 : 0;
  } finally {
    await manager.dispose();
    await rm(sessionDir, { recursive: true, force: true });
  }
}
