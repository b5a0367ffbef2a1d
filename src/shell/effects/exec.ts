/**
 * Effects of programs that change the machine in bulk or run code later: package installers
 * (unknown writes + network) and their `config set` (writes ~/.npmrc …), editors (read and write
 * their files), history -w, openssl -out/-in, ssh-keygen, gpg keyrings, date/hostname, patch,
 * split, make, crontab/at/trap, mktemp, docker volumes; the fallback for programs nobody
 * modelled. Interpreters, shells and `source` are in interpreters.ts.
 *
 * Source:  (npm/pip/cargo install unknown writes + network; history -w; openssl
 * -out/-in; source/. read+exec; interpreter one-liners unknown); docs/security-round-2.md
 * (history -w, openssl -out, interpreter one-liners).
 */
import type { SimpleCommand, Word } from '../types.js';
import { type EffectHandler, operands, options, scanner, valueInput } from './handler.js';
import { interpreterHandlers, summary } from './interpreters.js';
import type { EffectSink } from './sink.js';
import { words } from '../read-only/options.js';
import { buildToolPrimitives, makePrimitives, pathOperandEffects } from './project-code.js';
import { runnerEffects, runnerHandlers } from './runners.js';

/** Package managers: install-like sub-commands write unknown files and contact a registry. */
const INSTALL_SUBS: Record<string, Set<string>> = {
  npm: new Set([
    ...words('install i ci add update up upgrade uninstall remove rm un link ln rebuild dedupe prune'),
    ...words('publish audit exec x init create'),
  ]),
  pnpm: new Set([
    ...words('install i add update up upgrade remove rm uninstall link dlx exec publish create dedupe'),
    ...words('prune'),
  ]),
  yarn: new Set([...words('install add upgrade up remove link dlx exec publish create dedupe')]),
  bun: new Set(['install', 'i', 'add', 'a', 'update', 'remove', 'rm', 'link', 'x', 'create', 'publish']),
  pip: new Set(['install', 'uninstall', 'download', 'wheel']),
  cargo: new Set(['install', 'add', 'remove', 'update', 'fetch', 'publish', 'uninstall']),
  go: new Set(['install', 'get', 'mod']),
  gem: new Set(['install', 'uninstall', 'update']),
  apt: new Set(['install', 'remove', 'purge', 'upgrade', 'update', 'autoremove', 'full-upgrade']),
  brew: new Set(['install', 'uninstall', 'upgrade', 'update', 'reinstall', 'tap']),
  composer: new Set(['install', 'require', 'update', 'remove', 'create-project']),
  poetry: new Set(['install', 'add', 'remove', 'update']),
  uv: new Set(['add', 'remove', 'sync', 'pip', 'tool']),
};
const PM_ALIASES: Record<string, string> = {
  pip3: 'pip',
  'apt-get': 'apt',
  dnf: 'apt',
  yum: 'apt',
  apk: 'apt',
  pacman: 'apt',
};

/** User config file each package manager's `config set` writes (`--global`/`--location` vary it). */
const USER_CONFIG: Record<string, string> = {
  npm: '~/.npmrc',
  pnpm: '~/.npmrc',
  yarn: '~/.yarnrc',
  bun: '~/.bunfig.toml',
  pip: '~/.config/pip/pip.conf',
  composer: '~/.config/composer/config.json',
  poetry: '~/.config/pypoetry/config.toml',
};

/** `npm config set/delete/edit` and friends write a config file (`.npmrc` is protected). */
function configFileEffects(pm: string, texts: readonly string[], sink: EffectSink): void {
  const action = texts.filter((t) => !t.startsWith('-'))[1];
  const writes = action !== undefined && /^(set|delete|rm|unset|edit|add)$/.test(action);
  const project = texts.some(
    (t) => /^(--location=project|--local|--project|--site)$/.test(t) || t === 'project',
  );
  const global = texts.some((t) => t === '-g' || t === '--global' || t === '--location=global');
  const target = project
    ? pm === 'pip'
      ? 'pip.conf'
      : pm === 'yarn'
        ? '.yarnrc'
        : '.npmrc'
    : (USER_CONFIG[pm] ?? `~/.${pm}rc`);
  if (global)
    sink.other(writes ? 'write' : 'read', `${pm} global config`, 'unknown', 'argument', `${pm} config`);
  else sink.literal(writes ? 'write' : 'read', target, 'argument', `${pm} config ${action ?? ''}`.trim());
}

/** ssh-keygen: `-f FILE` (and FILE.pub) or a default key under ~/.ssh; `-R` edits known_hosts. */
const sshKeygenHandler: EffectHandler = (args, sink) => {
  const t = args.map((w) => w.text);
  const fIdx = t.indexOf('-f');
  const file = fIdx >= 0 ? args[fIdx + 1] : undefined;
  const readOnly = t.some((x) => /^-[lyBF]$/.test(x) || x === '-Y');
  if (t.includes('-R')) {
    sink.file('write', file ?? { text: '~/.ssh/known_hosts' }, 'argument', 'ssh-keygen -R edits known_hosts');
    return;
  }
  if (file) {
    sink.file(readOnly ? 'read' : 'write', file, 'flag', 'ssh-keygen -f');
    if (!readOnly)
      sink.file(
        'write',
        { ...file, text: `${file.text}.pub`, raw: `${file.raw}.pub` },
        'flag',
        'ssh-keygen public key',
      );
  } else if (!readOnly)
    sink.other(
      'write',
      sink.absolute('~/.ssh') ?? '~/.ssh',
      'unknown',
      'argument',
      'ssh-keygen writes a default key under ~/.ssh',
    );
};

/** gpg: `-o FILE` writes; key management writes the keyring under ~/.gnupg. */
const gpgHandler: EffectHandler = (args, sink) => {
  const t = args.map((w) => w.text);
  for (let i = 0; i < t.length - 1; i++)
    if (t[i] === '-o' || t[i] === '--output') sink.file('write', args[i + 1] as Word, 'flag', 'gpg -o');
  if (
    t.some((x) =>
      /^--(import|gen-key|full-generate-key|quick-gen-key|generate-key|edit-key|delete-keys?|delete-secret-keys|recv-keys|refresh-keys|sign-key|lsign-key|import-ownertrust|update-trustdb)$/.test(
        x,
      ),
    )
  )
    sink.literal('write', '~/.gnupg', 'argument', 'gpg changes the keyring');
};

function packageManager(pm: string): EffectHandler {
  const subs = INSTALL_SUBS[pm] as Set<string>;
  return (args, sink) => {
    const texts = args.map((w) => w.text);
    const sub = texts.find((t) => !t.startsWith('-'));
    buildToolPrimitives(pm, args, sink);
    runnerEffects(pm, sub, args, sink);
    if (sub === 'config' || sub === 'c') {
      configFileEffects(pm, texts, sink);
      return;
    }
    if (!sub || !subs.has(sub)) {
      // `npm run x`, `cargo build` …: runs project code; the allow rule is what grants it, but
      // not paths outside the project nor protected files it is pointed at (`go test -o ~/.bashrc`).
      pathOperandEffects(args, sink, `${pm} ${sub ?? ''}`.trim());
      return;
    }
    const global = texts.some((t) => t === '-g' || t === '--global' || t === '--user' || t === '--system');
    sink.other('network', `${pm} package registry`, 'known', 'argument', `${pm} ${sub}`);
    sink.other(
      'write',
      global ? `${pm} global install location` : `${sink.cwd ?? '.'} (dependencies)`,
      'unknown',
      'argument',
      `${pm} ${sub} writes files`,
    );
    for (let i = 0; i < args.length - 1; i++)
      if (
        texts[i] === '-r' ||
        texts[i] === '--requirement' ||
        texts[i] === '-c' ||
        texts[i] === '--constraint'
      )
        sink.file('read', args[i + 1] as Word, 'flag', `${pm} requirements file`);
  };
}

function editorHandler(name: string): EffectHandler {
  return (args, sink) => {
    for (const w of args) {
      if (w.text.startsWith('-') || w.text.startsWith('+')) continue;
      sink.file('read', w, 'argument', `${name} opens`);
      sink.file('write', w, 'argument', `${name} edits`);
    }
    if (name === 'ed' || name === 'ex')
      sink.other(
        'exec',
        `${name} script from stdin`,
        'unknown',
        'interpreter',
        `${name} commands may run shell commands`,
      );
  };
}

const historyHandler: EffectHandler = (args, sink) => {
  const t = args.map((w) => w.text);
  const file = args.find((w) => !w.text.startsWith('-') && !/^\d+$/.test(w.text));
  const target = file ?? { text: '~/.bash_history' };
  if (t.some((x) => /^-[a-z]*[wa]/.test(x))) sink.file('write', target, 'argument', 'history -w/-a');
  else if (t.some((x) => /^-[a-z]*[rn]/.test(x))) sink.file('read', target, 'argument', 'history -r/-n');
};

const OPENSSL_OUT = new Set(['-out', '-keyout', '-writerand', '-signature']);
const OPENSSL_IN = new Set([
  ...words('-in -key -inkey -config -CAfile -cert -signkey -certfile -CAkey -CA -rand -sigfile -prverify'),
  ...words('-verify -untrusted -extfile -paramfile -peerkey -kdfopt'),
]);
const opensslHandler: EffectHandler = (args, sink) => {
  for (let i = 0; i < args.length - 1; i++) {
    const t = (args[i] as Word).text;
    const v = args[i + 1] as Word;
    if (OPENSSL_OUT.has(t)) sink.file('write', v, 'flag', `openssl ${t}`);
    else if (OPENSSL_IN.has(t)) sink.file('read', v, 'flag', `openssl ${t}`);
    else if ((t === '-passin' || t === '-passout' || t === '-pass') && v.text.startsWith('file:'))
      sink.file('read', { ...v, text: v.text.slice(5), raw: v.text.slice(5) }, 'flag', `openssl ${t}`);
  }
};

const DATE_SCAN = scanner(() => ({
  safe: [...words('-d= --date= -f= --file= -r= --reference= -s= --set= -I=? --iso-8601=? --rfc-3339=')],
}));
const dateHandler: EffectHandler = (args, sink) => {
  const items = DATE_SCAN(args);
  for (const o of options(items, '-f', '--file', '-r', '--reference'))
    sink.file('read', valueInput(o, args), 'flag', `date ${o.name}`);
  if (options(items, '-s', '--set').length || operands(items).some((w) => !w.text.startsWith('+')))
    sink.other('write', 'system clock', 'known', 'argument', 'date sets the clock');
};

const PATCH_SCAN = scanner(() => ({
  safe: [
    ...'bcefEflnNRstuvZ'.split('').map((c) => `-${c}`),
    ...words('-i= -o= -d= -p= -r= -B= -D= -F= -V= -Y= -z= --input= --output= --directory= --strip='),
    ...words('--reject-file= --dry-run --forward --reverse --batch --force --silent --quiet --backup'),
    ...words('--unified --context --ed --normal'),
  ],
}));
const patchHandler: EffectHandler = (args, sink) => {
  const items = PATCH_SCAN(args);
  for (const o of options(items, '-d', '--directory')) {
    sink.file('read', valueInput(o, args), 'cwd', 'patch -d');
    sink.cwd = o.valueWord?.dynamic ? undefined : sink.absolute(o.value ?? '.');
  }
  for (const o of options(items, '-i', '--input'))
    sink.file('read', valueInput(o, args), 'flag', 'patch input');
  for (const o of options(items, '-o', '--output', '-r', '--reject-file'))
    sink.file('write', valueInput(o, args), 'flag', `patch ${o.name}`);
  if (options(items, '--dry-run').length) return;
  const ops = operands(items);
  if (ops[1]) sink.file('read', ops[1], 'argument', 'patch file');
  if (ops[0] && !options(items, '-o', '--output').length)
    sink.file('write', ops[0], 'argument', 'patched file');
  else if (!ops[0]) sink.other('write', 'files named inside the patch', 'unknown', 'argument', 'patch');
};

const SPLIT_SCAN = scanner(() => ({
  safe: [
    ...words('-a= -b= -C= -l= -n= -t= -d -x -e -u --verbose --elide-empty-files --unbuffered'),
    ...words('--suffix-length= --additional-suffix= --bytes= --line-bytes= --lines= --number='),
    ...words('--separator= --numeric-suffixes=? --hex-suffixes=? --filter= -f= -k -s -z --prefix='),
    ...words('--digits= --keep-files --quiet --silent --suppress-matched --elide-empty-files'),
  ],
}));

/** split/csplit: the input is read; the pieces PREFIXaa… are written next to the prefix (names unknown). */
const splitHandler: EffectHandler = (args, sink) => {
  const items = SPLIT_SCAN(args);
  const filter = options(items, '--filter')[0];
  if (filter) sink.other('exec', filter.value ?? '', 'unknown', 'flag', 'split --filter runs a command');
  const ops = operands(items).filter(
    (w) => !/^\/.*\/$|^%.*%$|^\{.*\}$|^\d+$/.test(w.text) || w === operands(items)[0],
  );
  const input = ops[0];
  if (input) sink.file('read', input, 'argument', 'split input');
  const prefixOpt = options(items, '-f', '--prefix')[0];
  const prefix = prefixOpt ? valueInput(prefixOpt, args) : ops[1];
  const dir = prefix && !prefix.dynamic ? sink.absolute(prefix.text) : undefined;
  sink.other(
    'write',
    `${dir ?? prefix?.text ?? sink.absolute('x') ?? 'x'}* (pieces)`,
    'unknown',
    'argument',
    'split writes numbered pieces',
  );
};

/**
 * at/batch: the job (from standard input or `-f FILE`) runs later, with effects nobody sees now —
 * an unknown execution and unknown writes.
 */
function laterJobHandler(name: string): EffectHandler {
  return (args, sink) => {
    const t = args.map((w) => w.text);
    if (t.some((x) => /^-[lrdc]$/.test(x)) || name === 'atq') return; // list, remove, cat jobs
    const f = t.indexOf('-f');
    if (f >= 0 && args[f + 1]) sink.file('read', args[f + 1] as Word, 'flag', `${name} -f job file`);
    sink.other('exec', `${name} job`, 'unknown', 'interpreter', `${name} schedules commands to run later`);
    sink.other(
      'write',
      `${name} job (files it writes)`,
      'unknown',
      'interpreter',
      `${name} job effects are not known`,
    );
  };
}

const makeHandler: EffectHandler = (args, sink) => {
  makePrimitives(args, sink);
  pathOperandEffects(args, sink, 'make');
  for (let i = 0; i < args.length; i++) {
    const t = (args[i] as Word).text;
    if ((t === '-f' || t === '--file' || t === '--makefile') && args[i + 1])
      sink.file('read', args[i + 1] as Word, 'flag', 'make -f');
    if ((t === '-C' || t === '--directory') && args[i + 1])
      sink.file('read', args[i + 1] as Word, 'cwd', 'make -C');
    if (t === '--eval' || t.startsWith('--eval=') || t === '-E')
      sink.other('exec', t, 'unknown', 'flag', 'make --eval');
  }
};

const crontabHandler: EffectHandler = (args, sink) => {
  const t = args.map((w) => w.text);
  if (t.includes('-l')) return;
  const file = args.find((w) => !w.text.startsWith('-') || w.text === '-');
  if (file && file.text !== '-') sink.file('read', file, 'argument', 'crontab file');
  sink.other(
    'write',
    'crontab (scheduled commands)',
    'unknown',
    'argument',
    'crontab installs scheduled commands',
  );
};

const dockerHandler: EffectHandler = (args, sink) => {
  pathOperandEffects(args, sink, 'docker');
  for (let i = 0; i < args.length; i++) {
    const t = (args[i] as Word).text;
    const value =
      t === '-v' || t === '--volume' || t === '--mount'
        ? args[i + 1]?.text
        : /^--(volume|mount)=(.*)$/.exec(t)?.[2];
    if (value === undefined) continue;
    const src = value.startsWith('type=')
      ? /(?:^|,)(?:source|src)=([^,]+)/.exec(value)?.[1]
      : value.split(':')[0];
    if (src && (src.startsWith('/') || src.startsWith('.') || src.startsWith('~')))
      sink.literal('write', src, 'flag', 'docker volume (the container may write it)');
  }
};

/** Handlers by program name. */
export const execHandlers: Record<string, EffectHandler> = {
  ...interpreterHandlers,
  history: historyHandler,
  openssl: opensslHandler,
  date: dateHandler,
  patch: patchHandler,
  split: splitHandler,
  csplit: splitHandler,
  make: makeHandler,
  gmake: makeHandler,
  crontab: crontabHandler,
  mktemp: (_args, sink) => sink.other('write', 'a new temporary file', 'unknown', 'argument', 'mktemp'),
  docker: dockerHandler,
  'ssh-keygen': sshKeygenHandler,
  gpg: gpgHandler,
  gpg2: gpgHandler,
  podman: dockerHandler,
  ...runnerHandlers,
  trap: (args, sink) =>
    sink.other('exec', summary(args[0]?.text ?? ''), 'unknown', 'interpreter', 'trap runs a string later'),
  at: laterJobHandler('at'),
  batch: laterJobHandler('batch'),
  hostname: (args, sink) => {
    const f = args.findIndex((w) => w.text === '-F' || w.text === '--file');
    if (f >= 0 && args[f + 1]) sink.file('read', args[f + 1] as Word, 'flag', 'hostname -F');
    if (f >= 0 || args.some((w) => !w.text.startsWith('-')))
      sink.other('write', 'system host name', 'known', 'argument', 'hostname sets the name');
  },
};
for (const e of ['vi', 'vim', 'nvim', 'view', 'nano', 'pico', 'emacs', 'ed', 'ex', 'micro', 'code'])
  execHandlers[e] = editorHandler(e);
for (const pm of Object.keys(INSTALL_SUBS)) execHandlers[pm] = packageManager(pm);
for (const [alias, pm] of Object.entries(PM_ALIASES)) execHandlers[alias] = packageManager(pm);

/**
 * Effects of a program nobody modelled: path-looking operands are reads (path constraints apply);
 * after an output-looking option or with a protected file name they are writes (project-code.ts).
 */
export function unknownProgramEffects(args: readonly Word[], sink: EffectSink, _cmd: SimpleCommand): void {
  pathOperandEffects(args, sink, 'a program the analysis does not model');
}
