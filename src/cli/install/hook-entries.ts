/**
 * The hook entries `gantry install` adds to an agent's settings and `gantry uninstall` removes
 * (docs/guard.md "Install"). Pure functions over parsed settings objects: adding is idempotent
 * (an entry already there is not added twice), removing takes out exactly Gantry's entries and the
 * groups and event lists that only held them, and everything else keeps its order.
 *
 * Claude Code (hooks reference): `hooks.PreToolUse` / `hooks.PostToolUse` are lists of
 * `{matcher, hooks: [{type: "command", command, timeout?}]}`; HTTP hooks are
 * `{type: "http", url, headers, allowedEnvVars}`. Gemini CLI reads the same shape under its own
 * event names, `BeforeTool` and `AfterTool`. Codex reads Claude Code's shape and event names from
 * its own `hooks.json` files (command hooks only).
 */

export type HostAgent = 'claude' | 'gemini' | 'codex';

/** Event names per host: [before the tool runs, after it ran]. */
export const HOST_EVENTS: Record<HostAgent, readonly [string, string]> = {
  claude: ['PreToolUse', 'PostToolUse'],
  gemini: ['BeforeTool', 'AfterTool'],
  codex: ['PreToolUse', 'PostToolUse'],
};

export interface HookHandler {
  type: string;
  command?: string;
  url?: string;
  headers?: Record<string, string>;
  allowedEnvVars?: string[];
  timeout?: number;
}

interface MatcherGroup {
  matcher?: string;
  hooks?: HookHandler[];
  [k: string]: unknown;
}

/** True for a handler Gantry wrote: a `… gantry … hook` command or Gantry's local HTTP hook. */
export function isGantryHandler(h: unknown): boolean {
  if (!h || typeof h !== 'object') return false;
  const o = h as HookHandler;
  if (o.type === 'command' && typeof o.command === 'string')
    return /(^|[\s/'"])gantry(\.js)?['"]?\s+hook(\s|$)/.test(o.command);
  if (o.type === 'http' && typeof o.url === 'string')
    return (
      /^http:\/\/127\.0\.0\.1:\d+\/hook$/.test(o.url) &&
      JSON.stringify(o.allowedEnvVars ?? []).includes('GANTRY_HOOK_TOKEN')
    );
  return false;
}

/** The handlers to install: the command hook always (it fails closed), the HTTP hook on request. */
export function gantryHandlers(o: { command: string; http?: { port: number } }): HookHandler[] {
  const out: HookHandler[] = [{ type: 'command', command: o.command }];
  if (o.http)
    out.push({
      type: 'http',
      url: `http://127.0.0.1:${o.http.port}/hook`,
      headers: { Authorization: 'Bearer $GANTRY_HOOK_TOKEN' },
      allowedEnvVars: ['GANTRY_HOOK_TOKEN'],
    });
  return out;
}

function sameHandler(a: HookHandler, b: HookHandler): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Adds Gantry's handlers for both events of `host` to `settings` (a new object; the input is not
 * changed). Gantry handlers of an older install that differ are replaced in place.
 */
export function addGantryHooks(
  settings: Record<string, unknown>,
  host: HostAgent,
  handlers: HookHandler[],
): Record<string, unknown> {
  const out = structuredClone(settings);
  const hooks = (
    out.hooks && typeof out.hooks === 'object' && !Array.isArray(out.hooks) ? out.hooks : {}
  ) as Record<string, unknown>;
  out.hooks = hooks;
  for (const event of HOST_EVENTS[host]) {
    const groups = (Array.isArray(hooks[event]) ? hooks[event] : []) as MatcherGroup[];
    hooks[event] = groups;
    const ours = groups.find((g) => g && Array.isArray(g.hooks) && g.hooks.some(isGantryHandler));
    if (ours?.hooks) {
      const others = ours.hooks.filter((h) => !isGantryHandler(h));
      const current = ours.hooks.filter(isGantryHandler);
      if (
        current.length !== handlers.length ||
        current.some((h, i) => !sameHandler(h, handlers[i] as HookHandler))
      )
        ours.hooks = [...handlers, ...others];
      continue;
    }
    groups.push({ matcher: '*', hooks: [...handlers] });
  }
  return out;
}

/** Removes every Gantry handler; groups, event lists and a `hooks` object left empty go too. */
export function removeGantryHooks(settings: Record<string, unknown>): Record<string, unknown> {
  const out = structuredClone(settings);
  const hooks = out.hooks;
  if (!hooks || typeof hooks !== 'object' || Array.isArray(hooks)) return out;
  const h = hooks as Record<string, unknown>;
  for (const [event, list] of Object.entries(h)) {
    if (!Array.isArray(list)) continue;
    const kept = (list as MatcherGroup[])
      .map((g) => {
        if (!g || !Array.isArray(g.hooks) || !g.hooks.some(isGantryHandler)) return g;
        return { ...g, hooks: g.hooks.filter((x) => !isGantryHandler(x)) };
      })
      .filter((g) => !(g && Array.isArray(g.hooks) && g.hooks.length === 0));
    if (kept.length === 0) delete h[event];
    else h[event] = kept;
  }
  if (Object.keys(h).length === 0) delete out.hooks;
  return out;
}

/** Whether `settings` holds a Gantry handler for the host's before-tool event. */
export function hasGantryHook(settings: Record<string, unknown>, host: HostAgent): boolean {
  const hooks = settings.hooks as Record<string, unknown> | undefined;
  const list = hooks && typeof hooks === 'object' ? hooks[HOST_EVENTS[host][0]] : undefined;
  return (
    Array.isArray(list) &&
    (list as MatcherGroup[]).some((g) => Array.isArray(g?.hooks) && g.hooks.some(isGantryHandler))
  );
}
