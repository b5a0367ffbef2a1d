/**
 * A directory only this user can write, opened so that what is checked is what is used: opened
 * without following a symbolic link (`O_DIRECTORY | O_NOFOLLOW`), then its owner and mode checked
 * on the open descriptor. Files inside are then reached through `/proc/self/fd/<fd>/<name>`, so a
 * directory swapped after the check is never followed. Used for the hook's run directory (its
 * socket) and the code cache (docs/reliability.md). Node built-ins only: the warm hook client is
 * a one-file bundle of built-ins.
 */
import { closeSync, constants, existsSync, fstatSync, openSync } from 'node:fs';
import path from 'node:path';

const PROC_FD = '/proc/self/fd';

/** The opened directory; `via(name)` names a file inside it through the descriptor. */
export type OwnedDir =
  | { kind: 'trusted'; fd: number; via(name: string): string; release(): void }
  | { kind: 'absent' }
  | { kind: 'refused'; reason: string };

/**
 * Opens `dir` and checks that `euid` owns it and that group and others have no access.
 * @param why what another user could do with a looser mode, for the reason (e.g. "other users
 *   could plant a socket there").
 * Never throws; an unexpected error is a refusal with the error's message.
 */
export function openOwnedDir(dir: string, euid: number | undefined, why?: string): OwnedDir {
  let fd: number;
  try {
    fd = openSync(dir, constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { kind: 'absent' };
    if (code === 'ENOTDIR' || code === 'ELOOP')
      return { kind: 'refused', reason: `${dir} is a symbolic link or not a directory` };
    return { kind: 'refused', reason: `${dir} cannot be opened (${code ?? String(error)})` };
  }
  const release = (): void => {
    try {
      closeSync(fd);
    } catch {
      // already closed
    }
  };
  try {
    const d = fstatSync(fd);
    if (euid !== undefined && d.uid !== euid) {
      release();
      return { kind: 'refused', reason: `${dir} belongs to uid ${d.uid}, not to this user (uid ${euid})` };
    }
    if ((d.mode & 0o077) !== 0) {
      release();
      return {
        kind: 'refused',
        reason: `${dir} has mode ${(d.mode & 0o777).toString(8)}${why ? `; ${why}` : ''} (it must be 0700)`,
      };
    }
  } catch (error) {
    release();
    return { kind: 'refused', reason: `checking ${dir} failed (${(error as Error).message})` };
  }
  const viaFd = existsSync(PROC_FD);
  return {
    kind: 'trusted',
    fd,
    via: (name) => (viaFd ? `${PROC_FD}/${fd}/${name}` : path.join(dir, name)),
    release,
  };
}
