/**
 * Turns a watch's lines into deliveries to the model (docs/monitor.md "Events"):
 *
 * - One delivery is in flight at a time. The first line is sent at once (after the lines that
 *   arrived in the same burst, on the next turn of the event loop); while that delivery waits to be
 *   read (`SessionInbox.deliver`'s `onTaken`), new lines collect here and go out together as the
 *   next delivery as soon as the model has read the previous one.
 * - Memory and context stay bounded: a line longer than `maxLineChars` is cut (the event says how
 *   many characters were cut); the lines waiting are at most `maxLines` and `maxChars` in total —
 *   the oldest are dropped first, and the event says how many.
 * - `end(note)` sends what is still waiting plus a closing note (why the watch ended), then
 *   `drained` settles. `discard()` forgets what waits (the watch was stopped on purpose).
 *
 * Every event is wrapped as `<monitor-event task-id="…" description="…">…</monitor-event>`; a
 * closing tag inside a line is defused so the text cannot end the wrapper early.
 */

/** How the batcher hands a text to the model. */
export type Deliver = (text: string, onTaken: () => void) => void;

export interface BatchLimits {
  /** Lines kept waiting (and sent in one event) at most. */
  maxLines: number;
  /** Characters of waiting lines at most. */
  maxChars: number;
  /** Characters of one line at most. */
  maxLineChars: number;
}

export const DEFAULT_BATCH_LIMITS: BatchLimits = { maxLines: 200, maxChars: 32_000, maxLineChars: 4_000 };

const TAG = 'monitor-event';
/** The end of a line that was cut. */
const CUT_MARK = /\u2026 \[\d+ more characters cut\]$/;

/** Escapes a value for a double-quoted attribute. */
function attribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/\n/g, ' ');
}

/** Defuses the wrapper's tags inside event text (`</monitor-event` → `<\/monitor-event`). */
function defuse(line: string): string {
  return line.includes(TAG) ? line.replace(/<(\/?)monitor-event/gi, '<\\$1monitor-event') : line;
}

export class EventBatcher {
  private lines: string[] = [];
  private chars = 0;
  private dropped = 0;
  private cutLines = 0;
  private inFlight = false;
  private scheduled: NodeJS.Immediate | undefined;
  private endNote: string | undefined;
  private finished = false;
  private resolveDrained!: () => void;
  /** Lines received in total, and events delivered. */
  received = 0;
  delivered = 0;
  /** Settles once the closing event was handed to the model (or the batcher was discarded). */
  readonly drained: Promise<void>;

  constructor(
    private readonly header: { taskId: string; description: string },
    private readonly deliver: Deliver,
    /** Called when a delivery throws (the session has ended): the watch should stop. */
    private readonly onDeliveryFailed: (error: unknown) => void,
    private readonly limits: BatchLimits = DEFAULT_BATCH_LIMITS,
  ) {
    this.drained = new Promise((resolve) => {
      this.resolveDrained = resolve;
    });
  }

  /** Adds one line (without its newline). Ignored after `end` or `discard`. */
  push(line: string): void {
    if (this.endNote !== undefined || this.finished) return;
    this.received++;
    let text = line;
    if (text.length > this.limits.maxLineChars) {
      const cut = text.length - this.limits.maxLineChars;
      text = `${text.slice(0, this.limits.maxLineChars)}… [${cut} more characters cut]`;
      this.cutLines++;
    }
    this.lines.push(text);
    this.chars += text.length;
    this.trim();
    this.schedule();
  }

  /** Sends what waits and a closing note, then settles `drained`. Idempotent. */
  end(note: string): void {
    if (this.endNote !== undefined || this.finished) return;
    this.endNote = note;
    this.schedule();
  }

  /** Forgets what waits and settles `drained` (the watch was stopped on purpose). */
  discard(): void {
    if (this.finished) return;
    this.finished = true;
    if (this.scheduled) clearImmediate(this.scheduled);
    this.lines = [];
    this.resolveDrained();
  }

  private trim(): void {
    let drop = 0;
    let chars = this.chars;
    while (
      this.lines.length - drop > this.limits.maxLines ||
      (chars > this.limits.maxChars && this.lines.length - drop > 1)
    ) {
      const line = this.lines[drop]!;
      chars -= line.length;
      if (CUT_MARK.test(line)) this.cutLines--;
      drop++;
    }
    if (drop > 0) {
      this.lines.splice(0, drop);
      this.chars = chars;
      this.dropped += drop;
    }
  }

  private schedule(): void {
    if (this.inFlight || this.scheduled || this.finished) return;
    this.scheduled = setImmediate(() => {
      this.scheduled = undefined;
      this.flush();
    });
  }

  private flush(): void {
    if (this.inFlight || this.finished) return;
    const closing = this.endNote !== undefined;
    if (this.lines.length === 0 && !closing) return;
    const text = this.render(closing);
    this.lines = [];
    this.chars = 0;
    this.dropped = 0;
    this.cutLines = 0;
    if (closing) this.finished = true;
    else this.inFlight = true;
    try {
      this.deliver(text, () => {
        this.inFlight = false;
        this.schedule();
      });
      this.delivered++;
    } catch (error) {
      this.finished = true;
      this.onDeliveryFailed(error);
    }
    if (this.finished) this.resolveDrained();
  }

  private render(closing: boolean): string {
    const { taskId, description } = this.header;
    const status = closing ? ' status="ended"' : '';
    const out = [`<${TAG} task-id="${attribute(taskId)}" description="${attribute(description)}"${status}>`];
    if (this.dropped > 0)
      out.push(`[${this.dropped} earlier line(s) dropped: they arrived faster than they could be delivered]`);
    if (this.cutLines > 0)
      out.push(`[${this.cutLines} line(s) cut at ${this.limits.maxLineChars} characters]`);
    for (const line of this.lines) out.push(defuse(line));
    if (closing) out.push(`[${defuse(this.endNote!)}]`);
    out.push(`</${TAG}>`);
    return out.join('\n');
  }
}
