/**
 * The mode a decision runs in (engine.ts): the request's mode, except `bypassPermissions` when
 * settings disable it and `auto` when settings disable auto mode; both fall back to `default`,
 * and the fallback is said in the decision's trace.
 */
import type { PermissionMode } from '../core/permission-types.js';
import type { LoadedSettings } from './settings/types.js';

/** The effective mode of `requested` under `settings`; pushes a line to `trace` when it falls back. */
export function effectiveMode(
  requested: PermissionMode,
  settings: LoadedSettings,
  trace: string[],
): PermissionMode {
  if (requested === 'bypassPermissions' && settings.disableBypassPermissionsMode) {
    trace.push('mode: bypassPermissions is disabled by settings; using default');
    return 'default';
  }
  if (requested === 'auto' && settings.disableAutoMode) {
    trace.push('mode: auto mode is disabled by settings; using default');
    return 'default';
  }
  return requested;
}
