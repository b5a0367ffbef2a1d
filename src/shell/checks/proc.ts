/**
 * PROC_ENVIRON_ACCESS (docs/architecture.md id 13; docs/security-round-2.md "/proc/<pid>/environ (and cmdline,
 * `maps`)"): process memory, environment (API keys) and command lines of this or other processes.
 */
import type { Finding } from '../../core/permission-types.js';
import type { SimpleCommand } from '../types.js';
import { type Detector, finding, programsOf } from './detector.js';

const PROC_SENSITIVE =
  /\/proc\/[^/\s]+\/(?:task\/[^/\s]+\/)?(environ|cmdline|maps|smaps|mem|auxv|stack|syscall|pagemap)(?![A-Za-z0-9_])/;
const PROC_PID_DIR = /^\/proc\/[^/]+\/?$/;

/** The first of the command's words, redirection targets and assigned values that names a sensitive /proc file. */
function firstSensitive(cmd: SimpleCommand): string | undefined {
  for (const w of cmd.argv) if (PROC_SENSITIVE.test(w.text)) return w.text;
  for (const r of cmd.redirects) if (PROC_SENSITIVE.test(r.target.text)) return r.target.text;
  for (const a of cmd.assignments) if (PROC_SENSITIVE.test(a.value)) return a.value;
  return undefined;
}

export const PROC_ENVIRON_ACCESS: Detector = {
  id: 'PROC_ENVIRON_ACCESS',
  checkId: 13,
  reason:
    '`/proc/<pid>/environ`, `cmdline`, `maps`, `mem` … expose the environment (tokens, keys) and memory of this or other processes; reading them is exfiltration even through an allowed reader.',
  detect(command, split) {
    const programs = programsOf(split);
    const out: Finding[] = [];
    split.commands.forEach((cmd, i) => {
      const hit = firstSensitive(cmd);
      if (hit) {
        out.push(finding(this, `The command accesses ${JSON.stringify(hit.slice(0, 60))}.`, i));
        return;
      }
      const program = programs[i];
      if ((program === 'cd' || program === 'pushd') && cmd.argv.some((w) => PROC_PID_DIR.test(w.text))) {
        out.push(finding(this, 'The command changes into a /proc/<pid> directory.', i));
      }
    });
    if (out.length === 0) {
      const m = PROC_SENSITIVE.exec(command);
      if (m) out.push(finding(this, `The command mentions ${JSON.stringify(m[0])}.`));
    }
    return out;
  },
};
