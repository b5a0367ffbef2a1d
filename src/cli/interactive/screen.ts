/**
 * The terminal the interactive face writes to: plain writes, one spinner line (cleared before
 * anything else is written, so output never interleaves with it), and a pause while a prompt owns
 * the terminal (writes are held and flushed when it closes).
 *
 * The spinner is a single self-redrawing line with the elapsed seconds. It never touches stdin:
 * clack's spinner puts stdin in raw mode while it spins and exits the process on Ctrl-C, which
 * would turn "interrupt the turn" into "quit" whenever the model is thinking.
 */
import type { Writable } from 'node:stream';
import { styleText } from 'node:util';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const FRAME_MS = 100;

/** One line that redraws itself every 100 ms until cleared. */
class LineSpinner {
  private frame = 0;
  private readonly started = Date.now();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly out: Writable,
    private text: string,
    private readonly columns: () => number,
    private readonly dim: (s: string) => string,
  ) {
    this.out.write('\u001b[?25l');
    this.draw();
    this.timer = setInterval(() => this.draw(), FRAME_MS);
    this.timer.unref();
  }

  message(text: string): void {
    this.text = text;
    this.draw();
  }

  private draw(): void {
    const secs = Math.floor((Date.now() - this.started) / 1000);
    const glyph = FRAMES[this.frame++ % FRAMES.length] as string;
    const line = `${glyph} ${this.text}… (${secs}s)`.slice(0, Math.max(10, this.columns() - 1));
    this.out.write(`\r\u001b[2K${this.dim(line)}`);
  }

  clear(): void {
    clearInterval(this.timer);
    this.out.write('\r\u001b[2K\u001b[?25h');
  }
}

export type Style = 'dim' | 'red' | 'green' | 'yellow' | 'cyan' | 'bold';

export class Screen {
  private spin: LineSpinner | undefined;
  private spinText = '';
  private held: string[] | undefined;

  constructor(
    private readonly out: Writable,
    readonly color: boolean,
  ) {}

  get columns(): number {
    const c = (this.out as Writable & { columns?: number }).columns;
    return typeof c === 'number' && c > 0 ? c : 80;
  }

  style(kind: Style, text: string): string {
    return this.color ? styleText(kind, text, { validateStream: false }) : text;
  }

  /** Writes text (held while a prompt is open). */
  write(text: string): void {
    if (text === '') return;
    if (this.held) {
      this.held.push(text);
      return;
    }
    this.clearSpinner();
    this.out.write(text);
  }

  line(text: string): void {
    this.write(`${text}\n`);
  }

  /** Shows (or updates) the spinner line. */
  spinner(message: string): void {
    this.spinText = message;
    if (this.held) return;
    if (this.spin) {
      this.spin.message(message);
      return;
    }
    this.spin = new LineSpinner(
      this.out,
      message,
      () => this.columns,
      (t) => this.style('cyan', t),
    );
  }

  /** Removes the spinner line, if shown. */
  clearSpinner(): void {
    this.spinText = '';
    const s = this.spin;
    this.spin = undefined;
    s?.clear();
  }

  get spinning(): boolean {
    return this.spin !== undefined;
  }

  /** A prompt takes the terminal: the spinner goes, writes are held. */
  pause(): void {
    const text = this.spinText;
    this.clearSpinner();
    this.spinText = text;
    this.held ??= [];
  }

  /** The prompt closed: held writes are flushed, the spinner comes back if it was on. */
  resume(): void {
    const held = this.held ?? [];
    this.held = undefined;
    for (const t of held) this.write(t);
    if (this.spinText) this.spinner(this.spinText);
  }
}
