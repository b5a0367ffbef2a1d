/**
 * Test support for the `gantry -p` face: a temp world (HOME and a project), the environment that
 * points gantry at a fake model server, and two ways to run the real `bin/gantry.js` as a child
 * process — to completion (`runGantry`), or as a live stream-json peer a test drives line by line
 * (`spawnGantry`). Tests only.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const GANTRY_BIN = fileURLToPath(new URL('../../bin/gantry.js', import.meta.url));
export const PRINT_TEST_KEY = 'sk-print-test';

export interface PrintWorld {
  root: string;
  home: string;
  project: string;
  gantryHome: string;
  cleanup(): void;
}

/** `<root>/home` is HOME, `<root>/project` the cwd (outside HOME, like a real checkout). */
export function makePrintWorld(): PrintWorld {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'gantry-print-')));
  const home = path.join(root, 'home');
  const project = path.join(root, 'project');
  mkdirSync(home, { recursive: true });
  mkdirSync(project, { recursive: true });
  return {
    root,
    home,
    project,
    gantryHome: path.join(home, '.gantry'),
    cleanup: () => rmSync(root, { recursive: true, force: true }),
  };
}

/**
 * The child's environment: nothing from the test runner's own model or Claude variables, HOME in
 * the world, the fake server's URL and key, no retries (error tests stay fast), no managed files.
 */
export function gantryEnv(
  world: PrintWorld,
  fake: { url: string } | undefined,
  extra: Record<string, string | undefined> = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined) continue;
    if (/^(ANTHROPIC_|OPENAI_|CLAUDE|GANTRY_)/.test(k)) continue;
    env[k] = v;
  }
  env.HOME = world.home;
  env.GANTRY_MAX_RETRIES = '0';
  env.GANTRY_TRUST_PROJECT = '0';
  // Every test has a fresh HOME, so each run would write the command line's code cache (2.5 MB)
  // there at exit, also after the test has finished with a session it kills. The cache has its own
  // tests (src/cli/code-cache.test.ts, src/cli/print/lazy-load.e2e.test.ts).
  env.GANTRY_CODE_CACHE = '0';
  if (fake) {
    env.ANTHROPIC_API_KEY = PRINT_TEST_KEY;
    env.ANTHROPIC_BASE_URL = fake.url;
  }
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export interface GantryRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout parsed as JSON lines (throws on a line that is not JSON). */
  lines(): any[];
}

export interface RunOptions {
  cwd: string;
  env: Record<string, string>;
  /** Written to stdin, then stdin is closed; undefined leaves stdin an empty closed pipe. */
  stdin?: string;
  /** Kill the child after this long (a test must never hang); default 60 s. */
  timeoutMs?: number;
}

function parseLines(stdout: string): any[] {
  return stdout
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l));
}

/** Runs `gantry <args>` to its end. */
export function runGantry(args: readonly string[], options: RunOptions): Promise<GantryRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [GANTRY_BIN, ...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
    child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(e);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, lines: () => parseLines(stdout) });
    });
    child.stdin.on('error', () => undefined);
    child.stdin.end(options.stdin ?? '');
  });
}

/** A live gantry process speaking stream-json with the test. */
export class GantryPeer {
  readonly lines: any[] = [];
  stderr = '';
  private buf = '';
  private readonly waiters: (() => void)[] = [];
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private readonly timer: NodeJS.Timeout;

  constructor(
    readonly child: ChildProcessWithoutNullStreams,
    timeoutMs: number,
  ) {
    child.stdout.setEncoding('utf8').on('data', (c: string) => {
      this.buf += c;
      let nl: number;
      while ((nl = this.buf.indexOf('\n')) >= 0) {
        const line = this.buf.slice(0, nl);
        this.buf = this.buf.slice(nl + 1);
        if (line.trim()) this.lines.push(JSON.parse(line));
      }
      for (const w of this.waiters.splice(0)) w();
    });
    child.stderr.setEncoding('utf8').on('data', (c: string) => (this.stderr += c));
    child.stdin.on('error', () => undefined);
    this.timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    this.exited = new Promise((resolve) =>
      child.on('close', (code, signal) => {
        clearTimeout(this.timer);
        for (const w of this.waiters.splice(0)) w();
        resolve({ code, signal });
      }),
    );
  }

  /** Writes one JSON line to gantry's stdin. */
  send(value: unknown): void {
    this.child.stdin.write(`${JSON.stringify(value)}\n`);
  }

  /** Sends a user message. */
  user(text: string, extra: Record<string, unknown> = {}): void {
    this.send({ type: 'user', message: { role: 'user', content: text }, parent_tool_use_id: null, ...extra });
  }

  /** Sends a control request and returns its id. */
  request(subtype: string, body: Record<string, unknown> = {}): string {
    const id = `req_${Math.random().toString(36).slice(2, 10)}`;
    this.send({ type: 'control_request', request_id: id, request: { subtype, ...body } });
    return id;
  }

  /** Answers a control request gantry sent. */
  answer(requestId: string, response: Record<string, unknown>): void {
    this.send({
      type: 'control_response',
      response: { subtype: 'success', request_id: requestId, response },
    });
  }

  answerError(requestId: string, error: string): void {
    this.send({ type: 'control_response', response: { subtype: 'error', request_id: requestId, error } });
  }

  /** Resolves with the first line from index `from` on that matches (rejects when gantry exits first). */
  async next(pred: (line: any) => boolean, from = 0): Promise<any> {
    for (;;) {
      const found = this.lines.slice(from).find(pred);
      if (found) return found;
      if (this.child.exitCode !== null || this.child.signalCode !== null)
        throw new Error(`gantry exited before the expected line; stderr:\n${this.stderr}`);
      await new Promise<void>((r) => this.waiters.push(r));
    }
  }

  /** The control_response to a request this test sent. */
  response(requestId: string): Promise<any> {
    return this.next((l) => l.type === 'control_response' && l.response?.request_id === requestId);
  }

  /** The next control_request of `subtype` gantry sent after line `from`. */
  controlRequest(subtype: string, from = 0): Promise<any> {
    return this.next((l) => l.type === 'control_request' && l.request?.subtype === subtype, from);
  }

  /** Closes gantry's stdin. */
  end(): void {
    this.child.stdin.end();
  }
}

/** Starts `gantry <args>` with open pipes (stream-json tests). */
export function spawnGantry(args: readonly string[], options: Omit<RunOptions, 'stdin'>): GantryPeer {
  const child = spawn(process.execPath, [GANTRY_BIN, ...args], {
    cwd: options.cwd,
    env: options.env,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  return new GantryPeer(child, options.timeoutMs ?? 60_000);
}

/** The SDK's base argv. */
export const STREAM_ARGS = ['--output-format', 'stream-json', '--verbose', '--input-format', 'stream-json'];
