/**
 * Redirection checks (docs/architecture.md ids 9–10). A redirection to a static path is an effect (a read or
 * a write that the path checks judge: `ls > out.txt` in the project is a write, not an injection);
 * these checks fire when the target cannot be resolved statically (variables, substitutions, globs,
 * `~user`), when it is a bash network pseudo-device (`/dev/tcp/host/port`), or for `<>` (opens for
 * writing and creates the file).
 */
import type { Finding } from '../../core/permission-types.js';
import type { Redirect } from '../types.js';
import { type Detector, finding } from './detector.js';

const OUTPUT_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '>&', '<>']);
const INPUT_OPS = new Set(['<', '<&', '<>']);

/** Why a redirect target cannot be trusted, or undefined. */
function unresolvable(r: Redirect): string | undefined {
  const t = r.target;
  if ((r.op === '>&' || r.op === '<&') && /^(\d+-?|-)$/.test(t.text)) return undefined; // fd duplication/close
  if (t.dynamic) return `its target ${JSON.stringify(t.raw.slice(0, 60))} is computed when the command runs`;
  if (t.hasGlob) return `its target ${JSON.stringify(t.raw.slice(0, 60))} is a glob`;
  if (/^\/dev\/(tcp|udp)\//.test(t.text)) return `it opens a network connection (${t.text})`;
  if (t.text === '') return 'its target is empty';
  return undefined;
}

export const DANGEROUS_PATTERNS_INPUT_REDIRECTION: Detector = {
  id: 'DANGEROUS_PATTERNS_INPUT_REDIRECTION',
  checkId: 9,
  reason:
    'Input redirection from a target that cannot be resolved before running (`< $f`, `< <(cmd)`, `< *.txt`), from `/dev/tcp`/`/dev/udp`, or with `<>` (which also opens the file for writing) cannot be checked against path rules.',
  detect(_command, split) {
    const out: Finding[] = [];
    split.commands.forEach((cmd, i) => {
      for (const r of cmd.redirects) {
        if (!INPUT_OPS.has(r.op)) continue;
        const why =
          r.op === '<>' ? 'it opens the file for reading and writing (creating it)' : unresolvable(r);
        if (why) {
          out.push(finding(this, `The input redirection "${r.op}" is unsafe: ${why}.`, i));
          return;
        }
      }
    });
    return out;
  },
};

export const DANGEROUS_PATTERNS_OUTPUT_REDIRECTION: Detector = {
  id: 'DANGEROUS_PATTERNS_OUTPUT_REDIRECTION',
  checkId: 10,
  reason:
    'Output redirection whose target cannot be resolved before running (`> $f`, `> "$(mktemp)"`, `> *.log`, `> >(cmd)`) or that writes to `/dev/tcp`/`/dev/udp` escapes the path checks; a static file target is a write effect judged by the path rules, not a finding.',
  detect(_command, split) {
    const out: Finding[] = [];
    split.commands.forEach((cmd, i) => {
      for (const r of cmd.redirects) {
        if (!OUTPUT_OPS.has(r.op) || r.op === '<>') continue;
        const why = unresolvable(r);
        if (why) {
          out.push(finding(this, `The output redirection "${r.op}" is unsafe: ${why}.`, i));
          return;
        }
      }
    });
    return out;
  },
};
