/**
 * Files that hold credentials (docs/security-round-2.md "Secrets"). Reading one sends its contents to
 * the model provider, so the permission engine asks before any read path (Read, Grep, `cat`, `grep`,
 * a `cp` source, an archive of it) reaches one, and the destructive floor refuses to pipe one into a
 * network effect. Pure data plus a path matcher; no I/O.
 *
 * Matched on the base name anywhere, or on a directory context:
 * - environment files: `.env`, `.env.<anything>` except templates (`.env.example`, `.sample`,
 *   `.template`, `.dist`, `.defaults`, `.schema` — the same list as the protected paths);
 * - private keys: `id_<name>` without an extension (`id_rsa`, `id_ed25519`), anything in `.ssh/`
 *   except public keys, `known_hosts`, `config` and `authorized_keys`; `*.pem`, `*.key`, `*.p12`,
 *   `*.pfx`, `*.keystore`, `*.jks`, `*.ppk`; GnuPG secret keyrings;
 * - login files: `.netrc`, `_netrc`, `.pgpass`, `.git-credentials`, `.vault-token`, `.pypirc`,
 *   `credentials`, `credentials.json`, `.credentials.json`, `client_secret*.json`, and `.npmrc` in the
 *   home directory (a project's `.npmrc` usually names a registry only);
 * - cloud and cluster credentials: `.aws/credentials`, `.aws/sso/cache/*`, anything in `.azure/`,
 *   gcloud's `credentials.db`, `access_tokens.db`, `application_default_credentials.json` and
 *   `legacy_credentials/`, `.kube/config` (and `.kube/*.yaml`), `.docker/config.json`,
 *   `.config/gh/hosts.yml`.
 *
 * Look-alikes that are not secrets: `.env.example`, `id_rsa.pub`, `src/env.ts`, `keys.ts`,
 * `credentials.example.json`, `docs/credentials.md`, `.ssh/known_hosts`.
 */
import { getOwn } from './get-own.js';
import { ENV_TEMPLATE_SUFFIXES } from './protected-paths.js';

export interface SecretFileMatch {
  /** The secret file (the input path). */
  path: string;
  /** What it is, for explanations (`private key`, `environment file` …). */
  label: string;
}

const KEY_EXTENSIONS: Readonly<Record<string, string>> = {
  pem: 'PEM key or certificate bundle',
  key: 'private key',
  p12: 'PKCS#12 key store',
  pfx: 'PKCS#12 key store',
  keystore: 'Java key store',
  jks: 'Java key store',
  ppk: 'PuTTY private key',
};

const LOGIN_FILES: Readonly<Record<string, string>> = {
  '.netrc': 'login credentials (netrc)',
  _netrc: 'login credentials (netrc)',
  '.pgpass': 'PostgreSQL passwords',
  '.git-credentials': 'git credentials',
  '.vault-token': 'Vault token',
  '.pypirc': 'package registry password',
  credentials: 'credentials file',
  'credentials.json': 'credentials file',
  '.credentials.json': 'credentials file',
};

/** Files in `~/.ssh` that are not secret. */
const SSH_PUBLIC = new Set([
  'known_hosts',
  'known_hosts.old',
  'config',
  'authorized_keys',
  'authorized_keys2',
]);

function envFile(base: string): boolean {
  if (base === '.env') return true;
  if (!base.startsWith('.env.')) return false;
  const parts = base.slice(5).toLowerCase().split('.');
  return !parts.some((p) => ENV_TEMPLATE_SUFFIXES.includes(p));
}

function hitOf(path: string, label: string): SecretFileMatch {
  return { path, label };
}

/**
 * True when `dir` (followed by `sub1`, then `sub2`, when given) are non-final segments of `dirs`,
 * the path's directory part with a `/` at each end (`/home/u/.ssh/` for `/home/u/.ssh/id_x`):
 * whole segments, so `/x.ssh/` is not `.ssh`.
 */
function hasDirs(dirs: string, dir: string, sub1?: string, sub2?: string): boolean {
  const needle =
    sub1 === undefined ? `/${dir}/` : sub2 === undefined ? `/${dir}/${sub1}/` : `/${dir}/${sub1}/${sub2}/`;
  return dirs.includes(needle);
}

/**
 * The credential file `absPath` is, or undefined.
 * @param absPath - absolute POSIX path (empty segments and trailing slashes are ignored).
 * @param home - the home directory (for the files that are secret only there, like `~/.npmrc`).
 */
export function matchSecretFile(absPath: string, home?: string): SecretFileMatch | undefined {
  // Module functions below, not closures: this runs for every file a call reads. No split into
  // segments: the base name and the directory part are two slices of the path.
  let p = absPath.includes('//') ? absPath.replace(/\/{2,}/g, '/') : absPath;
  while (p.length > 1 && p.endsWith('/')) p = p.slice(0, -1);
  const slash = p.lastIndexOf('/');
  const base = p.slice(slash + 1);
  if (base === '') return undefined;
  // The directories with a `/` at both ends ('/' for a file at the root).
  const dirs = slash <= 0 ? '/' : `${p[0] === '/' ? '' : '/'}${p.slice(0, slash + 1)}`;
  const parentStart = dirs.lastIndexOf('/', dirs.length - 2);
  const parent = dirs.length > 1 ? dirs.slice(parentStart + 1, -1) : undefined;
  if (envFile(base)) return hitOf(absPath, 'environment file (usually holds API keys)');
  if (base.startsWith('id_') && /^id_[A-Za-z0-9_-]+$/.test(base)) return hitOf(absPath, 'SSH private key');
  // Every directory context below is a dot-directory: a path without `/.` before its base has none.
  const dotDirs = dirs.includes('/.');
  if (dotDirs && hasDirs(dirs, '.ssh') && !base.endsWith('.pub') && !SSH_PUBLIC.has(base))
    return hitOf(absPath, 'file in ~/.ssh (keys)');
  const dot = base.lastIndexOf('.');
  const ext = dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
  const keyLabel = getOwn(KEY_EXTENSIONS, ext);
  if (keyLabel) return hitOf(absPath, keyLabel);
  const login = getOwn(LOGIN_FILES, base);
  if (login) return hitOf(absPath, login);
  if (base.startsWith('client_secret') && base.endsWith('.json'))
    return hitOf(absPath, 'OAuth client secret');
  if (base === '.npmrc' && home !== undefined && absPath === `${home.replace(/\/$/, '')}/.npmrc`)
    return hitOf(absPath, 'package registry token (~/.npmrc)');
  if (!dotDirs) return undefined;
  if (hasDirs(dirs, '.gnupg', 'private-keys-v1.d') || (parent === '.gnupg' && base.startsWith('secring')))
    return hitOf(absPath, 'GnuPG secret key');
  if (hasDirs(dirs, '.aws') && (base === 'credentials' || hasDirs(dirs, '.aws', 'sso', 'cache')))
    return hitOf(absPath, 'AWS credentials');
  if (hasDirs(dirs, '.azure')) return hitOf(absPath, 'Azure CLI credentials and tokens');
  if (
    hasDirs(dirs, '.config', 'gcloud') &&
    (/credentials/.test(base) || base === 'access_tokens.db' || hasDirs(dirs, 'gcloud', 'legacy_credentials'))
  )
    return hitOf(absPath, 'Google Cloud credentials');
  if (parent === '.kube' && (base === 'config' || /\.ya?ml$/.test(base)))
    return hitOf(absPath, 'Kubernetes credentials');
  if (parent === '.docker' && base === 'config.json') return hitOf(absPath, 'container registry credentials');
  if (hasDirs(dirs, '.config', 'gh') && base === 'hosts.yml') return hitOf(absPath, 'GitHub CLI token');
  return undefined;
}

/** Sample names a glob is tested against: a glob that can name one of these can read a secret. */
export const SECRET_NAME_SAMPLES: readonly string[] = [
  '.env',
  '.env.local',
  '.env.production',
  'id_rsa',
  'id_ed25519',
  'server.pem',
  'server.key',
  'store.p12',
  '.netrc',
  '.pgpass',
  '.git-credentials',
  'credentials',
  'credentials.json',
];
