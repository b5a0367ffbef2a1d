/**
 * The project's scheduled-tasks file, where durable cron jobs outlive the session that made them:
 * `<project>/.gantry/scheduled_tasks.json` (Gantry's own folder in the project; Claude Code keeps
 * its jobs in `.claude/`, which Gantry never writes into — docs/scheduling.md). Shape:
 *
 *   { "version": 1, "jobs": [ { "id", "cron", "prompt", "recurring", "createdAt", "lastFiredAt"?, "signature" } ] }
 *
 * (times as ISO strings). Every change is a read-modify-write of the whole file, written
 * atomically (temp file + rename, mode 0600), one at a time per file in this process. A missing
 * file is an empty list; a broken one is an error naming the file, never silently replaced.
 */
import { mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../file-io/atomic-write.js';

export const SCHEDULED_TASKS_FILE = path.join('.gantry', 'scheduled_tasks.json');

export interface DurableJobRecord {
  id: string;
  cron: string;
  prompt: string;
  recurring: boolean;
  /** ISO time. */
  createdAt: string;
  /** ISO time of the slot last fired (by any session). */
  lastFiredAt?: string;
  /** This user's signature of the job (job-signature.ts); a job without a valid one is not loaded. */
  signature?: string;
}

interface DurableFile {
  version: 1;
  jobs: DurableJobRecord[];
}

export function scheduledTasksPath(projectRoot: string): string {
  return path.join(projectRoot, SCHEDULED_TASKS_FILE);
}

const isRecord = (v: unknown): v is DurableJobRecord => {
  if (typeof v !== 'object' || v === null) return false;
  const r = v as Record<string, unknown>;
  return (
    typeof r.id === 'string' &&
    typeof r.cron === 'string' &&
    typeof r.prompt === 'string' &&
    typeof r.recurring === 'boolean' &&
    typeof r.createdAt === 'string' &&
    !Number.isNaN(Date.parse(r.createdAt)) &&
    (r.signature === undefined || typeof r.signature === 'string') &&
    (r.lastFiredAt === undefined ||
      (typeof r.lastFiredAt === 'string' && !Number.isNaN(Date.parse(r.lastFiredAt))))
  );
};

/** The jobs in `file` ([] when it does not exist). @throws Error naming the file when it is broken. */
export async function readDurableJobs(file: string): Promise<DurableJobRecord[]> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`the scheduled-tasks file ${file} is not valid JSON; fix or remove it`);
  }
  const jobs = (parsed as Partial<DurableFile> | null)?.jobs;
  if (!Array.isArray(jobs) || !jobs.every(isRecord))
    throw new Error(
      `the scheduled-tasks file ${file} does not have the shape {version, jobs[]}; fix or remove it`,
    );
  return jobs;
}

const queues = new Map<string, Promise<unknown>>();

/**
 * Runs `change` on the file's jobs and writes the result back atomically (one change at a time
 * per file in this process). `change` returns the new list, or undefined to leave the file as is.
 */
export async function updateDurableJobs(
  file: string,
  change: (jobs: DurableJobRecord[]) => DurableJobRecord[] | undefined,
): Promise<void> {
  const previous = queues.get(file) ?? Promise.resolve();
  const run = previous
    .catch(() => undefined)
    .then(async () => {
      const next = change(await readDurableJobs(file));
      if (!next) return;
      await mkdir(path.dirname(file), { recursive: true });
      const body: DurableFile = { version: 1, jobs: next };
      await writeFileAtomic(file, Buffer.from(`${JSON.stringify(body, null, 2)}\n`), { mode: 0o600 });
    });
  queues.set(file, run);
  try {
    await run;
  } finally {
    if (queues.get(file) === run) queues.delete(file);
  }
}
