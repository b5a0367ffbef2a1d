/**
 * The effect model (docs/architecture.md): what a tool call would do to the machine, stated as data so
 * the permission engine can judge paths and hosts instead of matching strings.
 *
 * Source: docs/architecture.md (path constraints, sed constraints).
 */

/** What an effect does. `env` = changes the environment of later commands (export, cd is separate). */
export type EffectKind = 'read' | 'write' | 'delete' | 'exec' | 'network' | 'env';

/** `known` when the target was resolved statically; `unknown` when it could not be (variable, glob, one-liner). */
export type EffectCertainty = 'known' | 'unknown';

/** Where in the call the effect came from. */
export type EffectSource =
  | 'tool-input' // a file tool's own field (file_path, path, notebook_path)
  | 'argument' // a positional argument of a known program (cp a b)
  | 'flag' // an option value (curl -o f, sort -o f, --output=f)
  | 'redirect' // > >> < &> etc.
  | 'cwd' // cd / git -C / pushd targets
  | 'program' // the command word itself (exec effect)
  | 'interpreter' // script text handed to an interpreter (python -c, node -e, awk system())
  | 'unknown';

/**
 * One effect of a call.
 *
 * - `target`: for file kinds an absolute, normalised path (`~` and `..` resolved, symlinks resolved
 *   when the resolver could), or the raw text when `certainty` is `unknown`; for `network` a host
 *   (`example.com`, `127.0.0.1:8080`) or URL; for `exec` the program (as written) or script summary;
 *   for `env` the variable name.
 * - `subcommand`: index into the call's `subcommands` (Bash only).
 */
export interface Effect {
  kind: EffectKind;
  target: string;
  certainty: EffectCertainty;
  source: EffectSource;
  /** Human-readable origin, e.g. `sed -i`, `> redirect`, `curl -o`. */
  detail?: string;
  subcommand?: number;
}

/** Convenience constructor for a known effect. */
export function knownEffect(kind: EffectKind, target: string, source: EffectSource, detail?: string): Effect {
  return detail === undefined
    ? { kind, target, certainty: 'known', source }
    : { kind, target, certainty: 'known', source, detail };
}

/** Convenience constructor for an unknown effect (never allows, docs/architecture.md). */
export function unknownEffect(
  kind: EffectKind,
  target: string,
  source: EffectSource,
  detail?: string,
): Effect {
  return detail === undefined
    ? { kind, target, certainty: 'unknown', source }
    : { kind, target, certainty: 'unknown', source, detail };
}

/** True when the effect changes files (write or delete). */
export function isMutatingEffect(e: Effect): boolean {
  return e.kind === 'write' || e.kind === 'delete';
}
