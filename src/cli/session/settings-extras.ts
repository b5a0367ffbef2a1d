/**
 * The settings keys the agent needs beyond permissions and hooks, read from the same files the
 * permission loader read (`LoadedSettings.files`, highest precedence first):
 *
 * - `model`, `provider`: the first file that sets one wins;
 * - `env`: merged, higher files overriding lower ones (Claude Code applies its settings' `env` to
 *   the session);
 * - `plansDirectory`: the first file that sets one wins.
 *
 * An untrusted project's files (project and local settings, see permissions/settings/trust.ts)
 * contribute no `env` and no `plansDirectory` (plan mode may write the plan file): `env` could point `ANTHROPIC_BASE_URL` elsewhere and take the key with it.
 * Each drop is a warning. Command hooks come from the permission loader (`eventHooks`). Files that
 * do not parse were already reported by the permission loader and are skipped here.
 */
import { readFileSync } from 'node:fs';
import type { LoadedSettings } from '../../permissions/index.js';

export interface SettingsExtras {
  model?: string;
  provider?: string;
  /**
   * `plansDirectory`: where plan files go (absolute, `~/…`, or relative to the project root); the
   * first file that sets one wins, and an untrusted project's files cannot set it.
   */
  plansDirectory?: string;
  env: Record<string, string>;
  warnings: string[];
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

function readObject(file: string): Record<string, unknown> | undefined {
  try {
    const v: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return isObj(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Reads the extras (see the module comment). */
export function readSettingsExtras(settings: LoadedSettings): SettingsExtras {
  const out: SettingsExtras = { env: {}, warnings: [] };
  const trusted = settings.trust.trusted;
  const envLayers: Record<string, string>[] = [];
  for (const f of settings.files) {
    if (!f.loaded) continue;
    const root = readObject(f.file);
    if (!root) continue;
    const projectSupplied = f.source === 'projectSettings' || f.source === 'localSettings';
    if (typeof root.model === 'string' && root.model.trim() && out.model === undefined)
      out.model = root.model;
    if (typeof root.provider === 'string' && root.provider.trim() && out.provider === undefined)
      out.provider = root.provider;
    if (typeof root.plansDirectory === 'string' && root.plansDirectory.trim()) {
      if (projectSupplied && !trusted)
        out.warnings.push(`untrusted folder: "plansDirectory" of ${f.file} ignored`);
      else out.plansDirectory ??= root.plansDirectory.trim();
    }
    if (isObj(root.env)) {
      if (projectSupplied && !trusted) {
        out.warnings.push(`untrusted folder: "env" of ${f.file} ignored`);
      } else {
        const layer: Record<string, string> = {};
        for (const [k, v] of Object.entries(root.env)) if (typeof v === 'string') layer[k] = v;
        envLayers.push(layer);
      }
    }
  }
  for (const layer of envLayers.reverse()) Object.assign(out.env, layer);
  return out;
}
