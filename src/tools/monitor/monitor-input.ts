/**
 * The Monitor tool's input (the Claude Code tools reference: `description`, exactly one of
 * `command` or `ws`, `timeout_ms`, `persistent`) and the checks that need no policy: the
 * `command`/`ws` choice and the shape of a WebSocket URL. Which hosts a `ws` URL may name is
 * decided in `ws-policy.ts`.
 */
import { z } from 'zod';

/** Deadline of a watch when `timeout_ms` is not given, ms (5 minutes). */
export const MONITOR_DEFAULT_TIMEOUT_MS = 300_000;
/** Longest deadline; a larger `timeout_ms` is lowered to this, ms (30 minutes). */
export const MONITOR_MAX_TIMEOUT_MS = 1_800_000;
/** Longest `ws.url` accepted, characters. */
export const MONITOR_MAX_URL_LENGTH = 2000;

export const MonitorInput = z
  .strictObject({
    description: z
      .string()
      .describe('What is being watched, in a few words (shown to the user and in every event).'),
    command: z
      .string()
      .describe(
        'A shell command that runs in the background; every line it prints on stdout becomes an event. Give this or ws, not both.',
      )
      .optional(),
    ws: z
      .strictObject({
        url: z.string().describe('A ws:// or wss:// URL, without a user name or password.'),
        protocols: z.array(z.string()).describe('WebSocket sub-protocols to offer.').optional(),
      })
      .describe(
        'A WebSocket to listen to; every text frame becomes an event. Give this or command, not both.',
      )
      .optional(),
    timeout_ms: z
      .number()
      .int()
      .positive()
      .describe(
        `Stop watching after this many milliseconds (default ${MONITOR_DEFAULT_TIMEOUT_MS}, at most ${MONITOR_MAX_TIMEOUT_MS}). Ignored when persistent is true.`,
      )
      .optional(),
    persistent: z
      .boolean()
      .describe('Keep watching with no deadline, until it is stopped with TaskStop or the session ends.')
      .optional(),
  })
  .superRefine((input, ctx) => {
    const hasCommand = input.command !== undefined;
    const hasWs = input.ws !== undefined;
    if (hasCommand === hasWs)
      ctx.addIssue({
        code: 'custom',
        path: hasCommand ? ['ws'] : ['command'],
        message: hasCommand
          ? 'give either command or ws, not both'
          : 'give exactly one of command (a shell command) or ws ({url}) to watch',
      });
  });

export type MonitorInput = z.infer<typeof MonitorInput>;

/** The deadline a call gets: undefined when persistent, else `timeout_ms` (default, capped). */
export function monitorTimeoutMs(input: Pick<MonitorInput, 'timeout_ms' | 'persistent'>): number | undefined {
  if (input.persistent === true) return undefined;
  return Math.min(input.timeout_ms ?? MONITOR_DEFAULT_TIMEOUT_MS, MONITOR_MAX_TIMEOUT_MS);
}

/** What is wrong with a `ws.url` before any policy (scheme, credentials, host); undefined when fine. */
export function invalidWsUrlMessage(raw: string): string | undefined {
  if (raw.length > MONITOR_MAX_URL_LENGTH)
    return `ws.url is ${raw.length} characters long; Monitor accepts at most ${MONITOR_MAX_URL_LENGTH}.`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `ws.url "${raw.slice(0, 200)}" is not a valid URL. Pass a full URL such as wss://example.com/events.`;
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:')
    return `ws.url must be a ws:// or wss:// URL, not ${url.protocol}//. To follow an HTTP stream, use command with a tool such as curl.`;
  if (url.username !== '' || url.password !== '')
    return 'ws.url carries a user name or password. Monitor does not send credentials in URLs; pass the URL without them.';
  if (url.hostname === '') return 'ws.url has no host name.';
  return undefined;
}
