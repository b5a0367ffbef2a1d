/**
 * How the loop's events look in the interactive terminal (docs/cli-interactive.md):
 *
 * - the model's text, streamed as markdown blocks complete (`stream_event` text deltas);
 * - a spinner while the model works ("Thinking"), and while tools run ("Running Bash", with the
 *   elapsed time and the tool's own progress when it sends any);
 * - each tool call as `● Name(what)` when its block is complete, and its result under it as
 *   `  ⎿  first line` (errors in red, `… +N lines` when there is more);
 * - notices (`system/informational`, retries, compaction) as dim lines;
 * - the end of each prompt's turn: the error, or a dim line with the request count, cost and time.
 *
 * Events of sub-agents (those with a `parent_tool_use_id`) only keep the spinner going.
 */
import type { QueryEvent, ResultEvent } from '../../loop/types.js';
import { createMarkdownRenderer, MarkdownStream } from './markdown.js';
import type { Screen } from './screen.js';

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** One line saying what a call does: the command, the path, the pattern, or its input JSON. */
export function describeCall(name: string, input: unknown, max = 80): string {
  const i = isObj(input) ? input : {};
  const pick = (...keys: string[]): string | undefined => {
    for (const k of keys) if (typeof i[k] === 'string' && i[k] !== '') return i[k] as string;
    return undefined;
  };
  const text =
    pick(
      'command',
      'file_path',
      'notebook_path',
      'pattern',
      'url',
      'query',
      'path',
      'description',
      'prompt',
    ) ?? JSON.stringify(input ?? {});
  const one = text.replace(/\s*\n\s*/g, ' ⏎ ');
  return `${name}(${one.length > max ? `${one.slice(0, max - 1)}…` : one})`;
}

/** The text of a tool_result's content. */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((b) =>
      isObj(b) && b.type === 'text' && typeof b.text === 'string'
        ? b.text
        : isObj(b)
          ? `[${String(b.type)}]`
          : '',
    )
    .join('\n');
}

function formatCost(usd: number): string {
  return usd >= 0.01 ? `$${usd.toFixed(2)}` : `$${usd.toFixed(4)}`;
}

export class EventView {
  private md: MarkdownStream;
  private textStreamed = false;
  private inText = false;
  private readonly running = new Map<string, string>();

  constructor(private readonly screen: Screen) {
    this.md = new MarkdownStream(createMarkdownRenderer({ width: screen.columns - 2, color: screen.color }));
  }

  /** The person submitted a prompt: the model is thinking. */
  startTurn(): void {
    this.running.clear();
    this.screen.spinner('Thinking');
  }

  /** Renders one event; returns the result when the event ended a turn. */
  show(event: QueryEvent): ResultEvent | undefined {
    const sub = 'parent_tool_use_id' in event && typeof event.parent_tool_use_id === 'string';
    switch (event.type) {
      case 'stream_event':
        if (!sub) this.stream(event.event);
        return undefined;
      case 'assistant': {
        if (sub) return undefined;
        const block = event.message.content[0] as unknown;
        if (!isObj(block)) return undefined;
        if (block.type === 'text' && typeof block.text === 'string') {
          if (this.textStreamed) this.textStreamed = false;
          else this.screen.write(this.md.push(block.text) + this.md.end());
        } else if (block.type === 'tool_use' && typeof block.id === 'string') {
          const name = String(block.name);
          this.running.set(block.id, name);
          this.screen.line(
            `${this.screen.style('cyan', '●')} ${this.screen.style('bold', describeCall(name, block.input, this.screen.columns - 6))}`,
          );
          this.spinTools();
        }
        return undefined;
      }
      case 'user':
        if (!sub) this.toolResults(event.message.content);
        return undefined;
      case 'tool_progress': {
        if (sub) return undefined;
        const data = event.data;
        const extra =
          typeof data === 'string'
            ? data
            : isObj(data) && typeof data.message === 'string'
              ? data.message
              : '';
        this.spinTools(extra);
        return undefined;
      }
      case 'system':
        this.system(event as unknown as Record<string, unknown>);
        return undefined;
      case 'result':
        if (sub) return undefined;
        this.finish(event);
        return event;
      default:
        return undefined;
    }
  }

  private stream(e: Record<string, unknown>): void {
    if (e.type === 'content_block_start') {
      const b = e.content_block;
      this.inText = isObj(b) && b.type === 'text';
      if (isObj(b) && b.type === 'thinking') this.screen.spinner('Thinking');
    } else if (e.type === 'content_block_delta' && this.inText) {
      const d = e.delta;
      if (isObj(d) && d.type === 'text_delta' && typeof d.text === 'string') {
        this.textStreamed = true;
        this.screen.write(this.md.push(d.text));
      }
    } else if (e.type === 'content_block_stop' && this.inText) {
      this.inText = false;
      this.screen.write(this.md.end());
      this.screen.spinner('Thinking');
    }
  }

  private spinTools(extra = ''): void {
    const names = [...new Set(this.running.values())];
    if (!names.length) return;
    const what = names.length === 1 ? names[0] : `${this.running.size} tools (${names.join(', ')})`;
    this.screen.spinner(`Running ${what}${extra ? ` · ${extra.slice(0, 60)}` : ''}`);
  }

  private toolResults(content: unknown): void {
    if (!Array.isArray(content)) return;
    for (const b of content) {
      if (!isObj(b) || b.type !== 'tool_result' || typeof b.tool_use_id !== 'string') continue;
      if (!this.running.delete(b.tool_use_id)) continue;
      const lines = resultText(b.content)
        .split('\n')
        .filter((l) => l.trim() !== '');
      const first = (lines[0] ?? (b.is_error ? 'error' : '(no output)')).slice(0, this.screen.columns - 8);
      const more = lines.length > 1 ? this.screen.style('dim', ` … +${lines.length - 1} lines`) : '';
      const shown = b.is_error === true ? this.screen.style('red', first) : first;
      this.screen.line(`  ${this.screen.style('dim', '⎿')}  ${shown}${more}`);
    }
    if (this.running.size) this.spinTools();
    else this.screen.spinner('Thinking');
  }

  private system(e: Record<string, unknown>): void {
    switch (e.subtype) {
      case 'informational':
        if (typeof e.content === 'string') this.screen.line(this.screen.style('yellow', e.content));
        break;
      case 'api_retry':
        this.screen.spinner(
          `Retrying the model request (attempt ${String(e.attempt)} of ${String(e.max_retries)})`,
        );
        break;
      case 'compact_boundary':
        this.screen.line(
          this.screen.style('dim', 'The conversation was summarised to fit the context window.'),
        );
        break;
      default:
        break;
    }
  }

  private finish(r: ResultEvent): void {
    this.screen.write(this.md.end());
    this.inText = false;
    this.textStreamed = false;
    this.running.clear();
    this.screen.clearSpinner();
    const stats = `${r.num_turns} request${r.num_turns === 1 ? '' : 's'} · ${formatCost(r.total_cost_usd)} · ${(r.duration_ms / 1000).toFixed(1)}s`;
    if (r.is_error) {
      const why =
        r.terminal_reason === 'aborted_streaming' || r.terminal_reason === 'aborted_tools'
          ? 'Interrupted.'
          : r.errors?.join('; ') || r.result || r.subtype;
      this.screen.line(this.screen.style('red', why));
    }
    this.screen.line(this.screen.style('dim', `(${stats})`));
  }
}
