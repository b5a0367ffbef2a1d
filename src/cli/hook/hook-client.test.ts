/**
 * The hook client's trust check of the resident server's socket, on real directories and a real
 * listening socket. "Another user" is simulated by passing an effective uid that is not the owner's.
 */
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { askDaemon, checkSocketTrust } from './hook-client.js';

let base: string;
let servers: Server[];

beforeEach(() => {
  base = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-hook-trust-')));
  servers = [];
});

afterEach(async () => {
  for (const s of servers) await new Promise((r) => s.close(r));
  rmSync(base, { recursive: true, force: true });
});

async function listen(socket: string): Promise<void> {
  const server = createServer({ allowHalfOpen: true }, (s) => {
    s.on('data', () => undefined);
    s.on('end', () => s.end(JSON.stringify({ stdout: 'from-server', stderr: '', exitCode: 0 })));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(socket, resolve));
}

function runDir(mode: number): string {
  const dir = path.join(base, 'run');
  mkdirSync(dir, { mode });
  chmodSync(dir, mode);
  return dir;
}

describe('checkSocketTrust', () => {
  it('trusts a socket of this user in a 0700 directory of this user, and connects through it', async () => {
    const socket = path.join(runDir(0o700), 'hook-x.sock');
    await listen(socket);
    expect(checkSocketTrust(socket).kind).toBe('trusted');
    const answer = await askDaemon(socket, { stdin: '{}', argv: [], env: {}, cwd: base }, 3000);
    expect(answer?.stdout).toBe('from-server');
  });

  it.each([
    [0o777, /mode 777/, 'anyone could plant a socket in a world-writable directory'],
    [0o770, /mode 770/, 'the group could plant one'],
    [0o755, /mode 755/, 'group/other bits at all are refused (the daemon keeps it 0700)'],
  ])('refuses a run directory with mode %o (%s)', async (mode, reason, _why) => {
    const socket = path.join(runDir(mode), 'hook-x.sock');
    await listen(socket);
    const refusals: string[] = [];
    const trust = checkSocketTrust(socket);
    expect(trust).toMatchObject({ kind: 'refused', reason: expect.stringMatching(reason) });
    const answer = await askDaemon(socket, { stdin: '{}', argv: [], env: {}, cwd: base }, 3000, (r) =>
      refusals.push(r),
    );
    expect(answer).toBeUndefined();
    expect(refusals).toHaveLength(1);
  });

  it('refuses a run directory that belongs to another user', async () => {
    const socket = path.join(runDir(0o700), 'hook-x.sock');
    await listen(socket);
    const other = (process.geteuid?.() ?? 0) + 1;
    expect(checkSocketTrust(socket, other)).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/belongs to uid \d+, not to this user/),
    });
  });

  it('refuses a run directory that is a symlink (even to a 0700 directory of this user)', async () => {
    const real = path.join(base, 'real');
    mkdirSync(real, { mode: 0o700 });
    const link = path.join(base, 'run');
    symlinkSync(real, link);
    await listen(path.join(real, 'hook-x.sock'));
    expect(checkSocketTrust(path.join(link, 'hook-x.sock'))).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/symbolic link/),
    });
  });

  it('refuses a regular file where the socket should be', () => {
    const socket = path.join(runDir(0o700), 'hook-x.sock');
    writeFileSync(socket, '');
    expect(checkSocketTrust(socket)).toMatchObject({
      kind: 'refused',
      reason: expect.stringMatching(/not a socket/),
    });
  });

  it('reports a missing directory or socket as absent (the first call; nothing to log)', () => {
    expect(checkSocketTrust(path.join(base, 'none', 'hook-x.sock')).kind).toBe('absent');
    expect(checkSocketTrust(path.join(runDir(0o700), 'hook-x.sock')).kind).toBe('absent');
  });
});
