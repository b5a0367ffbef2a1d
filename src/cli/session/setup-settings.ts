/**
 * Agent set-up, phase 1: the settings. `--settings` values (files or inline JSON) are resolved,
 * every settings source is loaded (permissions/settings), and the keys the permission engine does
 * not read are taken out (settings-extras.ts). A broken file the user named with `--settings` is
 * a start-up error; any other settings problem is a warning.
 */
import path from 'node:path';
import { type LoadedSettings, loadSettings } from '../../permissions/index.js';
import { AgentSetupError, type AgentFlags } from './agent-setup-types.js';
import { readSettingsExtras, type SettingsExtras } from './settings-extras.js';
import { resolveSettingsInput, type SettingsInput, SettingsInputError } from './settings-input.js';

/** The `--settings` values as files (inline JSON is written to files under `<home>/.gantry/tmp/`; dispose them). */
export function resolveFlagSettings(flags: AgentFlags, cwd: string, home: string): SettingsInput {
  try {
    return resolveSettingsInput(flags.settings ?? [], cwd, home);
  } catch (e) {
    if (e instanceof SettingsInputError) throw new AgentSetupError(e.message);
    throw e;
  }
}

/** Loads the settings; problems go to `warnings` in the order found. Throws `AgentSetupError`. */
export function loadSetupSettings(
  flags: AgentFlags,
  world: { cwd: string; home: string; env: Readonly<Record<string, string | undefined>> },
  settingsInput: SettingsInput,
  warnings: string[],
): { settings: LoadedSettings; extras: SettingsExtras } {
  const { cwd, home, env } = world;
  const settings = loadSettings({
    projectRoot: cwd,
    home,
    env,
    cli: {
      ...(flags.allowedTools?.length ? { allowedTools: [...flags.allowedTools] } : {}),
      ...(flags.disallowedTools?.length ? { disallowedTools: [...flags.disallowedTools] } : {}),
      ...(flags.permissionMode ? { permissionMode: flags.permissionMode } : {}),
      ...(flags.addDirs?.length ? { addDirs: flags.addDirs.map((d) => path.resolve(cwd, d)) } : {}),
      ...(flags.dangerouslySkipPermissions ? { dangerouslySkipPermissions: true } : {}),
    },
    settingsFiles: settingsInput.files,
    settingsAnchors: settingsInput.anchors,
    ...(flags.managedFiles ? { managedFiles: flags.managedFiles } : {}),
    ...(flags.settingSources ? { settingSources: flags.settingSources } : {}),
    ...(flags.trust !== undefined ? { trust: flags.trust } : {}),
  });
  const named = new Set(settingsInput.files);
  const label = (file: string | undefined): string =>
    file && settingsInput.inline.has(file) ? '--settings (inline JSON)' : (file ?? 'settings');
  const broken = settings.problems.filter(
    (p) => p.severity === 'error' && p.file !== undefined && named.has(p.file),
  );
  if (broken.length)
    throw new AgentSetupError(
      broken.map((p) => `${label(p.file)}: ${p.message}${p.line ? ` (line ${p.line})` : ''}`).join('; '),
    );
  for (const p of settings.problems)
    warnings.push(`settings ${p.severity}: ${label(p.file)}${p.line ? `:${p.line}` : ''} ${p.message}`);

  const extras = readSettingsExtras(settings);
  warnings.push(...extras.warnings);
  return { settings, extras };
}
