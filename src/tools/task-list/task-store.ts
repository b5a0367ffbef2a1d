/**
 * The session's task list (TaskCreate / TaskGet / TaskUpdate / TaskList): one JSON file,
 * `<dir>/tasks.json` = `{ nextId, tasks: TaskRecord[] }`, written atomically after every change.
 * `dir` is the session's state directory beside its transcript (`SessionServices.sessionStateDir`,
 * `<gantryHome>/projects/<slug>/<sessionId>/tasks`), or `<AppState.sessionDir>/tasks` when the host
 * gave none.
 *
 * Ids are decimal strings counting from 1 and never reused in a session (a deleted task's id stays
 * taken). Dependencies are kept on both ends: `a.blocks` holds `b` exactly when `b.blockedBy` holds
 * `a`; an edge that would close a cycle is refused. Changes of one list are serialised in this
 * process (`withTaskList`), so sub-agents sharing a session cannot lose each other's writes.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../file-io/atomic-write.js';

export type TaskStatus = 'pending' | 'in_progress' | 'completed';

export interface TaskRecord {
  id: string;
  subject: string;
  description: string;
  activeForm?: string;
  status: TaskStatus;
  owner?: string;
  /** Ids of the tasks that cannot start before this one is completed. */
  blocks: string[];
  /** Ids of the tasks this one waits for. */
  blockedBy: string[];
  metadata?: Record<string, unknown>;
}

export interface TaskListFile {
  nextId: number;
  tasks: TaskRecord[];
}

export const TASK_LIST_FILE = 'tasks.json';

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Reads the list (an absent file is an empty list). Throws with the path on a damaged file. */
export async function loadTaskList(dir: string): Promise<TaskListFile> {
  const file = path.join(dir, TASK_LIST_FILE);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { nextId: 1, tasks: [] };
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`the task list ${file} is not valid JSON; fix or remove it`);
  }
  if (!isObj(parsed) || typeof parsed.nextId !== 'number' || !Array.isArray(parsed.tasks))
    throw new Error(`the task list ${file} does not have the shape {nextId, tasks}; fix or remove it`);
  return parsed as unknown as TaskListFile;
}

export async function saveTaskList(dir: string, list: TaskListFile): Promise<void> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFileAtomic(path.join(dir, TASK_LIST_FILE), Buffer.from(`${JSON.stringify(list, null, 2)}\n`), {
    mode: 0o600,
  });
}

const queues = new Map<string, Promise<unknown>>();

/** Runs `work` with the list of `dir`, one change at a time per directory in this process. */
export function withTaskList<T>(dir: string, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(dir) ?? Promise.resolve();
  const next = previous.then(work, work);
  const settled = next.then(
    () => undefined,
    () => undefined,
  );
  queues.set(dir, settled);
  void settled.then(() => {
    if (queues.get(dir) === settled) queues.delete(dir);
  });
  return next;
}

/** The task of `id`, or undefined. */
export function findTask(list: TaskListFile, id: string): TaskRecord | undefined {
  return list.tasks.find((t) => t.id === id);
}

/** True when `to` can be reached from `from` along `blocks` edges. */
function reaches(list: TaskListFile, from: string, to: string): boolean {
  const seen = new Set<string>();
  const stack = [from];
  while (stack.length) {
    const id = stack.pop()!;
    if (id === to) return true;
    if (seen.has(id)) continue;
    seen.add(id);
    for (const next of findTask(list, id)?.blocks ?? []) stack.push(next);
  }
  return false;
}

/**
 * Adds the edge "`blocker` blocks `blocked`" on both ends. Returns an error text (and changes
 * nothing) for an unknown id, a self-dependency, or an edge that would make a cycle.
 */
export function addDependency(list: TaskListFile, blocker: string, blocked: string): string | undefined {
  const a = findTask(list, blocker);
  const b = findTask(list, blocked);
  if (!a) return `Task #${blocker} does not exist.`;
  if (!b) return `Task #${blocked} does not exist.`;
  if (blocker === blocked) return `Task #${blocker} cannot block itself.`;
  if (a.blocks.includes(blocked)) return undefined;
  if (reaches(list, blocked, blocker))
    return `Task #${blocker} cannot block task #${blocked}: #${blocked} already (directly or through other tasks) blocks #${blocker}, so the dependency would make a cycle.`;
  a.blocks.push(blocked);
  b.blockedBy.push(blocker);
  return undefined;
}

/** Removes `id` and every reference to it. */
export function removeTask(list: TaskListFile, id: string): void {
  list.tasks = list.tasks.filter((t) => t.id !== id);
  for (const t of list.tasks) {
    t.blocks = t.blocks.filter((x) => x !== id);
    t.blockedBy = t.blockedBy.filter((x) => x !== id);
  }
}

/** The blockers of `task` that are not completed yet. */
export function openBlockers(list: TaskListFile, task: TaskRecord): string[] {
  return task.blockedBy.filter((id) => findTask(list, id)?.status !== 'completed');
}

/** Deep copy (for rollback). */
export function cloneList(list: TaskListFile): TaskListFile {
  return structuredClone(list);
}
