/**
 * One line for a server that could not listen (`gantry serve`, `gantry mcp --transport http`,
 * `gantry fleet serve --http-port`): `cannot listen on HOST:PORT: <reason>`, the reason in words
 * for the errno codes a user can act on (Node's `listen` errors carry `code`), else the message.
 */
const REASONS: Readonly<Record<string, string>> = {
  EADDRINUSE: 'the port is already in use',
  EACCES: 'permission denied (ports below 1024 need privileges)',
  EADDRNOTAVAIL: 'the address is not available on this machine',
  ENOTFOUND: 'the host name does not resolve',
};

export function listenFailure(e: unknown, host: string, port: number): string {
  const code = (e as { code?: unknown } | null)?.code;
  const reason =
    typeof code === 'string' && REASONS[code] ? REASONS[code] : e instanceof Error ? e.message : String(e);
  return `cannot listen on ${host}:${port}: ${reason}`;
}
