/**
 * Effects of redirections: `>`, `>>`, `>|`, `&>`, `&>>` and `>& FILE` write; `<` reads; `<>`
 * reads and writes; heredocs, here-strings and fd duplication (`2>&1`, `>&-`) have no file effect.
 * A target with a glob or an expansion other than $HOME/$PWD is `unknown` (the Claude Code permissions docs: redirect
 * targets containing globs need approval). `/dev/null` and the std streams are not files.
 *
 * Source: the Claude Code permissions docs "Redirections"; docs/security-round-2.md (2>/dev/null, >/dev/null,
 * 2>&1 and input redirection do not make a command a write).
 */
import type { SimpleCommand } from '../types.js';
import type { EffectSink } from './sink.js';

const WRITE_OPS = new Set(['>', '>>', '>|', '&>', '&>>']);

export function redirectEffects(cmd: SimpleCommand, sink: EffectSink): void {
  for (const r of cmd.redirects) {
    const op = r.op;
    const t = r.target;
    let kinds: ('read' | 'write')[];
    if (WRITE_OPS.has(op)) kinds = ['write'];
    else if (op === '<') kinds = ['read'];
    else if (op === '<>') kinds = ['read', 'write'];
    else if (op === '>&' || op === '<&') {
      if (/^(\d+|-|\d+-)$/.test(t.text)) continue;
      kinds = [op === '>&' ? 'write' : 'read'];
    } else continue;
    for (const kind of kinds) {
      const detail = `${r.fd ?? ''}${op} redirect`;
      if (t.hasGlob) sink.other(kind, t.raw, 'unknown', 'redirect', `${detail} (glob target)`);
      else sink.file(kind, t, 'redirect', detail);
    }
  }
}
