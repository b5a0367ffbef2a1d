/**
 * Effects of remote-shell and socket programs: hosts contacted by ssh, scp, sftp, rsync, nc/ncat,
 * socat, telnet, ftp; local files they read (`ssh -i/-F`, scp/rsync sources) and write (scp/rsync
 * destinations, `ssh -E`, `nc -o`); local programs they run (`ssh -o ProxyCommand`, `rsync -e`,
 * `nc -e`, socat `EXEC:`).
 *
 * Source:  (ssh/scp/nc/ncat/socat/telnet/ftp network; scp writes; rsync -e);
 * docs/security-round-2.md (ssh -o ProxyCommand, rsync -e).
 */
import { words } from '../read-only/options.js';
import type { Word } from '../types.js';
import {
  basenameOf,
  type EffectHandler,
  joinPath,
  operands,
  options,
  scanner,
  valueInput,
} from './handler.js';
import { contentsWrite } from './files.js';
import type { EffectSink } from './sink.js';
import { urlHost } from './network.js';

/** `[user@]host[:port]` or `ssh://[user@]host[:port]` destination of ssh-family programs. */
function sshHost(text: string): string | undefined {
  const u = /^ssh:\/\/(?:[^@/]*@)?([^/]+)/.exec(text);
  if (u) return (u[1] as string).toLowerCase();
  const m = /^(?:[^@]*@)?([^:/]+)/.exec(text);
  return m ? (m[1] as string).toLowerCase() : undefined;
}

const SSH_COMMAND_OPTIONS = /^(ProxyCommand|LocalCommand|PermitLocalCommand|KnownHostsCommand|Match)\b/i;

function sshOptionsEffects(
  sink: EffectSink,
  items: ReturnType<ReturnType<typeof scanner>>,
  args: readonly Word[],
  prog: string,
): void {
  for (const o of options(items, '-F', '-i'))
    sink.file('read', valueInput(o, args), 'flag', `${prog} ${o.name}`);
  for (const o of options(items, '-E')) sink.file('write', valueInput(o, args), 'flag', `${prog} -E log`);
  for (const o of options(items, '-J'))
    for (const h of (o.value ?? '').split(','))
      sink.other('network', sshHost(h) ?? h, 'known', 'flag', `${prog} -J`);
  for (const o of options(items, '-o'))
    if (SSH_COMMAND_OPTIONS.test(o.value ?? ''))
      sink.other('exec', o.value ?? '', 'unknown', 'flag', `${prog} -o runs a local command`);
  for (const o of options(items, '-S'))
    if (prog !== 'ssh') sink.other('exec', o.value ?? '', 'unknown', 'flag', `${prog} -S program`);
}

const SSH_SCAN = scanner(() => ({
  safe: [
    ...'46AaCfGgKkMNnqsTtVvXxYy'.split('').map((c) => `-${c}`),
    ...'BbcDEeFIiJLlmOopQRSWw'.split('').map((c) => `-${c}=`),
  ],
  stopAtOperand: true,
}));
const sshHandler: EffectHandler = (args, sink) => {
  const items = SSH_SCAN(args);
  sshOptionsEffects(sink, items, args, 'ssh');
  const ops = operands(items);
  const dest = ops[0];
  if (dest) {
    if (dest.dynamic) sink.other('network', dest.raw, 'unknown', 'argument', 'ssh');
    else {
      const port = options(items, '-p')[0]?.value;
      const h = sshHost(dest.text);
      sink.other('network', port && h ? `${h}:${port}` : (h ?? dest.text), 'known', 'argument', 'ssh');
    }
  }
  if (ops.length > 1)
    sink.other(
      'exec',
      ops
        .slice(1)
        .map((w) => w.text)
        .join(' '),
      'known',
      'argument',
      'ssh remote command (runs on the remote host)',
    );
};

const SCP_SCAN = scanner(() => ({
  safe: [...'346ABCOpqRrTv'.split('').map((c) => `-${c}`), ...'cDFiJloPSX'.split('').map((c) => `-${c}=`)],
}));
const REMOTE_SPEC = /^(?:[^@/:]*@)?\[?[A-Za-z0-9._-]+\]?:/;

/** scp/rsync operands: `host:path` is remote (network); local sources are read, a local destination written. */
function copyOperands(sink: EffectSink, ops: readonly Word[], prog: string): void {
  const last = ops[ops.length - 1];
  const sources = ops.slice(0, -1);
  for (const w of ops) {
    if (!w.dynamic && (REMOTE_SPEC.test(w.text) || /^(rsync|scp|sftp):\/\//.test(w.text))) {
      const h = /^[a-z]+:\/\//.test(w.text) ? urlHost(w.text).host : sshHost(w.text);
      sink.other('network', h ?? w.text, 'known', 'argument', prog);
    }
  }
  for (const s of sources)
    if (s.dynamic || !REMOTE_SPEC.test(s.text)) sink.file('read', s, 'argument', `${prog} source`);
  if (last && (last.dynamic || !REMOTE_SPEC.test(last.text))) {
    // Into an existing directory the copy is DIR/basename(SRC); unknown → both names.
    const dirLike = sources.length > 1 ? true : sink.isDirectory(last);
    for (const s of sources) {
      const path = s.text.replace(/^[^:]*:/, '');
      // rsync `SRC/` copies the contents of SRC (names unknown) straight into the destination.
      if (prog === 'rsync' && !s.dynamic && (path.endsWith('/') || /(^|\/)\.$/.test(path)))
        contentsWrite(sink, last, s, `${prog} destination`);
      else if (dirLike !== false)
        sink.file('write', joinPath(last, basenameOf(path)), 'argument', `${prog} destination`);
    }
    if (dirLike !== true) sink.file('write', last, 'argument', `${prog} destination`);
  }
}

const scpHandler: EffectHandler = (args, sink) => {
  const items = SCP_SCAN(args);
  sshOptionsEffects(sink, items, args, 'scp');
  copyOperands(sink, operands(items), 'scp');
};

const SFTP_SCAN = scanner(() => ({
  safe: [...'46aCfNpqrv'.split('').map((c) => `-${c}`), ...'BbcDFiJloPRS'.split('').map((c) => `-${c}=`)],
  stopAtOperand: true,
}));
const sftpHandler: EffectHandler = (args, sink) => {
  const items = SFTP_SCAN(args);
  sshOptionsEffects(sink, items, args, 'sftp');
  for (const o of options(items, '-b')) sink.file('read', valueInput(o, args), 'flag', 'sftp batch file');
  for (const o of options(items, '-D'))
    sink.other('exec', o.value ?? '', 'unknown', 'flag', 'sftp -D runs a local sftp server');
  const dest = operands(items)[0];
  if (dest)
    sink.other(
      'network',
      dest.dynamic ? dest.raw : (sshHost(dest.text) ?? dest.text),
      dest.dynamic ? 'unknown' : 'known',
      'argument',
      'sftp',
    );
};

const RSYNC_SCAN = scanner(() => ({
  safe: [
    ...'vqcarRbuldLkKHpEAXogDtOJSxWzhPCFmn'.split('').map((c) => `-${c}`),
    '-e=',
    '-f=',
    '-T=',
    '-B=',
    '-M=',
    ...[
      ...words('rsh rsync-path exclude include filter files-from exclude-from include-from log-file'),
      ...words('partial-dir temp-dir backup-dir compare-dest link-dest copy-dest chmod chown bwlimit'),
      ...words('timeout port password-file out-format log-file-format max-size min-size block-size suffix'),
      ...words('usermap groupmap info debug iconv sockopts contimeout modify-window checksum-choice'),
      ...words('compress-choice compress-level skip-compress max-delete outbuf stop-after stop-at'),
      ...words('write-batch only-write-batch read-batch protocol address remote-option max-alloc'),
      ...words('early-input'),
    ].map((o) => `--${o}=`),
  ],
}));
const rsyncHandler: EffectHandler = (args, sink) => {
  const items = RSYNC_SCAN(args);
  for (const o of options(items, '-e', '--rsh'))
    sink.other('exec', o.value ?? '', 'unknown', 'flag', 'rsync -e remote shell program');
  for (const o of options(
    items,
    ...words('--files-from --exclude-from --include-from --password-file --read-batch --early-input'),
  ))
    sink.file('read', valueInput(o, args), 'flag', `rsync ${o.name}`);
  for (const o of options(items, '--log-file', '--write-batch', '--only-write-batch'))
    sink.file('write', valueInput(o, args), 'flag', `rsync ${o.name}`);
  copyOperands(sink, operands(items), 'rsync');
};

const NC_SCAN = scanner(() => ({
  safe: [
    ...'46bCdDFhklnNrStuUvzZ'.split('').map((c) => `-${c}`),
    ...'eciIMmOpPqsTVwxX'.split('').map((c) => `-${c}=`),
    ...words('-o= --exec= --sh-exec= --lua-exec= --output= --append-output --listen --proxy= --source='),
    ...words('--source-port='),
  ],
}));
const ncHandler: EffectHandler = (args, sink) => {
  const items = NC_SCAN(args);
  for (const o of options(items, '-e', '-c', '--exec', '--sh-exec', '--lua-exec'))
    sink.other('exec', o.value ?? '', 'unknown', 'flag', `nc ${o.name}`);
  for (const o of options(items, '-o', '--output'))
    sink.file('write', valueInput(o, args), 'flag', 'nc output');
  for (const o of options(items, '-x', '--proxy'))
    sink.other('network', o.value ?? '', 'known', 'flag', 'nc proxy');
  const ops = operands(items);
  const listen = options(items, '-l', '--listen').length > 0;
  const port = ops[1]?.text ?? options(items, '-p')[0]?.value;
  if (listen)
    sink.other('network', `listen:${ops[ops.length - 1]?.text ?? port ?? '?'}`, 'known', 'argument', 'nc -l');
  else if (ops[0])
    sink.other(
      'network',
      ops[0].dynamic ? ops[0].raw : `${ops[0].text}${port ? `:${port}` : ''}`,
      ops[0].dynamic ? 'unknown' : 'known',
      'argument',
      'nc',
    );
};

/** socat address `TYPE:params`: network, exec or file effects. */
function socatAddress(sink: EffectSink, w: Word): void {
  if (w.dynamic) {
    sink.other('exec', w.raw, 'unknown', 'argument', 'socat address');
    return;
  }
  const t = w.text;
  if (t === '-' || /^(STDIO|STDIN|STDOUT|STDERR)$/i.test(t)) return;
  const [type = '', ...rest] = t.split(':');
  const params = rest.join(':').split(',')[0] ?? '';
  const T = type.toUpperCase();
  if (/^(EXEC|SYSTEM)$/.test(T)) sink.other('exec', rest.join(':'), 'unknown', 'argument', `socat ${T}`);
  else if (/^(TCP|TCP4|TCP6|UDP|UDP4|UDP6|TCP-CONNECT|UDP-CONNECT|SSL|OPENSSL|SOCKS4|SOCKS4A|PROXY)$/.test(T))
    sink.other('network', params, 'known', 'argument', `socat ${T}`);
  else if (/LISTEN|^TCP-L$|^UDP-L$|RECV/.test(T))
    sink.other('network', `listen:${params}`, 'known', 'argument', `socat ${T}`);
  else if (/^(OPEN|FILE|CREATE|CREAT|GOPEN|PIPE|UNIX-CONNECT|UNIX-LISTEN|UNIX-CLIENT)$/.test(T))
    sink.file('write', { text: params }, 'argument', `socat ${T}`);
  else if (rest.length === 0) sink.file('write', w, 'argument', 'socat file address');
  else sink.other('network', t, 'unknown', 'argument', 'socat address');
}
const socatHandler: EffectHandler = (args, sink) => {
  for (const w of args) if (!w.text.startsWith('-') || w.text === '-') socatAddress(sink, w);
};

const hostArg: EffectHandler = (args, sink) => {
  const ops = args.filter((w) => !w.text.startsWith('-'));
  const h = ops[0];
  if (h)
    sink.other(
      'network',
      h.dynamic ? h.raw : `${h.text}${ops[1] ? `:${ops[1].text}` : ''}`,
      h.dynamic ? 'unknown' : 'known',
      'argument',
      'remote login',
    );
};

export const remoteHandlers: Record<string, EffectHandler> = {
  ssh: sshHandler,
  scp: scpHandler,
  sftp: sftpHandler,
  rsync: rsyncHandler,
  nc: ncHandler,
  ncat: ncHandler,
  netcat: ncHandler,
  socat: socatHandler,
  telnet: hostArg,
  ftp: hostArg,
};
