/**
 * jq checks (docs/architecture.md ids 2–3; docs/security-round-2.md read-only list: "jq `env`, `$ENV`, `system`,
 * `--rawfile`, `--slurpfile`, `-L`"). The filter is the first operand unless `-f` gives a file.
 */
import type { Finding } from '../../core/permission-types.js';
import type { SimpleCommand, SplitResult, Word } from '../types.js';
import { type Detector, finding, programsOf } from './detector.js';

interface JqArgs {
  filter?: Word;
  fileOptions: string[];
}

const TWO_VALUES = new Set(['--arg', '--argjson', '--slurpfile', '--rawfile']);
const ONE_VALUE = new Set(['--indent', '--from-file', '-f', '-L', '--library-path']);
const FILE_OPTIONS = new Set(['--slurpfile', '--rawfile', '--from-file', '-f', '-L', '--library-path']);

function readJq(cmd: SimpleCommand): JqArgs {
  const out: JqArgs = { fileOptions: [] };
  const argv = cmd.argv;
  let operandsOnly = false;
  for (let i = 1; i < argv.length; i++) {
    const t = (argv[i] as Word).text;
    if (!operandsOnly && t === '--') {
      operandsOnly = true;
      continue;
    }
    if (!operandsOnly && t.startsWith('--')) {
      const name = t.split('=')[0] as string;
      if (FILE_OPTIONS.has(name)) out.fileOptions.push(name);
      if (TWO_VALUES.has(name)) i += 2;
      else if (ONE_VALUE.has(name) && !t.includes('=')) i += 1;
      if (name === '--args' || name === '--jsonargs') operandsOnly = out.filter !== undefined;
      continue;
    }
    if (!operandsOnly && t.startsWith('-') && t.length > 1) {
      // Bundled short options: `-rf FILE`, `-L/dir`, `-Ldir`.
      for (let k = 1; k < t.length; k++) {
        const c = t[k] as string;
        if (c === 'f' || c === 'L') {
          out.fileOptions.push(`-${c}`);
          if (k === t.length - 1) i += 1;
          break;
        }
      }
      continue;
    }
    if (!out.filter && !out.fileOptions.includes('-f') && !out.fileOptions.includes('--from-file'))
      out.filter = argv[i];
  }
  return out;
}

function jqCommands(split: SplitResult): Array<[SimpleCommand, number]> {
  const out: Array<[SimpleCommand, number]> = [];
  const programs = programsOf(split);
  for (let i = 0; i < programs.length; i++) {
    const p = programs[i];
    if (p === 'jq' || p === 'gojq' || p === 'jaq') out.push([split.commands[i] as SimpleCommand, i]);
  }
  return out;
}

export const JQ_SYSTEM_FUNCTION: Detector = {
  id: 'JQ_SYSTEM_FUNCTION',
  checkId: 2,
  reason:
    'A jq filter that calls `system` (jq forks and variants) runs a shell command from inside an allowed jq.',
  detect(_command, split) {
    const out: Finding[] = [];
    for (const [cmd, i] of jqCommands(split)) {
      const filter = readJq(cmd).filter;
      if (filter && /(^|[^A-Za-z0-9_$.])system\s*(\(|$|[|;,)])/.test(filter.text)) {
        out.push(finding(this, 'The jq filter calls system, which runs a shell command.', i));
      }
    }
    return out;
  },
};

export const JQ_FILE_ARGUMENTS: Detector = {
  id: 'JQ_FILE_ARGUMENTS',
  checkId: 3,
  reason:
    'jq options that read programs or data from files (`-f/--from-file`, `--rawfile`, `--slurpfile`, `-L/--library-path`, `import`/`include`) load content the rule never saw.',
  detect(_command, split) {
    const out: Finding[] = [];
    for (const [cmd, i] of jqCommands(split)) {
      const args = readJq(cmd);
      if (args.fileOptions.length > 0) {
        out.push(finding(this, `jq ${args.fileOptions[0]} reads a program or data from a file.`, i));
      } else if (args.filter && /(^|[;\s])(import|include)\s+"/.test(args.filter.text)) {
        out.push(finding(this, 'The jq filter imports a module from a file.', i));
      }
    }
    return out;
  },
};
