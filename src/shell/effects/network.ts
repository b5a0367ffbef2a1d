/**
 * Effects of network programs: hosts contacted (curl, wget, ssh, scp, sftp, rsync, nc/ncat,
 * socat, telnet, ftp) and the files they write (`curl -o/-O/-D/-c`, `wget -O/-o/-P`, scp and
 * rsync destinations) or read (`curl -T`, `-d @file`, `-F x=@file`, `-K`, `--netrc`, ssh `-i/-F`).
 *
 * Source: issue 4 "Effects" (curl -o/--output/-O/-D/--dump-header/-K/--config, -T, @file data,
 * wget -O/-o/-P, ssh/scp/nc/socat network); design.md §3 (`curl -o f url` writes f, network url);
 * security README "Protected files" (curl -o, wget -O).
 */
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
import type { EffectSink, PathInput } from './sink.js';

/** Host (with explicit port) of a URL or `host:port`-ish string; undefined when not a network URL. */
export function urlHost(url: string): { host?: string; file?: string; path?: string } {
  const m = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^/?#]*)([^?#]*)/.exec(url);
  if (m) {
    const scheme = (m[1] as string).toLowerCase();
    if (scheme === 'file') return { file: decodeURIComponent((m[2] as string) + (m[3] as string)) };
    const authority = (m[2] as string).replace(/^.*@/, '');
    return { host: authority.toLowerCase(), path: m[3] as string };
  }
  // curl and wget accept a bare host (`example.com/x`, `localhost:8080`).
  const bare = /^([A-Za-z0-9.-]+(?::\d+)?)(\/[^?#]*)?/.exec(url.replace(/^[^@/]*@/, ''));
  if (bare && /[.:]|^localhost/.test(bare[1] as string))
    return { host: (bare[1] as string).toLowerCase(), path: bare[2] ?? '' };
  return {};
}

function network(sink: EffectSink, w: Word | PathInput, detail: string): { path?: string } {
  if (w.dynamic) {
    sink.other('network', w.raw ?? w.text, 'unknown', 'argument', detail);
    return {};
  }
  const u = urlHost(w.text);
  if (u.file !== undefined) {
    sink.literal('read', u.file, 'argument', `${detail} file:// URL`);
    return {};
  }
  if (u.host === undefined || /[{}[\]]/.test(u.host)) {
    sink.other('network', w.text, 'unknown', 'argument', detail);
    return {};
  }
  sink.other('network', u.host, 'known', 'argument', detail);
  return u.path === undefined ? {} : { path: u.path };
}

const CURL_SCAN = scanner({
  safe: [
    ...'sSLfkviIGNOJRnZlag0123546qjBp#:'.split('').map((c) => `-${c}`),
    ...[
      '-o=',
      '-D=',
      '-c=',
      '-b=',
      '-d=',
      '-F=',
      '-T=',
      '-K=',
      '-H=',
      '-A=',
      '-e=',
      '-u=',
      '-X=',
      '-x=',
      '-U=',
      '-m=',
      '-w=',
      '-r=',
      '-Y=',
      '-y=',
      '-z=',
      '-E=',
      '-C=',
      '-Q=',
      '-P=',
      '-t=',
    ],
    ...[
      'output',
      'output-dir',
      'dump-header',
      'cookie-jar',
      'cookie',
      'data',
      'data-ascii',
      'data-binary',
      'data-raw',
      'data-urlencode',
      'json',
      'form',
      'form-string',
      'upload-file',
      'config',
      'header',
      'user-agent',
      'referer',
      'user',
      'request',
      'proxy',
      'proxy-user',
      'max-time',
      'connect-timeout',
      'write-out',
      'range',
      'speed-limit',
      'speed-time',
      'time-cond',
      'cacert',
      'capath',
      'cert',
      'key',
      'cert-type',
      'key-type',
      'pass',
      'netrc-file',
      'trace',
      'trace-ascii',
      'stderr',
      'libcurl',
      'url',
      'resolve',
      'connect-to',
      'interface',
      'local-port',
      'limit-rate',
      'max-filesize',
      'retry',
      'retry-delay',
      'retry-max-time',
      'continue-at',
      'create-file-mode',
      'etag-save',
      'etag-compare',
      'hsts',
      'alt-svc',
      'unix-socket',
      'abstract-unix-socket',
      'proto',
      'proto-redir',
      'proto-default',
      'dns-servers',
      'doh-url',
      'oauth2-bearer',
      'aws-sigv4',
      'variable',
      'quote',
      'mail-from',
      'mail-rcpt',
      'mail-auth',
      'ftp-port',
      'socks4',
      'socks4a',
      'socks5',
      'socks5-hostname',
      'preproxy',
      'proxy-header',
      'ciphers',
      'tls-max',
      'max-redirs',
      'noproxy',
      'parallel-max',
      'rate',
      'crlfile',
      'pinnedpubkey',
      'proxy-cacert',
      'proxy-cert',
      'proxy-key',
      'expect100-timeout',
      'keepalive-time',
      'telnet-option',
      'tlsuser',
      'tlspassword',
      'request-target',
      'sasl-authzid',
      'login-options',
      'delegation',
      'happy-eyeballs-timeout-ms',
      'ip-tos',
      'vlan-priority',
      'trace-config',
      'ech',
      'netrc-optional',
    ].map((o) => (o === 'netrc-optional' ? '--netrc-optional' : `--${o}=`)),
    ...[
      'silent',
      'show-error',
      'location',
      'location-trusted',
      'fail',
      'fail-with-body',
      'insecure',
      'verbose',
      'include',
      'head',
      'get',
      'remote-name',
      'remote-name-all',
      'remote-header-name',
      'remote-time',
      'netrc',
      'create-dirs',
      'compressed',
      'http1.0',
      'http1.1',
      'http2',
      'http3',
      'ipv4',
      'ipv6',
      'no-buffer',
      'no-keepalive',
      'parallel',
      'list-only',
      'append',
      'globoff',
      'progress-bar',
      'no-progress-meter',
      'tr-encoding',
      'raw',
      'junk-session-cookies',
      'proxytunnel',
      'ssl',
      'ssl-reqd',
      'tlsv1.2',
      'tlsv1.3',
      'digest',
      'basic',
      'ntlm',
      'negotiate',
      'anyauth',
      'disable',
      'help',
      'version',
      'manual',
      'path-as-is',
      'post301',
      'post302',
      'post303',
      'retry-connrefused',
      'retry-all-errors',
      'styled-output',
      'no-styled-output',
      'xattr',
      'ignore-content-length',
      'compressed-ssh',
      'ftp-pasv',
      'ftp-create-dirs',
      'skip-existing',
      'clobber',
      'no-clobber',
      'remove-on-error',
      'show-headers',
      'no-show-headers',
    ].map((o) => `--${o}`),
  ],
});

/** `@file` / `name=@file` / `name=<file` in a data or form value: the file read. */
function dataFile(value: string, form: boolean): string | undefined {
  if (!form && value.startsWith('@')) return value.slice(1);
  if (form) {
    const m = /^[^=]*=[@<]([^;]*)/.exec(value);
    return m ? m[1] : undefined;
  }
  const m = /^[^=@]*@(.+)$/.exec(value); // --data-urlencode name@file
  return m ? m[1] : undefined;
}

const curlHandler: EffectHandler = (args, sink) => {
  const items = CURL_SCAN(args);
  const urls: PathInput[] = [...operands(items)];
  for (const o of options(items, '--url')) urls.push(valueInput(o, args));
  const paths: string[] = [];
  for (const u of urls) {
    const r = network(sink, u, 'curl');
    paths.push(r.path ?? '');
  }
  for (const o of options(
    items,
    '-x',
    '--proxy',
    '--preproxy',
    '--socks4',
    '--socks4a',
    '--socks5',
    '--socks5-hostname',
  ))
    network(sink, valueInput(o, args), 'curl proxy');
  for (const o of options(items, '-o', '--output'))
    sink.file('write', valueInput(o, args), 'flag', 'curl -o');
  const outDir = options(items, '--output-dir')[0];
  if (options(items, '-O', '--remote-name', '--remote-name-all').length > 0) {
    const dir: PathInput = outDir ? valueInput(outDir, args) : { text: '.' };
    for (const [k, p] of paths.entries()) {
      const u = urls[k];
      const base = basenameOf(p);
      if (u?.dynamic || !base) sink.other('write', `${dir.text}/<remote name>`, 'unknown', 'flag', 'curl -O');
      else sink.file('write', joinPath(dir, base), 'flag', 'curl -O (file named after the URL)');
    }
  }
  if (options(items, '-J', '--remote-header-name').length > 0)
    sink.other('write', `${outDir?.value ?? '.'}/<name from the server>`, 'unknown', 'flag', 'curl -J');
  for (const o of options(
    items,
    '-D',
    '--dump-header',
    '-c',
    '--cookie-jar',
    '--trace',
    '--trace-ascii',
    '--stderr',
    '--libcurl',
    '--etag-save',
    '--hsts',
    '--alt-svc',
  ))
    sink.file('write', valueInput(o, args), 'flag', `curl ${o.name}`);
  for (const o of options(
    items,
    '-T',
    '--upload-file',
    '-K',
    '--config',
    '--cacert',
    '--capath',
    '--cert',
    '-E',
    '--key',
    '--netrc-file',
    '--etag-compare',
    '--proxy-cacert',
    '--proxy-cert',
    '--proxy-key',
    '--crlfile',
    '--hsts',
    '--alt-svc',
  ))
    sink.file('read', valueInput(o, args), 'flag', `curl ${o.name}`);
  for (const o of options(items, '-K', '--config'))
    sink.other(
      'write',
      `options from ${o.value ?? ''}`,
      'unknown',
      'flag',
      'curl -K config may name output files',
    );
  for (const o of options(items, '-n', '--netrc', '--netrc-optional'))
    sink.literal('read', '~/.netrc', 'flag', `curl ${o.name}`);
  for (const o of options(items, '-b', '--cookie'))
    if (o.value && !o.value.includes('='))
      sink.file('read', valueInput(o, args), 'flag', 'curl -b cookie file');
  for (const o of options(
    items,
    '-d',
    '--data',
    '--data-ascii',
    '--data-binary',
    '--data-urlencode',
    '--json',
    '-H',
    '--header',
  )) {
    const f = dataFile(o.value ?? '', false);
    if (f && f !== '-')
      sink.file('read', { ...valueInput(o, args), text: f, raw: f }, 'flag', `curl ${o.name} @file`);
  }
  for (const o of options(items, '-F', '--form')) {
    const f = dataFile(o.value ?? '', true);
    if (f && f !== '-')
      sink.file('read', { ...valueInput(o, args), text: f, raw: f }, 'flag', 'curl -F @file');
  }
  for (const o of options(items, '-w', '--write-out'))
    if (/%output\{/.test(o.value ?? ''))
      sink.other('write', o.value ?? '', 'unknown', 'flag', 'curl -w %output{}');
};

const WGET_SCAN = scanner({
  safe: [
    ...[
      '-O=',
      '-o=',
      '-a=',
      '-P=',
      '-i=',
      '-B=',
      '-U=',
      '-e=',
      '-t=',
      '-T=',
      '-w=',
      '-l=',
      '-A=',
      '-R=',
      '-D=',
      '-I=',
      '-X=',
      '-Q=',
    ],
    ...'qvcNrmpkKEHLxSb46'.split('').map((c) => `-${c}`),
    '-nv',
    '-np',
    '-nd',
    '-nH',
    '-nc',
    ...[
      'output-document',
      'output-file',
      'append-output',
      'directory-prefix',
      'input-file',
      'base',
      'post-file',
      'body-file',
      'post-data',
      'body-data',
      'method',
      'header',
      'user-agent',
      'user',
      'password',
      'http-user',
      'http-password',
      'load-cookies',
      'save-cookies',
      'ca-certificate',
      'certificate',
      'private-key',
      'config',
      'execute',
      'tries',
      'timeout',
      'wait',
      'level',
      'accept',
      'reject',
      'domains',
      'exclude-domains',
      'include-directories',
      'exclude-directories',
      'quota',
      'limit-rate',
      'referer',
      'restrict-file-names',
      'default-page',
      'bind-address',
      'progress',
      'output-dir',
      'cut-dirs',
    ].map((o) => `--${o}=`),
    ...[
      'quiet',
      'verbose',
      'no-verbose',
      'continue',
      'timestamping',
      'recursive',
      'mirror',
      'page-requisites',
      'convert-links',
      'backup-converted',
      'adjust-extension',
      'span-hosts',
      'relative',
      'no-parent',
      'no-directories',
      'force-directories',
      'no-host-directories',
      'no-check-certificate',
      'server-response',
      'spider',
      'background',
      'no-clobber',
      'content-disposition',
      'inet4-only',
      'inet6-only',
      'help',
      'version',
      'show-progress',
      'no-cookies',
      'keep-session-cookies',
      'delete-after',
    ].map((o) => `--${o}`),
  ],
});

const wgetHandler: EffectHandler = (args, sink) => {
  const items = WGET_SCAN(args);
  const urls = operands(items);
  const paths = urls.map((u) => network(sink, u, 'wget').path ?? '');
  const prefixOpt = options(items, '-P', '--directory-prefix')[0];
  const prefix: PathInput = prefixOpt ? valueInput(prefixOpt, args) : { text: '.' };
  const docs = options(items, '-O', '--output-document');
  for (const o of docs) sink.file('write', valueInput(o, args), 'flag', 'wget -O');
  for (const o of options(items, '-o', '--output-file', '-a', '--append-output', '--save-cookies'))
    sink.file('write', valueInput(o, args), 'flag', `wget ${o.name}`);
  for (const o of options(
    items,
    '-i',
    '--input-file',
    '--post-file',
    '--body-file',
    '--load-cookies',
    '--ca-certificate',
    '--certificate',
    '--private-key',
    '--config',
  ))
    sink.file('read', valueInput(o, args), 'flag', `wget ${o.name}`);
  if (options(items, '-i', '--input-file').length)
    sink.other('network', 'hosts listed in the input file', 'unknown', 'flag', 'wget -i');
  if (options(items, '-e', '--execute', '--config').length)
    sink.other('write', 'files chosen by wgetrc commands', 'unknown', 'flag', 'wget -e/--config');
  if (options(items, '-b', '--background').length) sink.literal('write', 'wget-log', 'flag', 'wget -b log');
  const spider = options(items, '--spider').length > 0;
  const recursive =
    options(items, '-r', '--recursive', '-m', '--mirror', '-p', '--page-requisites').length > 0;
  if (recursive) sink.file('write', prefix, 'flag', 'wget recursive download (files below)');
  else if (docs.length === 0 && !spider) {
    for (const [k, p] of paths.entries()) {
      const base = basenameOf(p) || 'index.html';
      if (urls[k]?.dynamic)
        sink.other('write', `${prefix.text}/<remote name>`, 'unknown', 'argument', 'wget');
      else sink.file('write', joinPath(prefix, base), 'argument', 'wget (file named after the URL)');
    }
  }
};

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

const SSH_SCAN = scanner({
  safe: [
    ...'46AaCfGgKkMNnqsTtVvXxYy'.split('').map((c) => `-${c}`),
    ...'BbcDEeFIiJLlmOopQRSWw'.split('').map((c) => `-${c}=`),
  ],
  stopAtOperand: true,
});
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

const SCP_SCAN = scanner({
  safe: [...'346ABCOpqRrTv'.split('').map((c) => `-${c}`), ...'cDFiJloPSX'.split('').map((c) => `-${c}=`)],
});
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
    const dirLike = sources.length > 1 || last.text.endsWith('/') || last.text === '.' || last.text === '..';
    if (dirLike)
      for (const s of sources)
        sink.file(
          'write',
          joinPath(last, basenameOf(s.text.replace(/^[^:]*:/, ''))),
          'argument',
          `${prog} destination`,
        );
    else sink.file('write', last, 'argument', `${prog} destination`);
  }
}

const scpHandler: EffectHandler = (args, sink) => {
  const items = SCP_SCAN(args);
  sshOptionsEffects(sink, items, args, 'scp');
  copyOperands(sink, operands(items), 'scp');
};

const SFTP_SCAN = scanner({
  safe: [...'46aCfNpqrv'.split('').map((c) => `-${c}`), ...'BbcDFiJloPRS'.split('').map((c) => `-${c}=`)],
  stopAtOperand: true,
});
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

const RSYNC_SCAN = scanner({
  safe: [
    ...'vqcarRbuldLkKHpEAXogDtOJSxWzhPCFmn'.split('').map((c) => `-${c}`),
    '-e=',
    '-f=',
    '-T=',
    '-B=',
    '-M=',
    ...[
      'rsh',
      'rsync-path',
      'exclude',
      'include',
      'filter',
      'files-from',
      'exclude-from',
      'include-from',
      'log-file',
      'partial-dir',
      'temp-dir',
      'backup-dir',
      'compare-dest',
      'link-dest',
      'copy-dest',
      'chmod',
      'chown',
      'bwlimit',
      'timeout',
      'port',
      'password-file',
      'out-format',
      'log-file-format',
      'max-size',
      'min-size',
      'block-size',
      'suffix',
      'usermap',
      'groupmap',
      'info',
      'debug',
      'iconv',
      'sockopts',
      'contimeout',
      'modify-window',
      'checksum-choice',
      'compress-choice',
      'compress-level',
      'skip-compress',
      'max-delete',
      'outbuf',
      'stop-after',
      'stop-at',
      'write-batch',
      'only-write-batch',
      'read-batch',
      'protocol',
      'address',
      'remote-option',
      'max-alloc',
      'early-input',
    ].map((o) => `--${o}=`),
  ],
});
const rsyncHandler: EffectHandler = (args, sink) => {
  const items = RSYNC_SCAN(args);
  for (const o of options(items, '-e', '--rsh'))
    sink.other('exec', o.value ?? '', 'unknown', 'flag', 'rsync -e remote shell program');
  for (const o of options(
    items,
    '--files-from',
    '--exclude-from',
    '--include-from',
    '--password-file',
    '--read-batch',
    '--early-input',
  ))
    sink.file('read', valueInput(o, args), 'flag', `rsync ${o.name}`);
  for (const o of options(items, '--log-file', '--write-batch', '--only-write-batch'))
    sink.file('write', valueInput(o, args), 'flag', `rsync ${o.name}`);
  copyOperands(sink, operands(items), 'rsync');
};

const NC_SCAN = scanner({
  safe: [
    ...'46bCdDFhklnNrStuUvzZ'.split('').map((c) => `-${c}`),
    ...'eciIMmOpPqsTVwxX'.split('').map((c) => `-${c}=`),
    '-o=',
    '--exec=',
    '--sh-exec=',
    '--lua-exec=',
    '--output=',
    '--append-output',
    '--listen',
    '--proxy=',
    '--source=',
    '--source-port=',
  ],
});
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

export const networkHandlers: Record<string, EffectHandler> = {
  curl: curlHandler,
  wget: wgetHandler,
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
