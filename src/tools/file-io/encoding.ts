/**
 * Text encodings the file tools read and write back unchanged (the Claude Code tools reference leaves detection to us).
 *
 * - `utf8`: valid UTF-8, no BOM (also plain ASCII).
 * - `utf8-bom`: starts with EF BB BF.
 * - `utf16le`: starts with FF FE.
 * - `latin1`: not valid UTF-8 and not binary (e.g. a Windows-1252 file). Every byte maps to one char
 *   and back, so an edit never corrupts the bytes it does not touch.
 */

export type TextEncoding = 'utf8' | 'utf8-bom' | 'utf16le' | 'latin1';

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);
const UTF16LE_BOM = Buffer.from([0xff, 0xfe]);

/** Encoding of a file from its leading bytes (BOM) and, without a BOM, from UTF-8 validity. */
export function detectEncoding(bytes: Uint8Array): TextEncoding {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf8-bom';
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf16le';
  return isValidUtf8(bytes) ? 'utf8' : 'latin1';
}

/** Encoding from the first bytes only (a streamed file whose rest is not in memory). */
export function detectEncodingFromHead(head: Uint8Array): TextEncoding {
  if (head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf8-bom';
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return 'utf16le';
  // A multi-byte sequence may be cut at the end of the sample: ignore up to 3 trailing bytes.
  for (let cut = 0; cut <= 3 && cut <= head.length; cut++) {
    if (isValidUtf8(head.subarray(0, head.length - cut))) return 'utf8';
  }
  return 'latin1';
}

const fatalUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

function isValidUtf8(bytes: Uint8Array): boolean {
  try {
    fatalUtf8.decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** Length of the byte-order mark of `encoding` (0 when it has none). */
export function bomLength(encoding: TextEncoding): number {
  return encoding === 'utf8-bom' ? 3 : encoding === 'utf16le' ? 2 : 0;
}

/** Node's name for decoding the bytes after the BOM. */
export function nodeEncoding(encoding: TextEncoding): BufferEncoding {
  return encoding === 'utf16le' ? 'utf16le' : encoding === 'latin1' ? 'latin1' : 'utf8';
}

/** Decodes a whole file; the BOM is dropped from the text. */
export function decodeText(bytes: Buffer, encoding: TextEncoding = detectEncoding(bytes)): string {
  return bytes.subarray(bomLength(encoding)).toString(nodeEncoding(encoding));
}

/**
 * Encodes text for writing in `encoding`, adding the BOM back. For `latin1`, a character above
 * U+00FF cannot be stored: the file is upgraded to UTF-8 rather than silently losing it.
 * @returns the bytes and the encoding actually used.
 */
export function encodeText(text: string, encoding: TextEncoding): { bytes: Buffer; encoding: TextEncoding } {
  switch (encoding) {
    case 'utf8-bom':
      return { bytes: Buffer.concat([UTF8_BOM, Buffer.from(text, 'utf8')]), encoding };
    case 'utf16le':
      return { bytes: Buffer.concat([UTF16LE_BOM, Buffer.from(text, 'utf16le')]), encoding };
    case 'latin1':
      for (let i = 0; i < text.length; i++) {
        if (text.charCodeAt(i) > 0xff) return { bytes: Buffer.from(text, 'utf8'), encoding: 'utf8' };
      }
      return { bytes: Buffer.from(text, 'latin1'), encoding };
    default:
      return { bytes: Buffer.from(text, 'utf8'), encoding: 'utf8' };
  }
}
