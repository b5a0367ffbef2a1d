/**
 * A program under a real terminal for tests: a private tmux server (its socket and config file in
 * the test's temp dir, `remain-on-exit` so the exit status can be read), keys sent with
 * `send-keys`, the screen read with `capture-pane`. Waits poll the screen for expected text with a
 * generous bound, so tests assert what appears, never how fast. `kill()` ends the server (and the
 * program with it). Tests only; needs `tmux` on PATH.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export function tmuxAvailable(): boolean {
  return spawnSync('tmux', ['-V'], { encoding: 'utf8' }).status === 0;
}

export interface TmuxStart {
  /** The program and its arguments. */
  command: readonly string[];
  cwd: string;
  /** The program's whole environment (the tmux server is started with it). */
  env: Record<string, string>;
  /** A directory for the socket and the config file (the test's temp dir). */
  dir: string;
  width?: number;
  height?: number;
  /**
   * Run the program under `sh`, which prints `[exited N]` when it ends (N is 128 + the signal
   * number when a signal killed it). tmux sometimes marks a pane dead without ever recording its
   * status, so a test that asserts the exit status reads it from this line (`waitForExitCode`).
   * The shell catches SIGINT with a no-op trap, so Ctrl-C reaches only the program.
   */
  reportExit?: boolean;
}

const EXIT_LINE = /\[exited (\d+)\]/;

export class TmuxSession {
  private constructor(
    private readonly socket: string,
    private readonly env: Record<string, string>,
  ) {}

  static start(o: TmuxStart): TmuxSession {
    const name = `tmux-${randomBytes(4).toString('hex')}`;
    const socket = path.join(o.dir, `${name}.sock`);
    const conf = path.join(o.dir, `${name}.conf`);
    writeFileSync(conf, 'set -g remain-on-exit on\nset -g history-limit 5000\nset -g status off\n');
    const s = new TmuxSession(socket, o.env);
    s.run([
      '-f',
      conf,
      'new-session',
      '-d',
      '-s',
      'main',
      '-x',
      String(o.width ?? 120),
      '-y',
      String(o.height ?? 40),
      '-c',
      o.cwd,
      '--',
      ...(o.reportExit ? ['sh', '-c', 'trap : INT; "$@"; echo "[exited $?]"', 'sh'] : []),
      ...o.command,
    ]);
    return s;
  }

  private run(args: readonly string[]): string {
    const r = spawnSync('tmux', ['-S', this.socket, ...args], { encoding: 'utf8', env: this.env });
    if (r.status !== 0) throw new Error(`tmux ${args.join(' ')} failed: ${r.stderr || r.error?.message}`);
    return r.stdout;
  }

  /** Sends tmux key names (`Enter`, `Down`, `C-c`, `Escape`). */
  keys(...names: string[]): void {
    this.run(['send-keys', '-t', 'main', ...names]);
  }

  /** Types text literally. */
  type(text: string): void {
    this.run(['send-keys', '-t', 'main', '-l', text]);
  }

  /** The screen and its scrollback as text, wrapped lines joined. */
  screen(): string {
    return this.run(['capture-pane', '-p', '-J', '-S', '-2000', '-t', 'main']);
  }

  /** `{dead, status}` of the program. */
  paneState(): { dead: boolean; status: number | undefined } {
    const out = this.run(['display-message', '-p', '-t', 'main', '#{pane_dead} #{pane_dead_status}']).trim();
    const [dead, status] = out.split(' ');
    return { dead: dead === '1', status: status ? Number(status) : undefined };
  }

  /**
   * Polls the screen until `test` passes (a string, a regexp, or a predicate over the screen) and
   * returns the screen; throws with the last screen after `timeoutMs` (default 40 s, below the
   * test timeout so the failure shows the screen).
   */
  async waitFor(test: string | RegExp | ((screen: string) => boolean), timeoutMs = 40_000): Promise<string> {
    const ok =
      typeof test === 'string'
        ? (s: string) => s.includes(test)
        : test instanceof RegExp
          ? (s: string) => test.test(s)
          : test;
    const until = Date.now() + timeoutMs;
    let last = '';
    for (;;) {
      last = this.screen();
      if (ok(last)) return last;
      if (Date.now() > until) throw new Error(`timed out waiting for ${String(test)}; the screen:\n${last}`);
      await sleep(100);
    }
  }

  /** Waits for the program to exit; returns its status. */
  async waitForExit(timeoutMs = 40_000): Promise<number | undefined> {
    const until = Date.now() + timeoutMs;
    // tmux may report the pane dead a moment before it records the exit status: poll on until
    // the status is there (bounded), so a clean exit is never read as "no status".
    let deadPolls = 0;
    for (;;) {
      const s = this.paneState();
      if (s.dead && (s.status !== undefined || ++deadPolls > 50)) return s.status;
      if (Date.now() > until) throw new Error(`the program did not exit; the screen:\n${this.screen()}`);
      await sleep(100);
    }
  }

  /** With `reportExit`: waits for the program to end and returns its exit status from the shell. */
  async waitForExitCode(timeoutMs = 40_000): Promise<number> {
    const screen = await this.waitFor(EXIT_LINE, timeoutMs);
    return Number(EXIT_LINE.exec(screen)?.[1]);
  }

  /** Ends the tmux server and everything in it. Safe to call twice. */
  kill(): void {
    spawnSync('tmux', ['-S', this.socket, 'kill-server'], { env: this.env });
    rmSync(this.socket, { force: true });
  }
}
