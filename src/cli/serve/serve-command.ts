/**
 * `gantry serve [--port N] [--settings F] [--pass-allow]`: runs the HTTP hook (serve.ts) until
 * SIGINT or SIGTERM. The first line on stdout is the hook URL; where the token came from goes to
 * stderr (never the token itself). Exit 0 after a signal, 3 on a usage error, 1 when it cannot
 * listen (port in use, permission denied): one line naming the address, and the process ends.
 */
import { shellAnalysisSummary } from '../../shell/index.js';
import { listenFailure } from '../listen-error.js';
import { loadHookToken } from './hook-token.js';
import { startHookServer } from './serve.js';

export interface ServeCliOptions {
  port?: string;
  settings?: string[];
  passAllow?: boolean;
}

/** Default port, so an installed HTTP hook has a stable URL. */
export const DEFAULT_SERVE_PORT = 7477;

export async function runServe(o: ServeCliOptions): Promise<number> {
  const port = o.port === undefined ? DEFAULT_SERVE_PORT : Number(o.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`gantry serve: --port must be an integer from 0 to 65535, got ${o.port}\n`);
    return 3;
  }
  let token: ReturnType<typeof loadHookToken>;
  try {
    token = loadHookToken(process.env);
  } catch (e) {
    process.stderr.write(`gantry serve: ${(e as Error).message}\n`);
    return 3;
  }
  let running: Awaited<ReturnType<typeof startHookServer>>;
  try {
    running = await startHookServer({
      port,
      token: token.token,
      ...(o.settings ? { settingsFiles: o.settings } : {}),
      ...(o.passAllow ? { passAllow: true } : {}),
    });
  } catch (e) {
    process.stderr.write(`gantry serve: ${listenFailure(e, '127.0.0.1', port)}\n`);
    return 1;
  }
  process.stdout.write(`${running.url}\n`);
  process.stderr.write(`gantry serve: Bash analysis ${shellAnalysisSummary()}\n`);
  process.stderr.write(
    token.source === 'env'
      ? 'gantry serve: bearer token from GANTRY_HOOK_TOKEN\n'
      : `gantry serve: bearer token ${token.source === 'generated' ? 'generated and ' : ''}stored in ${token.file} (send it as Authorization: Bearer)\n`,
  );
  await new Promise<void>((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  await running.close();
  return 0;
}
