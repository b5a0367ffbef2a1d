/**
 * SHELL_METACHARACTERS (docs/architecture.md id 5), calibrated for a real parser: shell operators inside
 * quotes are data (docs/security-round-2.md), so the check fires
 * only where text becomes shell code *again* and could not be proven: a script built from variables
 * (`sh -c "$x"`, `eval "$cmd"`), file names spliced into a script (`xargs -I{} sh -c '… {} …'`,
 * `find -exec sh -c '… {} …'`), and helper command strings we do not parse (`script -c`, `runuser -c`).
 * Remote commands (`ssh host 'a; b'`) run on the host the user allowed and are not flagged here.
 */
import type { Finding } from '../../core/permission-types.js';
import type { SimpleCommand, Word } from '../types.js';
import { SHELL_NAMES, shellInvocation } from '../wrappers.js';
import { type Detector, finding, programsOf } from './detector.js';

const METACHAR = /[;&|<>`\n]|\$\(/;

function xargsReplacement(cmd: SimpleCommand): string | undefined {
  const full = cmd.fullArgv;
  for (let i = 0; i < full.length; i++) {
    const t = (full[i] as Word).text;
    if (t === '-I') return full[i + 1]?.text;
    if (t.startsWith('-I') && t.length > 2) return t.slice(2);
    if (t.startsWith('--replace=')) return t.slice('--replace='.length);
    if (t === '-i' || t === '--replace') return '{}';
    if (t.startsWith('-i') && t.length > 2) return t.slice(2);
  }
  return undefined;
}

export const SHELL_METACHARACTERS: Detector = {
  id: 'SHELL_METACHARACTERS',
  checkId: 5,
  reason:
    'Text that a second shell will interpret but that is not a static, parsed script — variables or substitutions in `sh -c`/`eval` scripts, file names spliced into `sh -c` by xargs -I or find -exec, and local helper command strings with operators (`script -c`) — can inject commands.',
  detect(_command, split) {
    const programs = programsOf(split);
    const out: Finding[] = [];
    for (const s of split.scripts ?? []) {
      if (s.dynamic && s.via !== 'stdin' && s.via !== 'file') {
        out.push(
          finding(
            this,
            `The script given to ${s.via} is built from variables or substitutions, so their contents run as shell code.`,
          ),
        );
        break;
      }
    }
    split.commands.forEach((cmd, i) => {
      const program = programs[i];
      if (!program) return;
      if (SHELL_NAMES.has(program)) {
        const inv = shellInvocation(cmd.argv);
        if (inv.kind !== 'command-string') return;
        const script = inv.word.text;
        const viaFind = cmd.wrappers.some((w) => w.startsWith('find -'));
        const repl = cmd.wrappers.includes('xargs') ? xargsReplacement(cmd) : undefined;
        if ((viaFind && script.includes('{}')) || (repl && script.includes(repl))) {
          out.push(
            finding(
              this,
              `File names are spliced into the shell script ${JSON.stringify(script.slice(0, 60))}; a name containing ; or $( ) would run as code. Pass them as arguments ("$1") instead.`,
              i,
            ),
          );
        }
        return;
      }
      if ((program === 'script' || program === 'runuser') && cmd.argv.length > 1) {
        const idx = cmd.argv.findIndex((w, k) => k > 0 && (w.text === '-c' || w.text === '--command'));
        const value = idx > 0 ? cmd.argv[idx + 1] : undefined;
        if (value && (METACHAR.test(value.text) || value.dynamic)) {
          out.push(
            finding(
              this,
              `${program} -c runs ${JSON.stringify(value.text.slice(0, 60))} through a shell.`,
              i,
            ),
          );
        }
      }
    });
    return out;
  },
};
