/**
 * Effects of archivers and compressors: tar (`-c` writes the archive and reads members, `-x`
 * writes into `-C DIR` or the cwd — member names come from the archive, so unknown; `-t` reads;
 * `--to-command`, `--checkpoint-action=exec`, `-I/--use-compress-program`, `-F`, `--rsh-command`
 * run programs), zip (`-TT`/`--unzip-command` runs a program), unzip (`-d DIR`), gzip/bzip2/xz/
 * zstd family (write the converted file; gzip/bzip2/xz delete the original unless `-k`/`-c`, zstd/lz4
 * keep it unless `--rm`).
 *
 * Source:  (tar -x writes into -C dir; -f archive; unzip/zip) and execution
 * primitives list (tar --checkpoint-action/--to-command/-I/--use-compress-program, zip -TT).
 */
import type { Word } from '../types.js';
import { type EffectHandler, joinPath, operands, options, scanner, valueInput } from './handler.js';
import type { PathInput } from './sink.js';
import { words } from '../read-only/options.js';
import { getOwn } from '../../core/get-own.js';

/** tar short options that take a value, in bundle order (old-style `tar xzf a.tgz` too). */
const TAR_SHORT_VALUE = new Set(['f', 'C', 'T', 'X', 'b', 'I', 'F', 'g', 'K', 'L', 'N', 'V', 'H']);
const TAR_LONG_VALUE = new Set([
  ...words('file directory files-from exclude-from blocking-factor use-compress-program info-script'),
  ...words('new-volume-script listed-incremental starting-file tape-length newer after-date label format'),
  ...words('exclude transform xform owner group mode mtime checkpoint-action to-command rsh-command'),
  ...words('index-file volno-file strip-components suffix record-size newer-mtime exclude-tag'),
  ...words('exclude-tag-all exclude-tag-under xattrs-include xattrs-exclude sparse-version quoting-style'),
  ...words('warning add-file atime-preserve backup occurrence hole-detection owner-map group-map'),
  ...words('pax-option'),
]);
const TAR_LONG_OPTIONAL = new Set(['backup', 'occurrence', 'atime-preserve', 'checkpoint']);

interface TarOption {
  name: string;
  value?: Word | PathInput;
}

function parseTar(args: readonly Word[]): { opts: TarOption[]; operands: Word[] } {
  const opts: TarOption[] = [];
  const ops: Word[] = [];
  let i = 0;
  const take = (): Word | undefined => args[i++];
  // Old-style first argument: letters without a dash.
  const first = args[0];
  if (first && !first.text.startsWith('-') && /^[A-Za-z]+$/.test(first.text)) {
    i = 1;
    for (const c of first.text) {
      const o: TarOption = { name: c };
      if (TAR_SHORT_VALUE.has(c)) {
        const v = take();
        if (v) o.value = v;
      }
      opts.push(o);
    }
  }
  let done = false;
  while (i < args.length) {
    const w = take() as Word;
    const t = w.text;
    if (done || !t.startsWith('-') || t === '-') {
      ops.push(w);
      continue;
    }
    if (t === '--') {
      done = true;
      continue;
    }
    if (t.startsWith('--')) {
      const eq = t.indexOf('=');
      const name = eq < 0 ? t.slice(2) : t.slice(2, eq);
      const o: TarOption = { name };
      if (eq >= 0)
        o.value = {
          text: t.slice(eq + 1),
          raw: t.slice(eq + 1),
          dynamic: w.dynamic && /[$`]/.test(t.slice(eq + 1)),
        };
      else if (TAR_LONG_VALUE.has(name) && !TAR_LONG_OPTIONAL.has(name)) {
        const v = take();
        if (v) o.value = v;
      }
      opts.push(o);
      continue;
    }
    for (let k = 1; k < t.length; k++) {
      const c = t[k] as string;
      const o: TarOption = { name: c };
      if (TAR_SHORT_VALUE.has(c)) {
        const restText = t.slice(k + 1);
        if (restText)
          o.value = { text: restText, raw: restText, dynamic: w.dynamic && /[$`]/.test(restText) };
        else {
          const v = take();
          if (v) o.value = v;
        }
        opts.push(o);
        break;
      }
      opts.push(o);
    }
  }
  return { opts, operands: ops };
}

const LONG_TO_SHORT: Record<string, string> = {
  create: 'c',
  extract: 'x',
  get: 'x',
  list: 't',
  append: 'r',
  update: 'u',
  concatenate: 'A',
  catenate: 'A',
  delete: '--delete',
  diff: 'd',
  compare: 'd',
  file: 'f',
  directory: 'C',
  'files-from': 'T',
  'exclude-from': 'X',
  'use-compress-program': 'I',
  'info-script': 'F',
  'new-volume-script': 'F',
  'to-stdout': 'O',
  'keep-old-files': 'k',
};

const tarHandler: EffectHandler = (args, sink) => {
  const { opts, operands: members } = parseTar(args);
  const names = new Set(opts.map((o) => getOwn(LONG_TO_SHORT, o.name) ?? o.name));
  const get = (n: string): TarOption[] => opts.filter((o) => (getOwn(LONG_TO_SHORT, o.name) ?? o.name) === n);
  const archive = get('f')[0]?.value;
  const dir: PathInput = get('C')[0]?.value ?? { text: '.' };
  for (const o of get('T')) if (o.value) sink.file('read', o.value, 'flag', 'tar -T');
  for (const o of get('X')) if (o.value) sink.file('read', o.value, 'flag', 'tar -X');
  for (const o of [
    ...get('I'),
    ...get('F'),
    ...opts.filter((x) => x.name === 'to-command' || x.name === 'rsh-command'),
  ])
    sink.other(
      'exec',
      o.value?.text ?? '',
      'unknown',
      'flag',
      `tar ${o.name.length === 1 ? `-${o.name}` : `--${o.name}`} runs a program`,
    );
  for (const o of opts.filter((x) => x.name === 'checkpoint-action'))
    if (/exec=/.test(o.value?.text ?? ''))
      sink.other('exec', o.value?.text ?? '', 'unknown', 'flag', 'tar --checkpoint-action=exec');
  for (const o of opts.filter(
    (x) =>
      x.name === 'index-file' || x.name === 'volno-file' || x.name === 'listed-incremental' || x.name === 'g',
  ))
    if (o.value) sink.file('write', o.value, 'flag', `tar --${o.name}`);
  const archiveRemote = archive && !archive.dynamic && /^[^/]*:/.test(archive.text);
  if (archiveRemote)
    sink.other('network', archive.text.split(':')[0] ?? '', 'known', 'flag', 'tar remote archive');
  const writesArchive =
    names.has('c') || names.has('r') || names.has('u') || names.has('A') || names.has('--delete');
  if (archive && !archiveRemote) sink.file(writesArchive ? 'write' : 'read', archive, 'flag', 'tar archive');
  if (names.has('c') || names.has('r') || names.has('u')) {
    // Absolute, `~`/`~user` and expanded members ($HOME/.aws) are expanded by the shell before tar
    // runs: they do not lie below -C (red-team K-612, K-1234..1236).
    for (const m of members)
      sink.file(
        'read',
        m.text.startsWith('/') || m.text.startsWith('~') || m.dynamic ? m : joinPath(dir, m),
        'argument',
        'tar member',
      );
  }
  if (names.has('A')) for (const m of members) sink.file('read', m, 'argument', 'tar concatenated archive');
  if (names.has('x') && !names.has('O')) {
    sink.file('write', dir, 'flag', 'tar -x (members written below)');
    sink.other(
      'write',
      `${dir.text}/<members of the archive>`,
      'unknown',
      'flag',
      'tar -x member names come from the archive',
    );
  }
  if (!names.has('c') && !names.has('x') && !names.has('t') && !writesArchive && !names.has('d'))
    sink.other('write', 'tar (mode not understood)', 'unknown', 'argument', 'tar');
};

const ZIP_SCAN = scanner(() => ({
  safe: [
    ...'0123456789ADdFfgHhjJklLmoqRrSTuvwXyz@$'.split('').map((c) => `-${c}`),
    ...words('-b= -n= -t= -O= -P= -Z= -s= -U -FS -sp -sv -ll -lf= -la -li -dd -db -dc -dg -ds= -du -dv'),
    ...words('-MM -TT= -x -i -e -c -tt= -nw -ws -sb -sf -so -sc -AC -AS -DF -FI -cd= --unzip-command='),
    ...words('--out= --temp-path= --password= --suffixes= --split-size= --logfile-path= --recurse-paths'),
    ...words('--quiet --verbose'),
  ],
}));

const zipHandler: EffectHandler = (args, sink) => {
  // `-x`/`-i` take a list of patterns up to the next option: drop them before scanning.
  const kept: Word[] = [];
  let skipping = false;
  for (const w of args) {
    if (w.text === '-x' || w.text === '-i' || w.text === '--exclude' || w.text === '--include') {
      skipping = true;
      continue;
    }
    if (skipping && !w.text.startsWith('-')) continue;
    skipping = false;
    kept.push(w);
  }
  const items = ZIP_SCAN(kept);
  for (const o of options(items, '-TT', '--unzip-command'))
    sink.other('exec', o.value ?? '', 'unknown', 'flag', 'zip -TT runs a program');
  for (const o of options(items, '-O', '--out', '-lf', '--logfile-path'))
    sink.file('write', valueInput(o, kept), 'flag', `zip ${o.name}`);
  const ops = operands(items);
  if (ops[0]) sink.file('write', ops[0], 'argument', 'zip archive');
  for (const w of ops.slice(1)) sink.file('read', w, 'argument', 'zip member');
};

const UNZIP_SCAN = scanner(() => ({
  safe: [...'lvtzZpfunoqajbBCDKLMNTUVWX2$:^'.split('').map((c) => `-${c}`), '-d=', '-P=', '-x', '-I=', '-O='],
}));
const unzipHandler: EffectHandler = (args, sink) => {
  const items = UNZIP_SCAN(args);
  const ops = operands(items);
  if (ops[0]) sink.file('read', ops[0], 'argument', 'unzip archive');
  const listOnly = options(items, '-l', '-v', '-t', '-z', '-Z', '-p').length > 0;
  if (listOnly) return;
  const d = options(items, '-d')[0];
  const dir: PathInput = d ? valueInput(d, args) : { text: '.' };
  sink.file('write', dir, 'flag', 'unzip (members written below)');
  sink.other(
    'write',
    `${dir.text}/<members of the archive>`,
    'unknown',
    'flag',
    'unzip member names come from the archive',
  );
};

/** gzip-family: `f` → `f.gz` (or back), original removed unless -k/--keep or -c/--stdout/-l/-t. */
function compressor(suffix: string, decompress: boolean, keepsByDefault = false): EffectHandler {
  const scan = scanner({
    safe: [
      ...'cdfhklLnNqrtvV123456789T'.split('').map((c) => `-${c}`),
      ...words('-S= --suffix= --stdout --to-stdout --decompress --uncompress --force --keep --list --test'),
      ...words('--quiet --verbose --recursive --best --fast --rm -o= --output='),
    ],
  });
  return (args, sink) => {
    const items = scan(args);
    const toStdout =
      options(items, '-c', '--stdout', '--to-stdout', '-l', '--list', '-t', '--test').length > 0;
    const keep = keepsByDefault
      ? options(items, '--rm').length === 0
      : options(items, '-k', '--keep').length > 0;
    const dec = decompress || options(items, '-d', '--decompress', '--uncompress').length > 0;
    const sfx = options(items, '-S', '--suffix')[0]?.value ?? suffix;
    for (const o of options(items, '-o', '--output'))
      sink.file('write', valueInput(o, args), 'flag', 'output file');
    for (const w of operands(items)) {
      sink.file('read', w, 'argument', 'compressor input');
      if (toStdout) continue;
      const out = dec
        ? w.text.endsWith(sfx)
          ? w.text.slice(0, -sfx.length)
          : `${w.text}.out`
        : `${w.text}${sfx}`;
      sink.file(
        'write',
        { ...w, text: out, raw: out },
        'argument',
        dec ? 'decompressed file' : 'compressed file',
      );
      if (!keep) sink.file('delete', w, 'argument', 'original removed');
    }
  };
}

export const archiveHandlers: Record<string, EffectHandler> = {
  tar: tarHandler,
  zip: zipHandler,
  unzip: unzipHandler,
  gzip: compressor('.gz', false),
  gunzip: compressor('.gz', true),
  bzip2: compressor('.bz2', false),
  bunzip2: compressor('.bz2', true),
  xz: compressor('.xz', false),
  unxz: compressor('.xz', true),
  zstd: compressor('.zst', false, true),
  unzstd: compressor('.zst', true, true),
  lz4: compressor('.lz4', false, true),
};
