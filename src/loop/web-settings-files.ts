/**
 * The `webFetch` / `webSearch` settings of a session (core/web-settings.ts), read from the files
 * the permission loader read (`LoadedSettings.files`, highest precedence first). A project or local
 * settings file of a folder that is not trusted keeps its choices but loses its allowances
 * (`allowPrivateHosts`, `allowHttpHosts`): they widen what WebFetch reaches, like an allow rule.
 * Files that did not load or do not parse were already reported by the permission loader and are
 * skipped; each problem found here is one warning line.
 */
import { readFileSync } from 'node:fs';
import { mergeWebSettings, type WebSettings, type WebSettingsSource } from '../core/web-settings.js';
import type { LoadedSettings } from '../permissions/settings/types.js';

export function readWebSettings(settings: LoadedSettings): { web: WebSettings; warnings: string[] } {
  const sources: WebSettingsSource[] = [];
  for (const f of settings.files) {
    if (!f.loaded) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(readFileSync(f.file, 'utf8'));
    } catch {
      continue;
    }
    const projectSupplied = f.source === 'projectSettings' || f.source === 'localSettings';
    sources.push({ settings: parsed, file: f.file, untrusted: projectSupplied && !settings.trust.trusted });
  }
  const merged = mergeWebSettings(sources);
  return { web: merged.settings, warnings: merged.problems.map((p) => `settings: ${p}`) };
}
