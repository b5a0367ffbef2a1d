/**
 * The `lspServers` settings of a session (docs/lsp.md), read from the files the permission loader
 * read (`LoadedSettings.files`, highest precedence first). Servers merge by name: the entry of the
 * highest file that names a server wins as a whole. A project or local settings file of a folder
 * that is not trusted contributes no servers: an entry names a program the session would run. And in
 * a folder that is not trusted no language server starts at all, not even one from the user's own
 * settings: a server reads the project's configuration and may load code from it (the TypeScript
 * server loads `tsconfig.json` plugins and the project's `node_modules/typescript`), the reason
 * editors keep language servers off in untrusted workspaces. Trust the folder to use them.
 * Files that did not load or do not parse were already reported by the permission loader and are
 * skipped; each problem found here is one warning line.
 */
import { readFileSync } from 'node:fs';
import type { LoadedSettings } from '../permissions/settings/types.js';
import { type LspServerConfig, parseLspServers } from '../tools/lsp/config.js';

export function readLspSettings(
  settings: LoadedSettings,
  projectRoot: string,
): { servers: LspServerConfig[]; warnings: string[] } {
  const byName = new Map<string, LspServerConfig>();
  const warnings: string[] = [];
  for (const f of settings.files) {
    if (!f.loaded) continue;
    let root: unknown;
    try {
      root = JSON.parse(readFileSync(f.file, 'utf8'));
    } catch {
      continue;
    }
    if (typeof root !== 'object' || root === null || !Object.hasOwn(root, 'lspServers')) continue;
    const projectSupplied = f.source === 'projectSettings' || f.source === 'localSettings';
    if (projectSupplied && !settings.trust.trusted) {
      warnings.push(`untrusted folder: "lspServers" of ${f.file} ignored`);
      continue;
    }
    const parsed = parseLspServers((root as Record<string, unknown>).lspServers, projectRoot);
    for (const p of parsed.problems)
      warnings.push(`settings: ${f.file}: lspServers${p.server ? `.${p.server}` : ''}: ${p.message}`);
    for (const server of parsed.servers) if (!byName.has(server.name)) byName.set(server.name, server);
  }
  if (!settings.trust.trusted && byName.size) {
    warnings.push(
      `untrusted folder: language servers (${[...byName.keys()].join(', ')}) are not started, since a server may load the project's own code; trust the folder to use them`,
    );
    return { servers: [], warnings };
  }
  return { servers: [...byName.values()], warnings };
}
