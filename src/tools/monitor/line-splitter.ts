/**
 * Splits a byte stream into lines (UTF-8, `\n` or `\r\n`), with bounded memory: a line that grows
 * past `maxLineBytes` without a newline is emitted in pieces of that size. `end()` emits the last
 * line when the stream did not end with a newline.
 */
import { StringDecoder } from 'node:string_decoder';

export class LineSplitter {
  private readonly decoder = new StringDecoder('utf8');
  private partial = '';

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxLineChars = 64 * 1024,
  ) {}

  write(chunk: Buffer): void {
    let text = this.partial + this.decoder.write(chunk);
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) break;
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      this.onLine(text.slice(start, end));
      start = nl + 1;
    }
    text = text.slice(start);
    while (text.length > this.maxLineChars) {
      this.onLine(text.slice(0, this.maxLineChars));
      text = text.slice(this.maxLineChars);
    }
    this.partial = text;
  }

  end(): void {
    const rest = this.partial + this.decoder.end();
    this.partial = '';
    if (rest !== '') this.onLine(rest.endsWith('\r') ? rest.slice(0, -1) : rest);
  }
}
