/**
 * Follows a growing output file and feeds every new byte to a sink, with one reused buffer, so
 * reading 1 GB of output keeps memory flat.
 */
import { open } from 'node:fs/promises';

/** Size of the reused read buffer (bytes). */
export const TAIL_CHUNK_BYTES = 1024 * 1024;

export class FileTail {
  /** Bytes consumed so far (the next read position). */
  position: number;
  private readonly buffer = Buffer.allocUnsafe(TAIL_CHUNK_BYTES);

  constructor(
    private readonly path: string,
    private readonly sink: (chunk: Uint8Array) => void,
    startPosition = 0,
  ) {
    this.position = startPosition;
  }

  /**
   * Reads from `position` to the current end of the file (at most `maxBytes`), feeding the sink.
   * Returns the number of bytes read. The chunk handed to the sink is only valid during the call.
   */
  async drain(maxBytes = Number.POSITIVE_INFINITY): Promise<number> {
    const handle = await open(this.path, 'r');
    let total = 0;
    try {
      while (total < maxBytes) {
        const want = Math.min(this.buffer.length, maxBytes - total);
        const { bytesRead } = await handle.read(this.buffer, 0, want, this.position);
        if (bytesRead === 0) break;
        this.position += bytesRead;
        total += bytesRead;
        this.sink(this.buffer.subarray(0, bytesRead));
      }
    } finally {
      await handle.close();
    }
    return total;
  }
}
