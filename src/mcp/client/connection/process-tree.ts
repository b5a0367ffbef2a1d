/**
 * Descendants of a process, read from `/proc` (Linux). A stdio MCP server started through a
 * launcher (`npx`, `sh -c`, `uvx`, bubblewrap) runs as a grandchild; when the transport kills its
 * direct child, the grandchildren are re-parented and would survive the session. The connection
 * therefore collects the tree *before* it closes the transport and kills what is still alive
 * afterwards. Elsewhere (no `/proc`), the list is empty and only the direct child is managed.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** Parent pid of `pid` from `/proc/<pid>/stat`, or undefined. */
function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // `pid (comm) state ppid …`; comm may contain spaces and parentheses: read after the last `)`.
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(rest[1]);
    return Number.isInteger(ppid) ? ppid : undefined;
  } catch {
    return undefined;
  }
}

/** Every live descendant of `root` (children first, then theirs), excluding `root`. */
export function descendantPids(root: number): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const children = new Map<number, number[]>();
  for (const e of entries) {
    if (!/^\d+$/.test(e)) continue;
    const pid = Number(e);
    const ppid = parentOf(pid);
    if (ppid === undefined) continue;
    const list = children.get(ppid);
    if (list) list.push(pid);
    else children.set(ppid, [pid]);
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length) {
    const next = queue.shift() as number;
    for (const child of children.get(next) ?? []) {
      out.push(child);
      queue.push(child);
    }
  }
  return out;
}

/** True while `pid` exists and is not a zombie. */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

/** Sends SIGKILL to each pid that is still alive. Never throws. */
export function killAll(pids: readonly number[]): void {
  for (const pid of pids) {
    if (!isAlive(pid)) continue;
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Gone already, or not ours.
    }
  }
}
