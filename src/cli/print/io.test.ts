import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { ControlChannel, ControlRequestError } from './control-channel.js';
import { LineWriter } from './line-writer.js';
import { type NdjsonItem, readNdjson } from './ndjson.js';
import { combinePrompt, readStdinText, StdinTooLargeError } from './stdin-prompt.js';

async function collect(chunks: (string | Buffer)[], maxLineBytes?: number): Promise<NdjsonItem[]> {
  const s = new PassThrough();
  const out: NdjsonItem[] = [];
  const done = (async () => {
    for await (const item of readNdjson(s, maxLineBytes ? { maxLineBytes } : {})) out.push(item);
  })();
  for (const c of chunks) s.write(c);
  s.end();
  await done;
  return out;
}

describe('readNdjson', () => {
  it('splits lines across chunk boundaries, drops \\r and blank lines, takes an unterminated last line', async () => {
    const items = await collect(['{"a":', '1}\r\n\n  \n{"b":2}\n{"c"', ':3}']);
    expect(items).toEqual([
      { kind: 'value', value: { a: 1 } },
      { kind: 'value', value: { b: 2 } },
      { kind: 'value', value: { c: 3 } },
    ]);
  });

  it('keeps a multi-byte character split between chunks', async () => {
    const bytes = Buffer.from('{"t":"é€"}\n');
    const items = await collect([bytes.subarray(0, 7), bytes.subarray(7)]);
    expect(items).toEqual([{ kind: 'value', value: { t: 'é€' } }]);
  });

  it('reports a line that is not JSON and goes on', async () => {
    const items = await collect(['not json\n{"ok":true}\n']);
    expect(items[0]).toMatchObject({ kind: 'not_json', excerpt: 'not json' });
    expect(items[1]).toEqual({ kind: 'value', value: { ok: true } });
  });

  it('skips an over-long line whole, reports its size, and reads the next one', async () => {
    const items = await collect([`{"x":"${'a'.repeat(50)}`, `${'b'.repeat(50)}"}\n{"y":1}\n`], 64);
    expect(items[0]).toMatchObject({ kind: 'too_long' });
    expect((items[0] as { bytes: number }).bytes).toBeGreaterThan(64);
    expect(items[1]).toEqual({ kind: 'value', value: { y: 1 } });
  });
});

describe('readStdinText / combinePrompt', () => {
  it('reads to the end and drops one trailing newline', async () => {
    const s = new PassThrough();
    const p = readStdinText(s, { havePrompt: false });
    s.end('line 1\nline 2\n');
    expect(await p).toEqual({ text: 'line 1\nline 2', timedOut: false });
  });

  it('refuses more than the cap instead of cutting it', async () => {
    const s = new PassThrough();
    const p = readStdinText(s, { havePrompt: false, maxBytes: 10 });
    s.write('0123456789');
    s.write('x');
    await expect(p).rejects.toBeInstanceOf(StdinTooLargeError);
  });

  it('with a prompt argument, a silent pipe is not waited for', async () => {
    const s = new PassThrough();
    expect(await readStdinText(s, { havePrompt: true, idleMs: 20 })).toEqual({ text: '', timedOut: true });
    s.destroy();
  });

  it('puts the prompt argument first, then the piped text', () => {
    expect(combinePrompt('review this', 'diff --git a b')).toBe('review this\n\ndiff --git a b');
    expect(combinePrompt(undefined, 'only stdin')).toBe('only stdin');
    expect(combinePrompt('only arg', '  \n')).toBe('only arg');
    expect(combinePrompt('  ', undefined)).toBeUndefined();
  });
});

describe('ControlChannel', () => {
  function setup() {
    const out = new PassThrough();
    const lines: Record<string, any>[] = [];
    let buf = '';
    out.on('data', (c: Buffer) => {
      buf += c.toString();
      let nl: number;
      while ((nl = buf.indexOf('\n')) >= 0) {
        lines.push(JSON.parse(buf.slice(0, nl)));
        buf = buf.slice(nl + 1);
      }
    });
    const channel = new ControlChannel(new LineWriter(out));
    const nextLine = async (n: number) => {
      while (lines.length < n) await new Promise((r) => setTimeout(r, 1));
      return lines[n - 1] as Record<string, any>;
    };
    return { channel, lines, nextLine };
  }

  it('sends a request with a fresh id and resolves with the matching answer', async () => {
    const { channel, nextLine } = setup();
    const p = channel.request({ subtype: 'can_use_tool', tool_name: 'Bash' });
    const sent = await nextLine(1);
    expect(sent).toMatchObject({
      type: 'control_request',
      request: { subtype: 'can_use_tool', tool_name: 'Bash' },
    });
    expect(
      channel.handleResponse({
        type: 'control_response',
        response: { subtype: 'success', request_id: 'other' },
      }),
    ).toBe(false);
    expect(
      channel.handleResponse({
        type: 'control_response',
        response: { subtype: 'success', request_id: sent.request_id, response: { behavior: 'allow' } },
      }),
    ).toBe(true);
    expect(await p).toEqual({ behavior: 'allow' });
  });

  it('an error answer rejects with its text', async () => {
    const { channel, nextLine } = setup();
    const p = channel.request({ subtype: 'hook_callback' });
    const sent = await nextLine(1);
    channel.handleResponse({
      type: 'control_response',
      response: { subtype: 'error', request_id: sent.request_id, error: 'boom' },
    });
    await expect(p).rejects.toMatchObject({ message: 'boom', kind: 'host_error' });
  });

  it('an abort sends control_cancel_request and rejects; the late answer is ignored', async () => {
    const { channel, nextLine } = setup();
    const ac = new AbortController();
    const p = channel.request({ subtype: 'can_use_tool' }, ac.signal);
    const sent = await nextLine(1);
    ac.abort();
    await expect(p).rejects.toMatchObject({ kind: 'aborted' });
    expect(await nextLine(2)).toEqual({ type: 'control_cancel_request', request_id: sent.request_id });
    expect(
      channel.handleResponse({
        type: 'control_response',
        response: { subtype: 'success', request_id: sent.request_id },
      }),
    ).toBe(false);
  });

  it('after the host input ends, pending and new requests fail at once', async () => {
    const { channel, nextLine } = setup();
    const p = channel.request({ subtype: 'can_use_tool' });
    await nextLine(1);
    channel.closeInput();
    await expect(p).rejects.toBeInstanceOf(ControlRequestError);
    await expect(channel.request({ subtype: 'hook_callback' })).rejects.toMatchObject({
      kind: 'input_closed',
    });
    expect(channel.pendingCount).toBe(0);
  });
});
