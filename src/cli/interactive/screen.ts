/**
 * The terminal the interactive face writes to: plain writes, one spinner line (clack's, cleared
 * before anything else is written so output never interleaves with it), and a pause while a prompt
 * owns the terminal (writes are held and flushed when it closes).
 */
import { spinner as clackSpinner } from '@clack/prompts';
import type { Writable } from 'node:stream';
import { styleText } from 'node:util';

type Spinner = ReturnType<typeof clackSpinner>;

export type Style = 'dim' | 'red' | 'green' | 'yellow' | 'cyan' | 'bold';

export class Screen {
  private spin: Spinner | undefined;
  private spinText = '';
  private held: string[] | undefined;

  constructor(
    private readonly out: Writable,
    private readonly color: boolean,
  ) {}

  get columns(): number {
    const c = (this.out as Writable & { columns?: number }).columns;
    return typeof c === 'number' && c > 0 ? c : 80;
  }

  style(kind: Style, text: string): string {
    return this.color ? styleText(kind, text) : text;
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
    this.spin = clackSpinner({ output: this.out, withGuide: false, indicator: 'timer' });
    this.spin.start(message);
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
