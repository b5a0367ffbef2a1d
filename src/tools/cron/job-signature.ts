/**
 * Durable cron jobs are signed, so a scheduled-tasks file Gantry did not write for this user (one
 * that came with a cloned repository, or was edited by hand) never fires prompts by itself when a
 * session starts. The key is 32 random bytes in `~/.gantry/scheduled-tasks.key` (mode 0600, made
 * on the first durable job); the signature is an HMAC-SHA256 over the job's id, cron expression,
 * prompt and `recurring`, in hex. Times (`createdAt`, `lastFiredAt`) are not covered: they only
 * decide when the job fires, never what it says. See docs/scheduling.md.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import { writeFileAtomic } from '../file-io/atomic-write.js';
import type { DurableJobRecord } from './durable-store.js';

/** Where the key lives by default. */
export function defaultSigningKeyFile(home: string = homedir()): string {
  return path.join(home, '.gantry', 'scheduled-tasks.key');
}

const KEY_BYTES = 32;

/**
 * The key in `file`; with `create`, a new one is made when there is none. Undefined when there is
 * none (or it is not 32 bytes) and `create` is false.
 */
export async function loadSigningKey(
  file: string,
  options: { create: boolean },
): Promise<Buffer | undefined> {
  try {
    const key = await readFile(file);
    if (key.length === KEY_BYTES) return key;
    if (!options.create) return undefined;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    if (!options.create) return undefined;
  }
  const key = randomBytes(KEY_BYTES);
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFileAtomic(file, key, { mode: 0o600 });
  return key;
}

type Signed = Pick<DurableJobRecord, 'id' | 'cron' | 'prompt' | 'recurring'>;

export function signJob(job: Signed, key: Buffer): string {
  const payload = JSON.stringify([job.id, job.cron, job.prompt, job.recurring]);
  return createHmac('sha256', key).update(payload).digest('hex');
}

/** True when `record.signature` is this key's signature of the record. */
export function verifyJob(record: DurableJobRecord, key: Buffer): boolean {
  if (typeof record.signature !== 'string' || !/^[0-9a-f]{64}$/.test(record.signature)) return false;
  return timingSafeEqual(Buffer.from(record.signature, 'hex'), Buffer.from(signJob(record, key), 'hex'));
}
