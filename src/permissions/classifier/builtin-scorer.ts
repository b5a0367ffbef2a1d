/**
 * The built-in auto-mode scorer: deterministic, local, microseconds. It scores what the pipeline
 * would have asked about from the analysis features (findings, programs, flags) and effects
 * (kinds, paths against the working directories, hosts):
 *
 * - HIGH: writes or deletions outside the working directories; privilege or system programs
 *   (`sudo`, `dd`, `mkfs`, `crontab`, `iptables`, …); a download piped into an interpreter;
 *   force-pushes and history rewrites; remote shells (`ssh`, `scp`); obfuscation/injection findings.
 * - MEDIUM: any other finding; network access; unknown effects; reads outside the working
 *   directories; package installs (supply chain); pushes; interpreters running inline code; any
 *   program the scorer does not know.
 * - LOW: known development commands whose every effect stays inside the working directories
 *   (builds, tests, linters, formatters, local git, file management in the project).
 */
import path from 'node:path';
import { isInsideAny } from '../../core/paths.js';
import type { SubcommandInfo } from '../../core/permission-types.js';
import { isMcpToolName } from '../../core/mcp-names.js';
import { traitsOf } from '../../core/tool-traits.js';
import type { AutoModeClassifier, ClassifierRequest, ClassifierVerdict, RiskLevel } from './types.js';

const HIGH_PROGRAMS = new Set([
  'sudo',
  'su',
  'doas',
  'pkexec',
  'dd',
  'mkfs',
  'fdisk',
  'parted',
  'shutdown',
  'reboot',
  'halt',
  'poweroff',
  'crontab',
  'iptables',
  'ip6tables',
  'nft',
  'ufw',
  'systemctl',
  'launchctl',
  'chown',
  'chattr',
  'ssh',
  'scp',
  'sftp',
  'nc',
  'ncat',
  'netcat',
  'socat',
  'telnet',
  'useradd',
  'usermod',
  'passwd',
  'visudo',
  'mount',
  'umount',
  'kill',
  'killall',
  'pkill',
]);
const INTERPRETERS = new Set([
  'sh',
  'bash',
  'zsh',
  'dash',
  'fish',
  'python',
  'python3',
  'node',
  'perl',
  'ruby',
  'php',
  'lua',
  'deno',
  'bun',
]);
const NETWORK_PROGRAMS = new Set(['curl', 'wget', 'http', 'https', 'aria2c', 'ftp']);
const LOW_PROGRAMS = new Set([
  'ls',
  'cat',
  'head',
  'tail',
  'grep',
  'rg',
  'find',
  'wc',
  'sort',
  'uniq',
  'cut',
  'tr',
  'diff',
  'echo',
  'printf',
  'pwd',
  'cd',
  'mkdir',
  'touch',
  'cp',
  'mv',
  'rm',
  'rmdir',
  'ln',
  'sed',
  'awk',
  'jq',
  'tee',
  'test',
  'true',
  'false',
  'sleep',
  'date',
  'make',
  'cmake',
  'ninja',
  'tsc',
  'eslint',
  'prettier',
  'biome',
  'vitest',
  'jest',
  'mocha',
  'pytest',
  'ruff',
  'black',
  'mypy',
  'go',
  'cargo',
  'rustc',
  'gcc',
  'g++',
  'clang',
  'javac',
  'mvn',
  'gradle',
  'dotnet',
  'tar',
  'gzip',
  'gunzip',
  'zip',
  'unzip',
  'git',
  'npm',
  'pnpm',
  'yarn',
  'npx',
  'node',
  'python',
  'python3',
  'chmod',
  'basename',
  'dirname',
  'realpath',
  'xargs',
]);
const FINDING_HIGH =
  /IFS|OBFUSCAT|UNICODE|CONTROL|BIDI|ESCAPE|PROC_ENVIRON|ZSH|EVAL|MALFORMED|DESYNC|EXEC|INTERPRETER/i;

function bump(current: RiskLevel, to: RiskLevel): RiskLevel {
  const order: RiskLevel[] = ['LOW', 'MEDIUM', 'HIGH'];
  return order.indexOf(to) > order.indexOf(current) ? to : current;
}

function scoreSubcommand(
  sub: SubcommandInfo,
  hasNetwork: boolean,
  raise: (r: RiskLevel, why: string) => void,
): void {
  const prog = path.posix.basename(sub.program);
  const args = sub.argv.slice(1);
  if (sub.dynamicProgram) raise('HIGH', `the program of "${sub.text}" is computed at run time`);
  if (HIGH_PROGRAMS.has(prog) || sub.wrappers.some((w) => HIGH_PROGRAMS.has(path.posix.basename(w))))
    raise('HIGH', `${prog} changes the system or reaches other machines`);
  if (INTERPRETERS.has(prog)) {
    if (sub.via.includes('pipe') && hasNetwork) raise('HIGH', `downloaded content is piped into ${prog}`);
    else if (args.some((a) => a === '-c' || a === '-e' || a === '--eval'))
      raise('MEDIUM', `${prog} runs inline code`);
  }
  if (prog === 'git') {
    const sub1 = args.find((a) => !a.startsWith('-'));
    if (sub1 === 'push' && args.some((a) => a === '-f' || a.startsWith('--force')))
      raise('HIGH', 'force-push rewrites remote history');
    else if (sub1 === 'push') raise('MEDIUM', 'git push publishes commits');
    if (sub1 === 'reset' && args.includes('--hard')) raise('MEDIUM', 'git reset --hard discards work');
    if (sub1 === 'clean' && args.some((a) => /^-[a-z]*f/.test(a)))
      raise('MEDIUM', 'git clean deletes untracked files');
  }
  if (['npm', 'pnpm', 'yarn', 'pip', 'pip3', 'gem', 'cargo', 'go', 'brew', 'apt', 'apt-get'].includes(prog)) {
    const verb = args.find((a) => !a.startsWith('-'));
    if (verb && ['install', 'i', 'add', 'publish', 'get', 'update', 'upgrade'].includes(verb))
      raise('MEDIUM', `${prog} ${verb} fetches or publishes packages`);
  }
  if (NETWORK_PROGRAMS.has(prog)) raise('MEDIUM', `${prog} accesses the network`);
  if (!LOW_PROGRAMS.has(prog) && !sub.readOnly) raise('MEDIUM', `${prog} is not a program the scorer knows`);
}

/** Scores one request (see module doc). Pure and synchronous. */
export function scoreRisk(req: ClassifierRequest): ClassifierVerdict {
  let risk: RiskLevel = 'LOW';
  const reasons: { level: RiskLevel; why: string }[] = [];
  const raise = (level: RiskLevel, why: string): void => {
    risk = bump(risk, level);
    reasons.push({ level, why });
  };
  const d = req.description;
  const dirs = req.workingDirectories;
  for (const f of d.findings) raise(FINDING_HIGH.test(f.id) ? 'HIGH' : 'MEDIUM', `${f.message} [${f.id}]`);
  const hasNetwork = d.effects.some((e) => e.kind === 'network');
  for (const e of d.effects) {
    if (e.certainty === 'unknown') {
      raise(
        e.kind === 'write' || e.kind === 'delete' || e.kind === 'exec' ? 'HIGH' : 'MEDIUM',
        `unresolved ${e.kind} target ${e.target}`,
      );
      continue;
    }
    if (e.kind === 'network') raise('MEDIUM', `network access to ${e.target}`);
    if (e.kind === 'read' || e.kind === 'write' || e.kind === 'delete') {
      const p = path.resolve(req.cwd, e.target);
      if (isInsideAny(p, dirs) || p.startsWith('/dev/')) continue;
      raise(e.kind === 'read' ? 'MEDIUM' : 'HIGH', `${e.kind} outside the working directories: ${p}`);
    }
  }
  for (const sub of d.subcommands ?? []) scoreSubcommand(sub, hasNetwork, raise);
  if (
    !d.subcommands?.length &&
    !d.effects.length &&
    !d.readOnly &&
    (req.isMcp === true || !traitsOf(req.toolName))
  )
    raise(
      'MEDIUM',
      req.isMcp === true || isMcpToolName(req.toolName)
        ? `${req.toolName} is an MCP tool with no declared effects`
        : `${req.toolName} is a tool Gantry does not know, with no declared effects`,
    );
  if (req.askReason.type === 'working-directory' && risk === 'LOW') raise('MEDIUM', req.askReason.message);
  if (req.askReason.type === 'check' && risk === 'LOW') raise('MEDIUM', req.askReason.message);
  const order: RiskLevel[] = ['HIGH', 'MEDIUM', 'LOW'];
  reasons.sort((a, b) => order.indexOf(a.level) - order.indexOf(b.level));
  return {
    risk,
    reasons: reasons.length
      ? reasons.map((r) => r.why)
      : ['every effect stays inside the working directories'],
  };
}

/** The built-in scorer as an `AutoModeClassifier`. */
export const builtinClassifier: AutoModeClassifier = { name: 'builtin-scorer', classify: scoreRisk };
