/**
 * Effects of URL clients: hosts contacted by curl and wget, the files they write (`curl -o/-O/-D/
 * -c`, `wget -O/-o/-P`, the URL's basename by default) or read (`curl -T`, `-d @file`,
 * `-F x=@file`, `-K`, `--netrc`, `file://` URLs). Remote shells and sockets are in remote.ts.
 *
 * Source:  (curl -o/--output/-O/-D/--dump-header/-K/--config, -T, @file data,
 * wget -O/-o/-P, ssh/scp/nc/socat network); docs/architecture.md (`curl -o f url` writes f, network url);
 * docs/security-round-2.md (curl -o, wget -O).
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
import { words } from '../read-only/options.js';

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

const CURL_SCAN = scanner(() => ({
  safe: [
    ...'sSLfkviIGNOJRnZlag0123546qjBp#:'.split('').map((c) => `-${c}`),
    ...[
      ...words('-o= -D= -c= -b= -d= -F= -T= -K= -H= -A= -e= -u= -X= -x= -U= -m= -w= -r= -Y= -y= -z= -E='),
      ...words('-C= -Q= -P= -t='),
    ],
    ...[
      ...words('output output-dir dump-header cookie-jar cookie data data-ascii data-binary data-raw'),
      ...words('data-urlencode json form form-string upload-file config header user-agent referer user'),
      ...words('request proxy proxy-user max-time connect-timeout write-out range speed-limit speed-time'),
      ...words('time-cond cacert capath cert key cert-type key-type pass netrc-file trace trace-ascii'),
      ...words('stderr libcurl url resolve connect-to interface local-port limit-rate max-filesize retry'),
      ...words('retry-delay retry-max-time continue-at create-file-mode etag-save etag-compare hsts'),
      ...words('alt-svc unix-socket abstract-unix-socket proto proto-redir proto-default dns-servers'),
      ...words('doh-url oauth2-bearer aws-sigv4 variable quote mail-from mail-rcpt mail-auth ftp-port'),
      ...words('socks4 socks4a socks5 socks5-hostname preproxy proxy-header ciphers tls-max max-redirs'),
      ...words('noproxy parallel-max rate crlfile pinnedpubkey proxy-cacert proxy-cert proxy-key'),
      ...words('expect100-timeout keepalive-time telnet-option tlsuser tlspassword request-target'),
      ...words('sasl-authzid login-options delegation happy-eyeballs-timeout-ms ip-tos vlan-priority'),
      ...words('trace-config ech netrc-optional'),
    ].map((o) => (o === 'netrc-optional' ? '--netrc-optional' : `--${o}=`)),
    ...[
      ...words('silent show-error location location-trusted fail fail-with-body insecure verbose include'),
      ...words('head get remote-name remote-name-all remote-header-name remote-time netrc create-dirs'),
      ...words('compressed http1.0 http1.1 http2 http3 ipv4 ipv6 no-buffer no-keepalive parallel'),
      ...words('list-only append globoff progress-bar no-progress-meter tr-encoding raw'),
      ...words('junk-session-cookies proxytunnel ssl ssl-reqd tlsv1.2 tlsv1.3 digest basic ntlm negotiate'),
      ...words('anyauth disable help version manual path-as-is post301 post302 post303 retry-connrefused'),
      ...words('retry-all-errors styled-output no-styled-output xattr ignore-content-length'),
      ...words('compressed-ssh ftp-pasv ftp-create-dirs skip-existing clobber no-clobber remove-on-error'),
      ...words('show-headers no-show-headers'),
    ].map((o) => `--${o}`),
  ],
}));

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

/** The pattern of files a `-o` name with `#N` placeholders writes (`out_#1.txt` → `/cwd/out_*`). */
function globOutput(sink: EffectSink, out: PathInput): string {
  const head = out.text.replace(/#\d.*$/s, '');
  if (out.dynamic) return out.text;
  const slash = head.lastIndexOf('/');
  const dir = slash >= 0 ? head.slice(0, slash + 1) : './';
  const abs = sink.absolute(dir);
  return abs === undefined ? out.text : `${abs.replace(/\/$/, '')}/${head.slice(slash + 1)}*`;
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
    ...words('-x --proxy --preproxy --socks4 --socks4a --socks5 --socks5-hostname'),
  ))
    network(sink, valueInput(o, args), 'curl proxy');
  for (const o of options(items, '-o', '--output')) {
    const out = valueInput(o, args);
    // `#1` in an output name is the text a URL glob (`{a,b}`, `[1-3]`) matched: the name is not known.
    if (/#\d/.test(out.text))
      sink.other('write', globOutput(sink, out), 'unknown', 'flag', 'curl -o with a URL glob name');
    else sink.file('write', out, 'flag', 'curl -o');
  }
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
    ...words('-D --dump-header -c --cookie-jar --trace --trace-ascii --stderr --libcurl --etag-save'),
    ...words('--hsts --alt-svc'),
  ))
    sink.file('write', valueInput(o, args), 'flag', `curl ${o.name}`);
  for (const o of options(
    items,
    ...words('-T --upload-file -K --config --cacert --capath --cert -E --key --netrc-file --etag-compare'),
    ...words('--proxy-cacert --proxy-cert --proxy-key --crlfile --hsts --alt-svc'),
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
    ...words('-d --data --data-ascii --data-binary --data-urlencode --json -H --header'),
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

const WGET_SCAN = scanner(() => ({
  safe: [
    ...[...words('-O= -o= -a= -P= -i= -B= -U= -e= -t= -T= -w= -l= -A= -R= -D= -I= -X= -Q=')],
    ...'qvcNrmpkKEHLxSb46'.split('').map((c) => `-${c}`),
    '-nv',
    '-np',
    '-nd',
    '-nH',
    '-nc',
    ...[
      ...words('output-document output-file append-output directory-prefix input-file base post-file'),
      ...words('body-file post-data body-data method header user-agent user password http-user'),
      ...words('http-password load-cookies save-cookies ca-certificate certificate private-key config'),
      ...words('execute tries timeout wait level accept reject domains exclude-domains'),
      ...words('include-directories exclude-directories quota limit-rate referer restrict-file-names'),
      ...words('default-page bind-address progress output-dir cut-dirs'),
    ].map((o) => `--${o}=`),
    ...[
      ...words('quiet verbose no-verbose continue timestamping recursive mirror page-requisites'),
      ...words('convert-links backup-converted adjust-extension span-hosts relative no-parent'),
      ...words('no-directories force-directories no-host-directories no-check-certificate server-response'),
      ...words('spider background no-clobber content-disposition inet4-only inet6-only help version'),
      ...words('show-progress no-cookies keep-session-cookies delete-after'),
    ].map((o) => `--${o}`),
  ],
}));

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
    ...words('-i --input-file --post-file --body-file --load-cookies --ca-certificate --certificate'),
    ...words('--private-key --config'),
  ))
    sink.file('read', valueInput(o, args), 'flag', `wget ${o.name}`);
  if (options(items, '-i', '--input-file').length)
    sink.other('network', 'hosts listed in the input file', 'unknown', 'flag', 'wget -i');
  if (options(items, '-e', '--execute', '--config').length)
    sink.other('write', 'files chosen by wgetrc commands', 'unknown', 'flag', 'wget -e/--config');
  if (options(items, '-b', '--background').length) sink.literal('write', 'wget-log', 'flag', 'wget -b log');
  // `--use-askpass=CMD` runs CMD to get credentials (red-team K-631).
  for (const w of args)
    if (/^--use-askpass(?:=|$)/.test(w.text))
      sink.other('exec', w.text, 'unknown', 'flag', 'wget --use-askpass runs a program');
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

/** HTTP(S)/FTP download and upload programs by name. */
export const networkHandlers: Record<string, EffectHandler> = {
  curl: curlHandler,
  wget: wgetHandler,
};
