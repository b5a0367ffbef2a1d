/**
 * Effects of git: `-C DIR` (the directory is a cwd effect and relative paths resolve in it),
 * `--output=FILE` writes, `git config` writes (`--global` → ~/.gitconfig, `--system` →
 * /etc/gitconfig, `--file F` → F, otherwise .git/config), network for push/pull/fetch/clone/
 * ls-remote/remote update/submodule update, clone writes its destination, work-tree changing
 * commands write their pathspecs or the work tree, `--no-index` diffs and `--` pathspecs of
 * read commands are reads, git rm/mv/clean delete.
 *
 * Source:  (git network, clone dest, --output, config --global, .git/config);
 * docs/security-round-2.md (git -C), "Protected files" (git --output, git config
 * --global), "Agent and VCS config".
 */
import path from 'node:path';
import { splitGitGlobal } from '../read-only/git.js';
import type { Word } from '../types.js';
import { basenameOf, type EffectHandler } from './handler.js';
import { gitExecOptions } from './git-exec-options.js';
import { gitRepository } from './git-repository.js';
import { urlHost } from './network.js';
import type { EffectSink, PathInput } from './sink.js';
import { words } from '../read-only/options.js';

const NETWORK_SUBS = new Set(['push', 'pull', 'fetch', 'clone', 'ls-remote', 'send-email', 'request-pull']);
const WORKTREE_WRITERS = new Set([
  ...words('checkout switch restore reset merge rebase pull cherry-pick revert am apply stash clean rm mv'),
  ...words('add commit init worktree submodule sparse-checkout'),
]);
const READ_SUBS = new Set([
  ...words('log diff show blame annotate shortlog whatchanged grep ls-files status'),
]);

function remoteHost(sink: EffectSink, w: Word | undefined, sub: string): void {
  if (!w) {
    sink.other('network', 'default remote', 'known', 'argument', `git ${sub}`);
    return;
  }
  if (w.dynamic) {
    sink.other('network', w.raw, 'unknown', 'argument', `git ${sub}`);
    return;
  }
  const helper = /^([A-Za-z][A-Za-z0-9+.-]*)::/.exec(w.text)?.[1];
  if (helper !== undefined) {
    // `<transport>::<address>` runs the remote helper git-remote-<transport>; the ext helper runs
    // the command written in the address (gitremote-helpers(7), git-remote-ext(1)).
    if (helper === 'ext')
      sink.other(
        'exec',
        w.text,
        'unknown',
        'argument',
        `git ${sub}: the ext transport runs the command in the URL`,
      );
    else sink.other('exec', `git-remote-${helper}`, 'known', 'argument', `git ${sub} runs a remote helper`);
    sink.other('network', w.text, 'unknown', 'argument', `git ${sub} through a remote helper`);
    return;
  }
  const u = urlHost(w.text);
  if (u.file !== undefined) {
    sink.literal('read', u.file, 'argument', `git ${sub} file:// remote`);
    return;
  }
  if (u.host) sink.other('network', u.host, 'known', 'argument', `git ${sub}`);
  else if (/^[^/:]+:/.test(w.text) && !w.text.startsWith('/'))
    sink.other(
      'network',
      w.text.split(':')[0]?.replace(/^.*@/, '') ?? w.text,
      'known',
      'argument',
      `git ${sub}`,
    );
  else if (w.text.startsWith('/') || w.text.startsWith('.') || w.text.startsWith('~'))
    sink.file('read', w, 'argument', `git ${sub} local remote`);
  else sink.other('network', `remote ${w.text}`, 'known', 'argument', `git ${sub}`);
}

/** Non-option words after the sub-command (a cheap split; `--` ends options). */
function splitSubArgs(
  args: readonly Word[],
  sub?: string,
): { opts: Word[]; operands: Word[]; pathspecs: Word[] } {
  const opts: Word[] = [];
  const ops: Word[] = [];
  const pathspecs: Word[] = [];
  const valued = (sub && VALUED_SUBS.has(sub) && valuedSubOptionTable().get(sub)) || undefined;
  let afterDashDash = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i] as Word;
    if (afterDashDash) pathspecs.push(w);
    else if (w.text === '--') afterDashDash = true;
    else if (w.text.startsWith('-') && w.text !== '-') {
      opts.push(w);
      if (valued?.has(w.text) && args[i + 1]) opts.push(args[++i] as Word);
    } else ops.push(w);
  }
  return { opts, operands: ops, pathspecs };
}

/** The sub-commands valuedSubOptionTable has options for (the table is built for the first of them). */
const VALUED_SUBS = new Set(['clone', 'fetch', 'pull', 'push']);
let valuedSubOptions: ReadonlyMap<string, ReadonlySet<string>> | undefined;
/** Options of the clone/fetch/push family whose value is the next word (so it is not an operand). */
function valuedSubOptionTable(): ReadonlyMap<string, ReadonlySet<string>> {
  valuedSubOptions ??= new Map([
    [
      'clone',
      new Set([
        '-c',
        '--config',
        '-u',
        '--upload-pack',
        '--template',
        '-b',
        '--branch',
        '-o',
        '--origin',
        '--depth',
        '--reference',
        '--reference-if-able',
        '--separate-git-dir',
        '-j',
        '--jobs',
        '--filter',
        '--shallow-since',
        '--shallow-exclude',
        '--server-option',
        '--bundle-uri',
      ]),
    ],
    [
      'fetch',
      new Set([
        '--upload-pack',
        '--depth',
        '--deepen',
        '--shallow-since',
        '--shallow-exclude',
        '-j',
        '--jobs',
        '--filter',
        '-o',
        '--server-option',
        '--negotiation-tip',
      ]),
    ],
    [
      'pull',
      new Set([
        '--upload-pack',
        '--depth',
        '--deepen',
        '--shallow-since',
        '--shallow-exclude',
        '-j',
        '--jobs',
        '-s',
        '--strategy',
        '-X',
        '--strategy-option',
        '-o',
        '--server-option',
      ]),
    ],
    ['push', new Set(['--receive-pack', '--exec', '--repo', '-o', '--push-option', '--signed'])],
  ]);
  return valuedSubOptions;
}

/**
 * `git commit -F/--file FILE` and `-t/--template FILE` (also `tag`/`merge -F`) read FILE into the
 * message (`-` is stdin). Red-team K-1035, K-1036, K-273.
 */
function messageFileEffects(sub: string, rest: readonly Word[], sink: EffectSink): void {
  const long = sub === 'commit' ? /^--(file|template)=(.*)$/s : /^--(file)=(.*)$/s;
  const short = sub === 'commit' ? /^-(F|t)$/ : /^-(F)$/;
  for (const [k, w] of rest.entries()) {
    const t = w.text;
    if (t === '--') break;
    const m = long.exec(t);
    let value: PathInput | undefined;
    if (m) value = { ...w, text: m[2] as string, raw: m[2] as string };
    else if ((short.test(t) || t === '--file' || (sub === 'commit' && t === '--template')) && rest[k + 1])
      value = rest[k + 1];
    else if (/^-F./s.test(t) || (sub === 'commit' && /^-t./s.test(t)))
      value = { ...w, text: t.slice(2), raw: t.slice(2) };
    if (value && value.text !== '-') sink.file('read', value, 'flag', `git ${sub} message file`);
  }
}

/** `git config` writes: which file a set/unset/edit changes. */
function configEffects(sink: EffectSink, args: readonly Word[]): void {
  const texts = args.map((w) => w.text);
  const isRead =
    texts.some(
      (t) => /^--(get|get-all|get-regexp|get-urlmatch|get-color|get-colorbool|list)$/.test(t) || t === '-l',
    ) ||
    texts.find((t) => !t.startsWith('-')) === 'get' ||
    texts.find((t) => !t.startsWith('-')) === 'list';
  const fileIdx = texts.findIndex((t) => t === '-f' || t === '--file' || t.startsWith('--file='));
  let file: Word | { text: string } | undefined;
  if (fileIdx >= 0) {
    const t = texts[fileIdx] as string;
    file = t.startsWith('--file=') ? { text: t.slice('--file='.length) } : args[fileIdx + 1];
  }
  const target = file
    ? file
    : texts.includes('--global')
      ? { text: '~/.gitconfig' }
      : texts.includes('--system')
        ? { text: '/etc/gitconfig' }
        : { text: '.git/config' };
  const nonOpts = texts.filter((t, i) => !t.startsWith('-') && !(fileIdx >= 0 && i === fileIdx + 1));
  const sets =
    !isRead &&
    (nonOpts.length >= 2 ||
      texts.some(
        (t) =>
          /^--(add|replace-all|unset|unset-all|rename-section|remove-section|edit)$/.test(t) || t === '-e',
      ));
  if (sets) sink.file('write', target, 'argument', 'git config (sets a value)');
  else sink.file('read', target, 'argument', 'git config (reads)');
}

/** Options of `git worktree add` that take a value. */
const WORKTREE_VALUED = new Set(['-b', '-B', '--reason', '--orphan']);

/**
 * `git worktree add [opts] PATH [COMMIT]` writes PATH (a new checkout); `move WT NEW` writes NEW
 * and deletes WT; `remove WT` deletes WT; `list`/`prune`/`lock` change only `.git`.
 */
function worktreeEffects(rest: readonly Word[], sink: EffectSink): void {
  const action = rest[0]?.text;
  const ops: Word[] = [];
  for (let i = 1; i < rest.length; i++) {
    const w = rest[i] as Word;
    if (WORKTREE_VALUED.has(w.text)) i++;
    else if (!w.text.startsWith('-')) ops.push(w);
  }
  if (action === 'add') {
    if (ops[0]) sink.file('write', ops[0], 'argument', 'git worktree add (a new checkout)');
    else sink.other('write', 'new worktree', 'unknown', 'argument', 'git worktree add');
  } else if (action === 'move') {
    if (ops[0]) sink.file('delete', ops[0], 'argument', 'git worktree move');
    if (ops[1]) sink.file('write', ops[1], 'argument', 'git worktree move');
  } else if (action === 'remove') {
    for (const w of ops) sink.file('delete', w, 'argument', 'git worktree remove');
  }
}

export const gitHandler: EffectHandler = (args, sink, cmd) => {
  const g = splitGitGlobal(args);
  for (const d of g.chdirs) {
    sink.file('read', d, 'cwd', 'git -C');
    if (d.dynamic) sink.cwd = undefined;
    else {
      const abs = sink.absolute(d.text);
      sink.cwd = abs;
    }
  }
  sink.gitRepository = gitRepository(args, g.subIndex, sink, cmd, g.chdirs.length > 0);
  gitExecOptions(args, g.subIndex, sink);
  for (const w of args.slice(0, g.subIndex < 0 ? args.length : g.subIndex)) {
    const m = /^--(git-dir|work-tree)=(.*)$/.exec(w.text);
    if (m) sink.file('read', { ...w, text: m[2] as string, raw: m[2] as string }, 'flag', `git --${m[1]}`);
    if (w.text.startsWith('--exec-path='))
      sink.other('exec', w.text.slice(12), 'unknown', 'flag', 'git --exec-path');
  }
  if (g.subIndex < 0) return;
  const subWord = args[g.subIndex] as Word;
  const sub = subWord.text;
  const rest = args.slice(g.subIndex + 1);
  const { opts, operands, pathspecs } = splitSubArgs(rest, sub);
  for (const [k, w] of rest.entries()) {
    const m = /^--output=(.*)$/s.exec(w.text);
    if (m)
      sink.file('write', { ...w, text: m[1] as string, raw: m[1] as string }, 'flag', `git ${sub} --output`);
    else if (w.text === '--output' && rest[k + 1])
      sink.file('write', rest[k + 1] as Word, 'flag', `git ${sub} --output`);
  }
  for (const [k, w] of rest.entries()) {
    const t = w.text;
    const next = rest[k + 1];
    // Option values that name files git reads or writes.
    const read =
      /^--(contents|ignore-revs-file|exclude-from|orderfile|from-file|stdin-paths-file)=(.*)$/s.exec(t);
    if (read)
      sink.file(
        'read',
        { ...w, text: read[2] as string, raw: read[2] as string },
        'flag',
        `git ${sub} --${read[1]}`,
      );
    else if (/^--(contents|ignore-revs-file|exclude-from)$/.test(t) && next)
      sink.file('read', next, 'flag', `git ${sub} ${t}`);
    else if (/^-O.+/.test(t) && sub !== 'grep')
      sink.literal('read', t.slice(2), 'flag', `git ${sub} -O orderfile`);
    const out = /^--output-directory=(.*)$/s.exec(t);
    if (out)
      sink.file(
        'write',
        { ...w, text: out[1] as string, raw: out[1] as string },
        'flag',
        `git ${sub} --output-directory`,
      );
    else if (
      (t === '-o' || t === '--output-directory') &&
      next &&
      (sub === 'archive' || sub === 'format-patch')
    )
      sink.file('write', next, 'flag', `git ${sub} ${t}`);
  }
  if (sub === 'commit' || sub === 'tag' || sub === 'merge') messageFileEffects(sub, rest, sink);
  if (sub === 'bundle' && operands[0]?.text === 'create' && operands[1])
    sink.file('write', operands[1], 'argument', 'git bundle create');
  if (sub === 'config') {
    configEffects(sink, rest);
    return;
  }
  if (
    NETWORK_SUBS.has(sub) ||
    (sub === 'remote' &&
      (operands[0]?.text === 'update' ||
        // `git remote show -n` reads the local config only (no query of the remote).
        (operands[0]?.text === 'show' && !opts.some((o) => o.text === '-n')))) ||
    (sub === 'submodule' && operands[0]?.text === 'update')
  ) {
    remoteHost(sink, sub === 'remote' || sub === 'submodule' ? operands[1] : operands[0], sub);
  }
  if (sub === 'clone') {
    const url = operands[0];
    const dest = operands[1];
    if (dest) sink.file('write', dest, 'argument', 'git clone destination');
    else if (url && !url.dynamic)
      sink.literal(
        'write',
        basenameOf(url.text).replace(/\.git$/, '') || 'repo',
        'argument',
        'git clone destination',
      );
    else sink.other('write', 'clone destination', 'unknown', 'argument', 'git clone');
    return;
  }
  if (sub === 'init') {
    const dir = operands[0];
    sink.file(
      'write',
      dir ? { ...dir, text: path.join(dir.text, '.git'), raw: `${dir.raw}/.git` } : { text: '.git' },
      'argument',
      'git init',
    );
    return;
  }
  if (sub === 'rm' || sub === 'clean') {
    const targets = [...operands, ...pathspecs];
    if (targets.length) for (const w of targets) sink.file('delete', w, 'argument', `git ${sub}`);
    else sink.literal('delete', '.', 'argument', `git ${sub} (untracked files below)`);
    return;
  }
  if (sub === 'mv') {
    const last = operands[operands.length - 1];
    for (const w of operands.slice(0, -1)) {
      sink.file('delete', w, 'argument', 'git mv');
      sink.file('read', w, 'argument', 'git mv');
    }
    if (last) sink.file('write', last, 'argument', 'git mv');
    return;
  }
  if (sub === 'worktree') {
    worktreeEffects(rest, sink);
    return;
  }
  if (sub === 'apply' || sub === 'am')
    for (const w of operands) sink.file('read', w, 'argument', `git ${sub} patch`);
  if ((sub === 'checkout' || sub === 'restore') && pathspecs.length) {
    for (const w of pathspecs) sink.file('write', w, 'argument', `git ${sub} -- paths`);
    return;
  }
  if (sub === 'restore') {
    for (const w of operands) sink.file('write', w, 'argument', 'git restore');
    return;
  }
  if (
    WORKTREE_WRITERS.has(sub) &&
    sub !== 'add' &&
    sub !== 'commit' &&
    sub !== 'worktree' &&
    sub !== 'submodule'
  ) {
    if (!(sub === 'stash' && ['list', 'show'].includes(operands[0]?.text ?? '')))
      sink.literal('write', '.', 'argument', `git ${sub} rewrites tracked files`);
  }
  if (READ_SUBS.has(sub) || sub === 'diff') {
    const noIndex = opts.some((w) => w.text === '--no-index');
    const reads = noIndex ? [...operands, ...pathspecs] : pathspecs;
    for (const w of reads) sink.file('read', w, 'argument', `git ${sub}`);
    if (sub === 'blame' && operands.length)
      sink.file('read', operands[operands.length - 1] as Word, 'argument', 'git blame');
  }
};
