/**
 * The `features` object of a session's settings files (`{"features": {"BROWSER": true}}`): which
 * conditional tools the registry loads (`ToolRegistryConfig.features`, src/tools/index.ts; it wins
 * over `GANTRY_FEATURE_<NAME>`). Read from the files the permission loader read
 * (`LoadedSettings.files`, highest precedence first): the first file that names a flag decides it.
 * A project or local file of a folder that is not trusted may switch a flag off but not on (a
 * checkout does not get to load tools by itself). Unknown names and non-boolean values are warnings.
 */
import { readFileSync } from 'node:fs';
import type { LoadedSettings } from '../permissions/settings/types.js';
import { FEATURE_FLAGS, type FeatureFlag } from '../tools/index.js';

const KNOWN: ReadonlySet<string> = new Set(FEATURE_FLAGS);

export function readFeatureSettings(settings: LoadedSettings): {
  features: Partial<Record<FeatureFlag, boolean>>;
  warnings: string[];
} {
  const features: Partial<Record<FeatureFlag, boolean>> = {};
  const warnings: string[] = [];
  for (const f of settings.files) {
    if (!f.loaded) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(f.file, 'utf8'));
    } catch {
      continue;
    }
    const raw = (parsed as { features?: unknown } | null)?.features;
    if (raw === undefined) continue;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
      warnings.push(`settings: ${f.file}: "features" must be an object of flag names to true or false`);
      continue;
    }
    const untrusted =
      (f.source === 'projectSettings' || f.source === 'localSettings') && !settings.trust.trusted;
    for (const [name, value] of Object.entries(raw)) {
      if (!KNOWN.has(name)) {
        warnings.push(`settings: ${f.file}: unknown feature "${name}" (known: ${FEATURE_FLAGS.join(', ')})`);
        continue;
      }
      if (typeof value !== 'boolean') {
        warnings.push(`settings: ${f.file}: feature "${name}" must be true or false`);
        continue;
      }
      const flag = name as FeatureFlag;
      if (features[flag] !== undefined) continue;
      if (value && untrusted) {
        warnings.push(`settings: ${f.file}: feature "${name}" is not switched on: the folder is not trusted`);
        continue;
      }
      features[flag] = value;
    }
  }
  return { features, warnings };
}
