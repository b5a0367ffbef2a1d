/**
 * BRACE_EXPANSION (seed 000 §2.3 id 16; security README "brace expansion whose results leave the
 * project"; also_ok lets a few benign brace cases ask). Effects see the unexpanded word, so a brace
 * is a finding when any expansion could point somewhere the literal word does not: an absolute or
 * `~` path, a `..` segment, a dotfile (protected names are dotfiles), an option (`{-rf,x}`), or an
 * expansion too large to enumerate. `src/{a,b}.ts`, `*.{ts,js}` stay silent.
 */
import type { Finding } from '../../core/permission-types.js';
import { expandBraces } from '../words-brace.js';
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
    'Brace expansion produces words the rules and path checks never see; it is flagged when an expansion is an absolute, home, parent-directory or hidden-file path, an option, or too large to enumerate.',
  detect(_command, split) {
    const out: Finding[] = [];
    split.commands.forEach((cmd, i) => {
      for (const w of [...cmd.argv, ...cmd.redirects.map((r) => r.target)]) {
        if (!w.braceExpansion) continue;
        const expansion = expandBraces(w.text);
        if (expansion.truncated) {
          out.push(
            finding(
              this,
              `The brace expansion ${JSON.stringify(w.raw.slice(0, 60))} produces too many words to check.`,
              i,
            ),
          );
          return;
        }
        for (const e of expansion.words) {
          const why = risky(e, w.text);
          if (why) {
            out.push(
              finding(
                this,
                `The brace expansion ${JSON.stringify(w.raw.slice(0, 60))} produces ${why} (${JSON.stringify(e.slice(0, 60))}).`,
                i,
              ),
            );
            return;
          }
        }
      }
    });
    return out;
  },
};
