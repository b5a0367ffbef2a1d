import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { listenFailure } from './listen-error.js';

const coded = (code: string, message = `listen ${code}`) =>
  Object.assign(new Error(message), { code, syscall: 'listen' });

describe('listenFailure', () => {
  const rows: Array<{ error: unknown; want: string; reason: string }> = [
    {
      error: coded('EADDRINUSE'),
      want: 'the port is already in use',
      reason: 'another process holds the port',
    },
    {
      error: coded('EACCES'),
      want: 'permission denied (ports below 1024 need privileges)',
      reason: 'a privileged port as a user',
    },
    {
      error: coded('EADDRNOTAVAIL'),
      want: 'the address is not available on this machine',
      reason: 'a host that is not local',
    },
    {
      error: coded('EWHATEVER', 'listen EWHATEVER: odd'),
      want: 'listen EWHATEVER: odd',
      reason: 'an unknown code keeps the message',
    },
    { error: 'plain text', want: 'plain text', reason: 'a thrown non-error is shown as text' },
  ];
  for (const row of rows)
    it(`${row.reason}`, () => {
      expect(listenFailure(row.error, '127.0.0.1', 7477)).toBe(
        `cannot listen on 127.0.0.1:7477: ${row.want}`,
      );
    });

  it('words the error a real listen on a taken port raises', async () => {
    const first = createServer();
    await new Promise<void>((r) => first.listen(0, '127.0.0.1', r));
    const port = (first.address() as { port: number }).port;
    const second = createServer();
    const error = await new Promise<unknown>((r) => {
      second.once('error', r);
      second.listen(port, '127.0.0.1');
    });
    await new Promise<void>((r) => first.close(() => r()));
    expect(listenFailure(error, '127.0.0.1', port)).toBe(
      `cannot listen on 127.0.0.1:${port}: the port is already in use`,
    );
  });
});
