/** Errors and timers of an MCP server connection (connection.ts). */

/**
 * A remote connection that is gone, as the SDK's HTTP transports report it: the fetch failed
 * (refused, reset), the server no longer knows the session (404), or the event stream broke and
 * could not be reopened.
 */
export function isConnectionLoss(error: unknown): boolean {
  const code = (error as { code?: unknown }).code;
  if (code === 404) return true;
  const text = `${messageOf(error)} ${messageOf((error as { cause?: unknown }).cause ?? '')}`;
  return /fetch failed|ECONNREFUSED|ECONNRESET|socket hang up|Session not found|terminated|Failed to reconnect|Maximum reconnection attempts|SSE stream disconnected/i.test(
    text,
  );
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error('timeout')), ms).unref()),
  ]);
}
