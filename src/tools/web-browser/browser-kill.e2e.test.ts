/**
 * A `gantry -p` session with WebBrowser on (GANTRY_FEATURE_BROWSER=1, Debian's Chromium, the
 * scripted fake model server) killed while its browser is open, in a scratch TMPDIR: after
 * SIGTERM or SIGINT the scratch TMPDIR is empty and no Chromium started from it runs; after a
 * SIGKILL (nothing of Gantry runs any more) no Chromium outlives the session and the next session
 * that starts a browser sweeps the directory the killed one left.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type FakeAnthropicServer, startFakeAnthropicServer } from '../../testing/fake-anthropic-server.js';
import { reply } from '../../testing/fake-model-script.js';
import { type LocalWebServer, page, startLocalWebServer } from '../../testing/local-web-server.js';
import {
  GANTRY_BIN,
  gantryEnv,
  makePrintWorld,
  PRINT_TEST_KEY,
  type PrintWorld,
  runGantry,
} from '../../testing/print-fixtures.js';

let world: PrintWorld;
let web: LocalWebServer;
let fake: FakeAnthropicServer | undefined;
let child: ChildProcess | undefined;

beforeEach(async () => {
  world = makePrintWorld();
  web = await startLocalWebServer({ '/': page('<!DOCTYPE html><title>Kill</title><p>kill me</p>') });
});
afterEach(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    child.kill('SIGKILL');
    await new Promise((r) => child?.once('exit', r));
  }
  child = undefined;
  // A SIGKILLed session cannot stop its Bash command (`sleep`); this test started it, so it ends it.
  for (const p of processesMentioning(world.root)) {
    try {
      process.kill(p.pid, 'SIGKILL');
    } catch {
      // Gone already.
    }
  }
  await fake?.close();
  fake = undefined;
  await web.close();
  world.cleanup();
});

// A settings file, not inline JSON: inline `--settings` JSON has a temp file of its own, which a
// SIGKILLed session cannot remove either (not the browser's directory this test is about).
const settingsFile = () => {
  const file = path.join(world.root, 'settings.json');
  writeFileSync(
    file,
    JSON.stringify({
      webFetch: { allowPrivateHosts: ['127.0.0.1'], allowHttpHosts: ['127.0.0.1'] },
      permissions: { allow: ['WebBrowser(domain:127.0.0.1)', 'Bash(touch:*)', 'Bash(sleep:*)'] },
    }),
  );
  return file;
};

const env = (tmp: string) =>
  gantryEnv(world, fake, { ENABLE_TOOL_SEARCH: 'false', GANTRY_FEATURE_BROWSER: '1', TMPDIR: tmp });

/** Processes whose command line or environment mentions `dir`, as `pid: command line`. */
function processesMentioning(dir: string): Array<{ pid: number; cmd: string }> {
  const found: Array<{ pid: number; cmd: string }> = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
      const environ = readFileSync(`/proc/${pid}/environ`, 'utf8');
      if (cmd.includes(dir) || environ.includes(dir))
        found.push({ pid: Number(pid), cmd: cmd.slice(0, 200) });
    } catch {
      // The process ended meanwhile, or is not readable.
    }
  }
  return found;
}

/** Chromium processes started from `dir` (their command line or TMPDIR names it). */
const chromiumUnder = (dir: string): string[] =>
  processesMentioning(dir)
    .filter((p) => /chrom/i.test(p.cmd))
    .map((p) => `${p.pid}: ${p.cmd}`);

/** Polls `check` until it returns true (a killed process group takes a moment to be reaped). */
async function until(what: string | (() => string), check: () => boolean, limitMs = 20_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`still waiting for: ${typeof what === 'string' ? what : what()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Starts a session that opens the page and then runs a long Bash command; resolves when it runs. */
async function sessionWithOpenBrowser(tmp: string): Promise<ChildProcess> {
  const marker = path.join(world.project, `running-${Date.now()}`);
  fake = await startFakeAnthropicServer({
    apiKey: PRINT_TEST_KEY,
    script: [
      reply.toolUse('WebBrowser', { action: 'navigate', url: web.url('/') }),
      reply.toolUse('Bash', { command: `touch ${marker} && sleep 120` }),
      reply.text('done'),
    ],
  });
  const c = spawn(process.execPath, [GANTRY_BIN, '-p', '--settings', settingsFile(), 'open the page'], {
    cwd: world.project,
    env: env(tmp),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  c.stderr?.on('data', (d: Buffer) => (output += d.toString('utf8')));
  c.stdout?.on('data', (d: Buffer) => (output += d.toString('utf8')));
  child = c;
  await until(
    () => `the Bash command to start (output: ${output})`,
    () => existsSync(marker),
    60_000,
  );
  // The browser is up: its profile is in the scratch TMPDIR and Chromium runs from it.
  expect(readdirSync(tmp)).not.toEqual([]);
  expect(chromiumUnder(tmp)).not.toEqual([]);
  return c;
}

const exited = (c: ChildProcess) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (c.exitCode !== null || c.signalCode !== null) resolve({ code: c.exitCode, signal: c.signalCode });
    else c.once('exit', (code, signal) => resolve({ code, signal }));
  });

describe('gantry -p with WebBrowser, killed while the browser is open', () => {
  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGINT', 130],
  ] as const) {
    it(`${signal}: exits ${code}, leaves the scratch TMPDIR empty and no Chromium running`, async () => {
      const tmp = path.join(world.root, 'tmp');
      mkdirSync(tmp);
      const c = await sessionWithOpenBrowser(tmp);
      c.kill(signal);
      expect(await exited(c)).toEqual({ code, signal: null });
      await until('no Chromium from the scratch TMPDIR', () => chromiumUnder(tmp).length === 0);
      expect(readdirSync(tmp)).toEqual([]);
    }, 120_000);
  }

  it('SIGKILL: no Chromium outlives it; the next browser session sweeps what it left', async () => {
    const tmp = path.join(world.root, 'tmp');
    mkdirSync(tmp);
    const c = await sessionWithOpenBrowser(tmp);
    c.kill('SIGKILL');
    await exited(c);
    await until('no Chromium from the scratch TMPDIR', () => chromiumUnder(tmp).length === 0);
    // Nothing of the killed session could remove its browser directory: the next start does.
    expect(readdirSync(tmp).map((n) => n.replace(/-\d+-\w+$/, ''))).toEqual(['gantry-browser']);
    await fake?.close();
    fake = await startFakeAnthropicServer({
      apiKey: PRINT_TEST_KEY,
      script: [reply.toolUse('WebBrowser', { action: 'navigate', url: web.url('/') }), reply.text('seen')],
    });
    const next = await runGantry(['-p', '--settings', settingsFile(), 'open it again'], {
      cwd: world.project,
      env: env(tmp),
      timeoutMs: 90_000,
    });
    expect(next.code, next.stderr).toBe(0);
    await until('no Chromium from the scratch TMPDIR', () => chromiumUnder(tmp).length === 0);
    expect(readdirSync(tmp)).toEqual([]);
  }, 180_000);
});
