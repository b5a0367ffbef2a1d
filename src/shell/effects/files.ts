/**
 * Effects of file-manipulating programs: cp, mv, install (read sources, write destination —
 * `dest/basename` when the destination is a directory), rm/rmdir/unlink/shred (delete),
 * touch/mkdir/truncate/mkfifo/chmod/chown/chgrp (write), ln (writes the link path; reads the
 * target), tee (writes), dd (`if=` read, `of=` write).
 *
 * Source: docs/architecture.md (cp a b reads a, writes b; rm deletes), docs/security-round-2.md
 * (write vectors: tee, cp, mv, install, ln, dd of=).
 */
import path from 'node:path';
import type { Word } from '../types.js';
import {
  basenameOf,
  type EffectHandler,
  hasUnknown,
  joinPath,
  operands,
  options,
  scanner,
  valueInput,
} from './handler.js';
import type { EffectSink, PathInput } from './sink.js';
import { words } from '../read-only/options.js';

const CP_SCAN = scanner(() => ({
  safe: [
    ...'abdfiHlLnPpRrsTuvxZ'.split('').map((c) => `-${c}`),
    ...words('-S= -t= --archive --attributes-only --backup=? --copy-contents --debug --force'),
    ...words('--interactive --link --dereference --no-clobber --no-dereference --preserve=?'),
    ...words('--no-preserve= --parents --recursive --reflink=? --remove-destination --sparse='),
    ...words('--strip-trailing-slashes --symbolic-link --suffix= --target-directory='),
    ...words('--no-target-directory --update=? --verbose --one-file-system --context=? --exchange'),
    ...words('--no-copy --keep-directory-symlink'),
  ],
}));

const INSTALL_SCAN = scanner(() => ({
  safe: [
    ...'bcCdDpsTvZ'.split('').map((c) => `-${c}`),
    ...words('-g= -m= -o= -S= -t= --backup=? --compare --directory --group= --mode= --owner='),
    ...words('--preserve-timestamps --strip --strip-program= --suffix= --target-directory='),
    ...words('--no-target-directory --verbose --preserve-context --context=? --debug'),
  ],
}));

/** Destination writes for copy-like programs: `dest/basename(src)` when dest is (or must be) a directory. */
function copyLike(
  verb: 'cp' | 'mv' | 'install',
  args: readonly Word[],
  sink: EffectSink,
  scan: (a: readonly Word[]) => import('../read-only/options.js').ArgItem[],
): void {
  const items = scan(args);
  const certaintyNote = hasUnknown(items) ? ' (an option was not understood)' : '';
  const detail = `${verb}${certaintyNote}`;
  const ops = operands(items);
  const targetDirOpt = options(items, '-t', '--target-directory')[0];
  const noTargetDir = options(items, '-T', '--no-target-directory').length > 0;
  if (verb === 'install' && options(items, '-d', '--directory').length > 0) {
    for (const w of ops) sink.file('write', w, 'argument', 'install -d');
    return;
  }
  let sources: Word[];
  let dir: PathInput | undefined;
  let dest: PathInput | undefined;
  if (targetDirOpt) {
    sources = ops;
    dir = valueInput(targetDirOpt, args);
  } else {
    sources = ops.slice(0, -1);
    const last = ops[ops.length - 1];
    if (!last) return;
    if (sources.length === 0) {
      // `cp file` alone is an error; `mv x` too. Nothing is written.
      sink.file('read', last, 'argument', detail);
      return;
    }
    // One source: the destination is a directory when it exists as one (`cp x ~` writes ~/x).
    // When that cannot be told, both names are written.
    const isDir = noTargetDir ? false : sources.length > 1 ? true : sink.isDirectory(last);
    if (isDir !== false) dir = last;
    if (isDir !== true) dest = last;
  }
  // A source given twice (the same Word, as brace expansion hands out) has the same effects twice.
  const distinct = new Set(sources);
  for (const s of distinct) {
    sink.file('read', s, 'argument', detail);
    if (verb === 'mv') sink.file('delete', s, 'argument', detail);
  }
  if (dest) sink.file('write', dest, 'argument', detail);
  if (dir) {
    for (const s of distinct) {
      if (s.dynamic)
        sink.file(
          'write',
          { ...dir, text: `${dir.text}/$SRC`, raw: `${dir.raw ?? dir.text}/${s.raw}`, dynamic: true },
          'argument',
          detail,
        );
      else if (contentsOnly(s)) contentsWrite(sink, dir, s, detail);
      else sink.file('write', joinPath(dir, basenameOf(s.text)), 'argument', detail);
    }
  }
}

/** `cp -r src/. dst`: the names written are those inside `src`, directly in `dst`. */
function contentsOnly(source: Word): boolean {
  return !source.dynamic && /(^|\/)\.\/*$/.test(source.text);
}

/** An unknown write of every name a directory's contents may have, directly in `dir`. */
export function contentsWrite(sink: EffectSink, dir: PathInput, source: Word, detail: string): void {
  const base = dir.dynamic ? undefined : sink.absolute(dir.text);
  sink.other(
    'write',
    `${base ?? dir.raw ?? dir.text}/*`,
    'unknown',
    'argument',
    `${detail} (the contents of ${source.text}: names not known)`,
  );
}

const RM_SCAN = scanner(() => ({
  safe: [
    ...words('-f -i -I -r -R -d -v --force --interactive=? --one-file-system --no-preserve-root'),
    ...words('--preserve-root=? --recursive --dir --verbose'),
  ],
}));

function deleteOperands(
  detail: string,
  scan: (a: readonly Word[]) => import('../read-only/options.js').ArgItem[],
): EffectHandler {
  return (args, sink) => {
    for (const w of operands(scan(args))) sink.file('delete', w, 'argument', detail);
  };
}

function writeOperands(
  detail: string,
  scan: (a: readonly Word[]) => import('../read-only/options.js').ArgItem[],
  skipFirst = false,
): EffectHandler {
  return (args, sink) => {
    const items = scan(args);
    const ops = operands(items);
    for (const w of skipFirst ? ops.slice(1) : ops) sink.file('write', w, 'argument', detail);
    for (const ref of options(items, '-r', '--reference'))
      sink.file('read', valueInput(ref, args), 'flag', `${detail} --reference`);
  };
}

const TOUCH_SCAN = scanner(() => ({
  safe: [...words('-a -c -f -h -m -d= -r= -t= --no-create --date= --no-dereference --reference= --time=')],
}));
const MKDIR_SCAN = scanner(() => ({
  safe: ['-p', '-v', '-m=', '-Z', '--mode=', '--parents', '--verbose', '--context=?'],
}));
const TRUNCATE_SCAN = scanner(() => ({
  safe: ['-c', '-o', '-r=', '-s=', '--no-create', '--io-blocks', '--reference=', '--size='],
}));
const RMDIR_SCAN = scanner(() => ({
  safe: ['-p', '-v', '--parents', '--verbose', '--ignore-fail-on-non-empty'],
}));
const SHRED_SCAN = scanner(() => ({
  safe: [
    ...words('-f -n= -s= -u -v -x -z --force --iterations= --random-source= --size= --remove=? --verbose'),
    ...words('--exact --zero'),
  ],
}));
const CHMOD_SCAN = scanner(() => ({
  safe: [
    ...words('-c -f -v -R -h -H -L -P --changes --silent --quiet --verbose --recursive --no-dereference'),
    ...words('--dereference --reference= --preserve-root --no-preserve-root --from='),
  ],
}));
const TEE_SCAN = scanner(() => ({
  safe: ['-a', '-i', '-p', '--append', '--ignore-interrupts', '--output-error=?'],
}));
const LN_SCAN = scanner(() => ({
  safe: [
    ...'bdfFinLPrsTv'.split('').map((c) => `-${c}`),
    ...words('-S= -t= --backup=? --directory --force --interactive --logical --no-dereference --physical'),
    ...words('--relative --symbolic --suffix= --target-directory= --no-target-directory --verbose'),
  ],
}));

/** chmod accepts modes that look like options (`chmod -x f`): treat `-[rwxXstugo]+` words as operands. */
const chmodHandler: EffectHandler = (args, sink) => {
  const normalized = args.map((w) => (/^-[rwxXst]+$/.test(w.text) ? { ...w, text: `=${w.text}` } : w));
  const items = CHMOD_SCAN(normalized);
  const hasRef = options(items, '--reference').length > 0;
  const ops = operands(items);
  for (const w of hasRef ? ops : ops.slice(1))
    sink.file('write', w, 'argument', 'chmod/chown (metadata change)');
};

/** ln: writes the link path; a symlink's target is read through it later (reported as a read). */
const lnHandler: EffectHandler = (args, sink) => {
  const items = LN_SCAN(args);
  const ops = operands(items);
  const symbolic = options(items, '-s', '--symbolic').length > 0;
  const targetDirOpt = options(items, '-t', '--target-directory')[0];
  const pairs: [Word, PathInput][] = [];
  if (targetDirOpt) {
    const dir = valueInput(targetDirOpt, args);
    for (const t of ops) pairs.push([t, joinPath(dir, basenameOf(t.text))]);
  } else if (ops.length === 1) {
    const t = ops[0] as Word;
    pairs.push([t, { text: basenameOf(t.text) }]);
  } else if (ops.length >= 2) {
    const last = ops[ops.length - 1] as Word;
    const srcs = ops.slice(0, -1);
    const noTargetDir = options(items, '-T', '--no-target-directory').length > 0;
    // `ln -s T DIR` makes DIR/basename(T) when DIR is an existing directory; unknown → both.
    const dirDest = noTargetDir ? false : srcs.length > 1 ? true : sink.isDirectory(last);
    for (const t of srcs) {
      if (dirDest !== false) pairs.push([t, joinPath(last, basenameOf(t.text))]);
      if (dirDest !== true) pairs.push([t, last]);
    }
  }
  for (const [target, link] of pairs) {
    sink.file('write', link, 'argument', symbolic ? 'ln -s (link path)' : 'ln (link path)');
    // A symbolic target is relative to the link's directory; a hard link's to the cwd.
    const linkAbs = link.dynamic ? undefined : sink.absolute(link.text);
    if (
      symbolic &&
      linkAbs &&
      !target.dynamic &&
      !target.text.startsWith('/') &&
      !target.text.startsWith('~')
    ) {
      sink.literal('read', path.join(path.dirname(linkAbs), target.text), 'argument', 'ln -s target');
    } else {
      sink.file('read', target, 'argument', symbolic ? 'ln -s target' : 'ln target');
    }
    if (symbolic && linkAbs && !target.dynamic) {
      const targetAbs =
        target.text.startsWith('/') || target.text.startsWith('~')
          ? sink.absolute(target.text)
          : path.join(path.dirname(linkAbs), target.text);
      if (targetAbs) sink.env.createdLinks.set(linkAbs, targetAbs);
    }
  }
};

const teeHandler: EffectHandler = (args, sink) => {
  for (const w of operands(TEE_SCAN(args))) sink.file('write', w, 'argument', 'tee');
};

/** dd: `if=` read, `of=` write; everything else is a setting. */
const ddHandler: EffectHandler = (args, sink) => {
  for (const w of args) {
    const m = /^(if|of)=(.*)$/s.exec(w.text);
    if (!m) continue;
    const value = m[2] as string;
    const input: PathInput = {
      text: value,
      raw: value,
      dynamic: w.dynamic && /[$`]/.test(value),
      hasGlob: w.hasGlob,
    };
    sink.file(m[1] === 'if' ? 'read' : 'write', input, 'argument', `dd ${m[1]}=`);
  }
};

const shredHandler: EffectHandler = (args, sink) => {
  const items = SHRED_SCAN(args);
  const removes = options(items, '-u', '--remove').length > 0;
  for (const w of operands(items)) {
    sink.file('write', w, 'argument', 'shred (overwrites)');
    if (removes) sink.file('delete', w, 'argument', 'shred -u');
  }
};

export const fileHandlers: Record<string, EffectHandler> = {
  cp: (args, sink) => copyLike('cp', args, sink, CP_SCAN),
  mv: (args, sink) => copyLike('mv', args, sink, CP_SCAN),
  install: (args, sink) => copyLike('install', args, sink, INSTALL_SCAN),
  rm: deleteOperands('rm', RM_SCAN),
  rmdir: deleteOperands('rmdir', RMDIR_SCAN),
  unlink: deleteOperands(
    'unlink',
    scanner(() => ({ safe: [] })),
  ),
  shred: shredHandler,
  touch: writeOperands('touch', TOUCH_SCAN),
  mkdir: writeOperands('mkdir', MKDIR_SCAN),
  mkfifo: writeOperands(
    'mkfifo',
    scanner(() => ({ safe: ['-m=', '--mode=', '-Z', '--context=?'] })),
  ),
  truncate: writeOperands('truncate', TRUNCATE_SCAN),
  chmod: chmodHandler,
  chown: (args, sink, cmd) => chmodHandler(args, sink, cmd),
  chgrp: (args, sink, cmd) => chmodHandler(args, sink, cmd),
  ln: lnHandler,
  tee: teeHandler,
  dd: ddHandler,
};
