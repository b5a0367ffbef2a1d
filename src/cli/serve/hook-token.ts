/**
 * The bearer token of `gantry serve` (docs/guard.md "HTTP hook"): `GANTRY_HOOK_TOKEN` when set,
 * else the token stored in `~/.gantry/hook-token` (created on first use: 32 random bytes as hex,
 * file 0600 in a 0700 directory, written atomically). A stored file that is not a regular file of
 * this user, or that others can read, is refused with an error rather than trusted.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

type Env = Readonly<Record<string, string | undefined>>;

/** Where the generated token is kept. */
export function hookTokenPath(env: Env): string {
  return path.join(env.HOME || homedir(), '.gantry', 'hook-token');
}

/** The token and where it came from. Throws when the stored file is unsafe to use. */
export function loadHookToken(env: Env): {
  token: string;
  source: 'env' | 'file' | 'generated';
  file?: string;
} {
  const fromEnv = env.GANTRY_HOOK_TOKEN?.trim();
  if (fromEnv) return { token: fromEnv, source: 'env' };
  const file = hookTokenPath(env);
  try {
    const st = lstatSync(file);
    const euid = process.geteuid?.();
    if (!st.isFile() || (euid !== undefined && st.uid !== euid))
      throw new Error(`${file} is not a regular file of this user; remove it or set GANTRY_HOOK_TOKEN`);
    if ((st.mode & 0o077) !== 0)
      throw new Error(
        `${file} is readable by other users (mode ${(st.mode & 0o777).toString(8)}); chmod 600 it`,
      );
    const token = readFileSync(file, 'utf8').trim();
    if (token.length >= 16) return { token, source: 'file', file };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
  }
  const token = randomBytes(32).toString('hex');
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  chmodSync(path.dirname(file), 0o700);
  const tmp = `${file}.tmp-${process.pid}`;
  writeFileSync(tmp, `${token}\n`, { mode: 0o600 });
  renameSync(tmp, file);
  return { token, source: 'generated', file };
}

/** Constant-time comparison of an `Authorization: Bearer <token>` header with the token. */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!m) return false;
  const a = Buffer.from(m[1] as string);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}
