/**
 * BRACE_EXPANSION (docs/architecture.md id 16; docs/security-round-2.md "brace expansion whose results leave the
 * project"; also_ok lets a few benign brace cases ask). The parser expands braces into bash's words
 * (brace-expand.ts), so rules and effects see every result; this check still flags an expansion
 * that points somewhere the word as written does not seem to: an absolute or `~` path, a `..`
 * segment, a dotfile (protected names are dotfiles), an option (`{-rf,x}`), or an expansion too
 * large to enumerate. `src/{a,b}.ts`, `*.{ts,js}` stay silent.
 */
import type { Finding } from '../../core/permission-types.js';
import { type Detector, finding } from './detector.js';

function risky(word: string, original: string): string | undefined {
  if (word.startsWith('/') && !original.startsWith('/')) return 'an absolute path';
  if (word.startsWith('~') && !original.startsWith('~')) return 'a home-directory path';
  if (/(^|\/)\.\.(\/|$)/.test(word)) return 'a parent-directory path';
  if (/(^|\/)\.[^./]/.test(word)) return 'a hidden file';
  if (word.startsWith('-') && !original.startsWith('-')) return 'an option';
  if (word.startsWith('/')) return 'an absolute path';
  return undefined;
}

export const BRACE_EXPANSION: Detector = {
  id: 'BRACE_EXPANSION',
  checkId: 16,
  reason:
    'Brace expansion produces words the command as written does not show; it is flagged when an expansion is an absolute, home, parent-directory or hidden-file path, an option, or too large to enumerate.',
  detect(_command, split) {
    const out: Finding[] = [];
    split.commands.forEach((cmd, i) => {
      for (const w of [...cmd.argv, ...cmd.redirects.map((r) => r.target)]) {
        if (w.braceExpansion) {
          out.push(
            finding(
              this,
              `The brace expression ${JSON.stringify(w.raw.slice(0, 60))} is not expanded to single words (too many results, or an ambiguous redirection).`,
              i,
            ),
          );
          return;
        }
        if (w.braceSource === undefined) continue;
        const why = risky(w.text, w.braceSource);
        if (why) {
          out.push(
            finding(
              this,
              `The brace expansion ${JSON.stringify(w.braceSource.slice(0, 60))} produces ${why} (${JSON.stringify(w.text.slice(0, 60))}).`,
              i,
            ),
          );
          return;
        }
      }
    });
    return out;
  },
};
