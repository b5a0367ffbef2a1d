/**
 * The end of one MCP session's tool runtime: its session services are disposed (background tasks
 * stopped: their process groups SIGTERMed, then SIGKILLed after the grace period), so nothing a
 * session started outlives it. Used when a stdio session ends, when an HTTP session is deleted or
 * expires, and at shutdown. Idempotent (disposing twice returns the first disposal).
 */
import type { ToolRuntime } from '../../runtime/index.js';

/** Disposes the session's services. Never rejects. */
export async function endRuntimeSession(runtime: Pick<ToolRuntime, 'services'>): Promise<void> {
  await runtime.services.dispose().catch(() => undefined);
}
