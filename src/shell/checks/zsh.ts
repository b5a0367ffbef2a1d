/**
 * zsh dangers (docs/architecture.md id 20 "zmodload, emulate, sysopen/sysread/syswrite, zpty, ztcp/zsocket,
 * zf_* …"; docs/security-round-2.md). Harmless names in bash, but the user's shell (and
 * the shell a wrapper starts) may be zsh.
 */
import type { Finding } from '../../core/permission-types.js';
import { type Detector, finding, programsOf } from './detector.js';

/** zsh builtins (mostly from modules) that open files, sockets or ptys, load code, or re-run history. */
export const ZSH_DANGEROUS_BUILTINS: ReadonlyMap<string, string> = new Map([
  ['zmodload', 'loads zsh modules (the gateway to the builtins below)'],
  ['emulate', 'with -c evaluates a string as code'],
  ['sysopen', 'opens files on arbitrary descriptors'],
  ['sysread', 'reads from arbitrary descriptors'],
  ['syswrite', 'writes to arbitrary descriptors'],
  ['sysseek', 'seeks arbitrary descriptors'],
  ['zpty', 'runs a command on a pseudo-terminal'],
  ['ztcp', 'opens TCP connections'],
  ['zsocket', 'opens Unix sockets'],
  ['zselect', 'waits on arbitrary descriptors'],
  ['zsystem', 'locks files and inspects the system'],
  ['zstat', 'stats files bypassing the checks on stat'],
  ['sched', 'schedules a command to run later'],
  ['fc', 're-runs commands from the history'],
  ['zcompile', 'compiles scripts that are later loaded'],
  ['zf_rm', 'a builtin rm (zsh/files) that no rm rule sees'],
  ['zf_mv', 'a builtin mv (zsh/files)'],
  ['zf_ln', 'a builtin ln (zsh/files)'],
  ['zf_mkdir', 'a builtin mkdir (zsh/files)'],
  ['zf_rmdir', 'a builtin rmdir (zsh/files)'],
  ['zf_chmod', 'a builtin chmod (zsh/files)'],
  ['zf_chown', 'a builtin chown (zsh/files)'],
  ['zf_chgrp', 'a builtin chgrp (zsh/files)'],
  ['zf_sync', 'a builtin sync (zsh/files)'],
]);

export const ZSH_DANGEROUS_COMMANDS: Detector = {
  id: 'ZSH_DANGEROUS_COMMANDS',
  checkId: 20,
  reason:
    'zsh module builtins (zmodload, sysopen/syswrite, ztcp/zsocket, zpty, zf_* file builtins) and code-evaluating builtins (emulate -c, sched, fc) do file, network or process work that no rule on ordinary programs covers.',
  detect(_command, split) {
    const programs = programsOf(split);
    const out: Finding[] = [];
    split.commands.forEach((cmd, i) => {
      const program = programs[i];
      const why =
        program && !cmd.argv[0]?.text.includes('/') ? ZSH_DANGEROUS_BUILTINS.get(program) : undefined;
      if (why) out.push(finding(this, `${program} is a zsh builtin that ${why}.`, i));
    });
    return out;
  },
};

export const ZSH_EQUALS_EXPANSION: Detector = {
  id: 'ZSH_EQUALS_EXPANSION',
  reason:
    'In zsh an unquoted word `=cmd` expands to the path of cmd (and `=(…)` to a temporary file of its output), which hides the program that runs.',
  detect(_command, split) {
    const out: Finding[] = [];
    split.commands.forEach((cmd, i) => {
      const w = cmd.argv.find((x) => /^=[A-Za-z_(]/.test(x.raw));
      if (w)
        out.push(finding(this, `The word ${JSON.stringify(w.raw.slice(0, 40))} is a zsh =cmd expansion.`, i));
    });
    return out;
  },
};
